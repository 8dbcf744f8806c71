import type { MetricBatch } from '../../model/metric-batch.js';
import { type SaveMetricsResult, saveCheckedMetrics } from '../save-metrics.js';
import type { PartContext } from './context.js';

/**
 * A PUT: the batch saved on the task sheet as the acting user. The scope's plan is read first, then
 * the body (`batch`, read and parsed by the handler, once): an installation that cannot serve answers
 * its 500 whatever the body, as before. The parsed batch is not checked again.
 */
export async function savePart(
  context: PartContext,
  query: { readonly taskSheet: number },
  batch: () => Promise<MetricBatch>,
): Promise<SaveMetricsResult> {
  const { db, plans, scope, user } = context;
  const { plan } = await plans.read(db, scope);
  const { entries, requestId, source } = await batch();
  return saveCheckedMetrics(
    db,
    {
      scope,
      user,
      taskSheet: query.taskSheet,
      entries,
      ...(requestId === undefined ? {} : { requestId }),
      ...(source === undefined ? {} : { source }),
    },
    plan,
  );
}
