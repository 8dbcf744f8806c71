// `task-association/tree`: the tree, its saves and history, the screen's reads and its handler (src/tree/ and
// the handler of src/http/). Re-exports only. The root (src/index.ts) names the ones it re-exports:
// the table view's reads (sheet, progress, previous sheet) live here alone.
export {
  type AssociationContext,
  type AssociationHandlerOptions,
  createAssociationHandler,
} from './http/association-handler.js';
export { assertSameSiteJson } from './http/same-site.js';
export { ConfigurationError } from './model/issues.js';
export {
  DEVICE_CLOCK_SKEW_SECONDS,
  MetricBatch,
  MetricEntry,
  RequestId,
  SaveSource,
} from './model/metric-batch.js';
export type { MetricValue } from './model/metrics.js';
export {
  BusyError,
  ConflictError,
  CrossSiteError,
  InvalidRequestError,
  type MetricConflict,
  MetricConflictError,
  NotFoundError,
  PayloadTooLargeError,
  ReadOnlyRowError,
  UnsupportedMediaTypeError,
} from './model/request-errors.js';
export { type PlannedLevel, planTree, type TreePlan } from './model/tree-plan.js';
export {
  type Installation,
  resolveInstallation,
  resolveTableNames,
  resolveTreePlan,
} from './tree/installation.js';
export {
  type BranchNode,
  LoadTaskTreeOptions,
  loadTaskTree,
  type TaskNode,
  type TaskTree,
  type TreeNode,
} from './tree/load-task-tree.js';
export {
  compileMetricDefaults,
  type DefaultInputs,
  defaultSource,
  type MetricDefaultsResolver,
  type MetricSource,
  type ResolvedMetric,
  type ResolvedMetrics,
  resolveMetricDefaults,
} from './tree/metric-defaults.js';
export { type MetricChange, ReadMetricHistoryOptions, readMetricHistory } from './tree/metric-history.js';
export type { SavedEntry } from './tree/save-decision.js';
export {
  REQUEST_RETENTION_SECONDS,
  SaveMetricsOptions,
  type SaveMetricsResult,
  saveMetrics,
} from './tree/save-metrics.js';
export type { LastChange } from './tree/saved-row.js';
export { type BranchParent, type ReadBranchOptions, readBranch } from './tree/screen/branch.js';
export { DEFAULT_LABEL_COLUMNS } from './tree/screen/labels.js';
export type { ScreenMetric, ScreenMetricSource, ScreenNode } from './tree/screen/nodes.js';
export {
  type CopiedEntry,
  type PreviousSheet,
  ReadPreviousSheetOptions,
  readPreviousSheet,
} from './tree/screen/previous.js';
export {
  type PathStep,
  type SearchMatch,
  type SearchResult,
  type SearchTreeOptions,
  searchTree,
} from './tree/screen/search.js';
export {
  MAX_SHEET_PAGE_SIZE,
  type NodeProgress,
  ReadSheetPageOptions,
  ReadSheetProgressOptions,
  readSheetPage,
  readSheetProgress,
  SheetFilter,
  type SheetPage,
  type SheetProgress,
  type SheetRow,
} from './tree/screen/sheet.js';
export {
  type HeaderColumn,
  type ReadScreenStartOptions,
  readScreenStart,
  type ScreenMetricColumn,
  type ScreenStart,
} from './tree/screen/start.js';
export { loadTaskSheet } from './tree/task-sheet.js';
