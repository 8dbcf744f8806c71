// Public API of src/sync: re-exports only.

export { planSchemaSync } from './sync/plan.js';
export type {
  SchemaDifference,
  SchemaDifferenceKind,
  SchemaPlan,
} from './sync/schema-difference.js';
export { type SyncOptions, syncSchema } from './sync/sync.js';
export { SchemaSyncError } from './sync/sync-errors.js';
