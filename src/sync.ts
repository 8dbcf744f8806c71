// Public API of src/sync: re-exports only.

export { type FoundTable, introspect } from './store/introspect.js';
export {
  type ColumnModel,
  expectedModel,
  type ForeignKeyModel,
  type KeyModel,
  type TableModel,
} from './sync/expected-model.js';
export { planSchemaSync } from './sync/plan.js';
export {
  differenceCodeAndPath,
  type SchemaDifference,
  type SchemaDifferenceKind,
  type SchemaPlan,
} from './sync/schema-difference.js';
export { type SyncOptions, syncSchema } from './sync/sync.js';
export { SchemaSyncError } from './sync/sync-errors.js';
