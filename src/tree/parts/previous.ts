import { type PreviousSheet, readPreviousSheet } from '../screen/previous.js';
import { type PartContext, withSheetAndPlan } from './context.js';

/** `part=previous`: the values saved on the previous task sheet (or on `from`), for the screen to copy. */
export function previousPart(
  context: PartContext,
  query: { readonly taskSheet: number; readonly from?: number | undefined },
): Promise<PreviousSheet> {
  const { taskSheet, from } = query;
  return withSheetAndPlan(context, taskSheet, ({ plan }) =>
    readPreviousSheet(context.db, {
      scope: context.scope,
      taskSheet,
      plan,
      ...(from === undefined ? {} : { from }),
    }),
  );
}
