import {
  readSheetPage,
  readSheetProgress,
  type SheetFilter,
  type SheetPage,
  type SheetProgress,
} from '../screen/sheet.js';
import { type PartContext, withSheetAndPlan } from './context.js';

export interface SheetQuery {
  readonly taskSheet: number;
  readonly page?: number | undefined;
  readonly size?: number | undefined;
  readonly filter?: SheetFilter | undefined;
}

/** `part=sheet`: a page of every activity of the task sheet, with its path and values (the table view). */
export function sheetPart(context: PartContext, query: SheetQuery): Promise<SheetPage> {
  const { taskSheet, page, size, filter } = query;
  return withSheetAndPlan(context, taskSheet, ({ plan }) =>
    readSheetPage(context.db, {
      scope: context.scope,
      taskSheet,
      plan,
      ...(page === undefined ? {} : { page }),
      ...(size === undefined ? {} : { size }),
      ...(filter === undefined ? {} : { filter }),
    }),
  );
}

/** `part=progress`: how many activities have values, per node and for the whole sheet. */
export function progressPart(
  context: PartContext,
  query: { readonly taskSheet: number },
): Promise<SheetProgress> {
  const { taskSheet } = query;
  return withSheetAndPlan(context, taskSheet, ({ plan }) =>
    readSheetProgress(context.db, { scope: context.scope, taskSheet, plan }),
  );
}
