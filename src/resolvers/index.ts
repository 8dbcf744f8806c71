// Public API of src/resolvers: re-exports only.
export {
  type AssociationContext,
  type AssociationHandlerOptions,
  createAssociationHandler,
} from './association-handler.js';
export { type ColumnType, checkValue, readColumnTypes } from './column-types.js';
export {
  BusyError,
  ConfigurationError,
  InvalidRequestError,
  NotFoundError,
  PayloadTooLargeError,
  ReadOnlyRowError,
} from './errors.js';
export {
  type Installation,
  resolveInstallation,
  resolveTableNames,
  resolveTreePlan,
} from './installation.js';
export {
  type BranchNode,
  LoadTaskTreeOptions,
  loadTaskTree,
  type TaskNode,
  type TaskTree,
  type TreeNode,
} from './load-task-tree.js';
export { MetricBatch, MetricEntry } from './metric-batch.js';
export {
  compileMetricDefaults,
  type DefaultInputs,
  defaultSource,
  type MetricDefaultsResolver,
  type MetricSource,
  type MetricValue,
  type ResolvedMetric,
  type ResolvedMetrics,
  resolveMetricDefaults,
} from './metric-defaults.js';
export { SaveMetricsOptions, type SaveMetricsResult, saveMetrics } from './save-metrics.js';
export { type PlannedLevel, planTree, type TreePlan } from './tree-plan.js';
