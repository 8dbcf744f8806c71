import { readScreenStart, type ScreenStart } from '../screen/start.js';
import { type PartContext, withSheetAndPlan } from './context.js';

/** `part=start`: what the screen paints first (the task sheet's header, the metric columns, the first level). */
export function startPart(context: PartContext, query: { readonly taskSheet: number }): Promise<ScreenStart> {
  return withSheetAndPlan(context, query.taskSheet, ({ plan, treeView }, sheet) =>
    readScreenStart(context.db, {
      scope: context.scope,
      taskSheet: sheet,
      plan,
      headerColumns: treeView?.taskSheetColumns,
    }),
  );
}
