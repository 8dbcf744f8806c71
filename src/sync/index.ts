// Public API of src/sync: re-exports only.
export { SchemaSyncError } from './errors.js';
export {
  type ColumnModel,
  expectedModel,
  type ForeignKeyModel,
  type KeyModel,
  type TableModel,
} from './expected-model.js';
export { type FoundTable, introspect } from './introspect.js';
export { planSchemaSync } from './plan.js';
export {
  differenceCodeAndPath,
  type SchemaDifference,
  type SchemaDifferenceKind,
  type SchemaPlan,
} from './schema-difference.js';
export { type SyncOptions, syncSchema } from './sync.js';
