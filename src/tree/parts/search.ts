import { type SearchResult, searchTree } from '../screen/search.js';
import { type PartContext, withSheetAndPlan } from './context.js';
import { missingParameter } from './missing.js';

/** `part=search`: the nodes of every level whose labels hold the words of `q`, each with its path. */
export async function searchPart(
  context: PartContext,
  query: { readonly taskSheet: number; readonly q?: string | undefined },
): Promise<SearchResult> {
  const { q } = query;
  if (q === undefined) throw missingParameter('q', 'give the text to search for as &q=');
  return withSheetAndPlan(context, query.taskSheet, ({ plan }) =>
    searchTree(context.db, { scope: context.scope, plan, text: q }),
  );
}
