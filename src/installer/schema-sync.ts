import type { Database } from '../db/driver.js';
import type { TableNames } from '../table-names.js';

/** One way the four tables differ from what they must be (the schema sync's report, issue 2). */
export interface SchemaDifference {
  readonly kind: string;
  readonly table: string;
  readonly column?: string;
  readonly found?: string;
  readonly expected?: string;
  readonly destructive: boolean;
  readonly message: string;
}

/**
 * What the installer needs of the schema sync: a plan (its statements and differences) and running
 * it. A port, so the installer does not care how the DDL is made and tests can see its calls.
 */
export interface SchemaSync {
  plan(db: Database, names: TableNames): Promise<{ statements: string[]; differences: SchemaDifference[] }>;
  sync(db: Database, names: TableNames): Promise<unknown>;
}
