import { type MetricChange, readMetricHistory } from '../metric-history.js';
import { type PartContext, withSheetAndPlan } from './context.js';
import { missingParameter } from './missing.js';

export interface HistoryQuery {
  readonly taskSheet: number;
  readonly activity?: number | undefined;
  /** The node the activity hangs under; left out on a one-level tree. */
  readonly group?: number | undefined;
}

/** `part=history`: the changes of one activity's metrics on the task sheet, newest first. */
export async function historyPart(
  context: PartContext,
  query: HistoryQuery,
): Promise<{ changes: MetricChange[] }> {
  const { taskSheet, activity } = query;
  if (activity === undefined)
    throw missingParameter('activity', 'give the activity whose history is asked for as &activity=');
  return withSheetAndPlan(context, taskSheet, async ({ plan }) => {
    const changes = await readMetricHistory(context.db, {
      scope: context.scope,
      taskSheet,
      activity,
      group: query.group ?? null,
      plan,
    });
    return { changes };
  });
}
