import type { TableNames } from '../model/table-names.js';
import type { Database } from '../store/driver.js';
import { planSchemaSync } from '../sync/plan.js';
import type { SchemaPlan } from '../sync/schema-difference.js';
import { syncSchema } from '../sync/sync.js';

/**
 * What the installer needs of the package's schema sync: its plan (statements and differences) and
 * running it. A port, so tests can watch the calls; {@link SCHEMA_SYNC} is the real one.
 */
export interface SchemaSync {
  plan(db: Database, names: TableNames): Promise<SchemaPlan>;
  sync(db: Database, names: TableNames): Promise<unknown>;
}

export const SCHEMA_SYNC: SchemaSync = {
  plan: (db, names) => planSchemaSync(db, names),
  sync: (db, names) => syncSchema(db, names),
};
