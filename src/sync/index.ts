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
export type { SchemaDifference, SchemaDifferenceKind, SchemaPlan } from './schema-difference.js';
export { type SyncOptions, syncSchema } from './sync.js';
