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
  CrossSiteError,
  InvalidRequestError,
  NotFoundError,
  PayloadTooLargeError,
  ReadOnlyRowError,
  UnsupportedMediaTypeError,
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
export { assertSameSiteJson } from './same-site.js';
export { SaveMetricsOptions, type SaveMetricsResult, saveMetrics } from './save-metrics.js';
export { type BranchParent, type ReadBranchOptions, readBranch } from './screen/branch.js';
export { DEFAULT_LABEL_COLUMNS } from './screen/labels.js';
export type { ScreenMetric, ScreenMetricSource, ScreenNode } from './screen/nodes.js';
export {
  type PathStep,
  type SearchMatch,
  type SearchResult,
  type SearchTreeOptions,
  searchTree,
} from './screen/search.js';
export {
  type HeaderColumn,
  type ReadScreenStartOptions,
  readScreenStart,
  type ScreenMetricColumn,
  type ScreenStart,
} from './screen/start.js';
export { loadTaskSheet } from './task-sheet.js';
export { type PlannedLevel, planTree, type TreePlan } from './tree-plan.js';
