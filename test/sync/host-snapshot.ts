import { parseIdentifier, quoteIdentifier } from '../../src/model/identifier.js';
import type { SqlExecutor } from '../../src/store/driver.js';

/** Every host table of the sample schema: its SHOW CREATE TABLE and all its rows, to compare before/after. */
export async function snapshotHostTables(db: SqlExecutor, ours: readonly string[]) {
  const tables = await db.query<{ name: string }>(
    'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME',
  );
  const snapshot: Record<string, { ddl: unknown; rows: unknown[] }> = {};
  for (const { name } of tables) {
    if (ours.includes(name)) continue;
    const quoted = quoteIdentifier(parseIdentifier(name, 'host table'));
    const [ddl] = await db.query<Record<string, unknown>>(`SHOW CREATE TABLE ${quoted}`);
    snapshot[name] = {
      ddl: ddl?.['Create Table'],
      rows: await db.query(`SELECT * FROM ${quoted} ORDER BY 1`),
    };
  }
  return snapshot;
}
