import { afterEach, describe, expect, it } from 'vitest';
import {
  HISTORY_TABLE_NAME,
  LOCK_TABLE_NAME,
  REQUEST_TABLE_NAME,
  tableNames,
} from '../../src/model/table-names.js';
import type { Database, SqlExecutor } from '../../src/store/driver.js';
import type { ScratchDatabase } from '../../src/store/scratch.js';
import { planSchemaSync, SHARED_TABLES } from '../../src/sync/plan.js';
import { syncSchema } from '../../src/sync/sync.js';
import { freshDatabase } from '../support/database.js';
import { snapshotHostTables } from './host-snapshot.js';
import { asMySql8, mySql8Column } from './mysql8.js';

// The metric history and the saves' request ids are tables of the package's own, shared by every
// installation of a database: the schema sync creates them once, beside whichever four it is asked
// for, and later only adds what they miss.
let scratch: ScratchDatabase | undefined;
afterEach(async () => {
  await scratch?.drop();
  scratch = undefined;
});

async function host(): Promise<Database> {
  scratch = await freshDatabase('sync_shared', { hostSchema: true });
  return scratch.db;
}

const SHARED = [HISTORY_TABLE_NAME, REQUEST_TABLE_NAME, LOCK_TABLE_NAME];
const UP_TO_DATE = { statements: [], statementTables: [], differences: [] };
const first = tableNames();
const second = tableNames({
  OPER: 'MO_OPER',
  OPER_GRUPO: 'MO_OPER_GRUPO',
  OPER_GRUPO_METRICA: 'MO_OPER_GRUPO_METRICA',
  OPER_OPER_GRUPO: 'MO_OPER_MO_OPER_GRUPO',
});
const created = (statements: readonly string[]) => statements.map((sql) => sql.split(' (')[0]);

/** The shared tables as a person sees them: their DDL and every row. */
async function sharedState(db: SqlExecutor) {
  const all = await snapshotHostTables(db, []);
  return Object.fromEntries(SHARED.map((name) => [name, all[name]]));
}

describe('the shared tables in the schema sync', () => {
  it('are created once per database: a sync for another installation adds nothing to them and keeps their rows', async () => {
    const db = await host();
    const once = await syncSchema(db, first);
    expect(created(once.statements)).toEqual(
      [...Object.values(first), ...SHARED].map((name) => `CREATE TABLE \`${name}\``),
    );
    expect(SHARED_TABLES.map((table) => table.name)).toEqual(SHARED);
    await db.execute(
      `INSERT INTO ${HISTORY_TABLE_NAME} (EMPRESA, FILIAL, LOCAL, METRIC_TABLE, ROW_SEQ_DB, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, FIELD, ACTION, NEW_VALUE, USUARIO_SEQ_DB, SOURCE) VALUES (1, 1, 1, 'app_oper_grupo_metrica', 1, 1, 1, 'METRICA1', 'insert', '12.50', 7, 'screen')`,
    );
    await db.execute(
      `INSERT INTO ${REQUEST_TABLE_NAME} (EMPRESA, FILIAL, LOCAL, REQUEST_ID, BODY_HASH, ANSWER, USUARIO_SEQ_DB) VALUES (1, 1, 1, 'r-1', 'h', '{}', 7)`,
    );
    const before = await sharedState(db);

    // Another installation of the database, under other names: its four tables, nothing shared.
    const plan = await planSchemaSync(db, second);
    expect(plan.statementTables).toEqual(Object.values(second));
    expect(plan.differences.map((difference) => difference.table)).toEqual(Object.values(second));
    expect(created((await syncSchema(db, second)).statements)).toEqual(
      Object.values(second).map((name) => `CREATE TABLE \`${name}\``),
    );
    expect(await sharedState(db)).toEqual(before);

    // Run twice, each installation's sync runs nothing (text, mediumtext and timestamp defaults
    // read back as the model's).
    for (const names of [first, second]) {
      expect(await planSchemaSync(db, names)).toEqual(UP_TO_DATE);
      expect(await syncSchema(db, names)).toEqual({ statements: [], applied: false });
    }
    expect(await sharedState(db)).toEqual(before);
  });

  it('a second sync runs nothing on MySQL 8 either: its spellings of the same tables read as up to date', async () => {
    const db = await host();
    await syncSchema(db, first);
    // The rewrite really changes what the shared tables' columns report.
    const columns = await db.query<Record<string, unknown>>(
      "SELECT TABLE_NAME AS tableName, COLUMN_NAME AS name, COLUMN_TYPE AS columnType, COLUMN_DEFAULT AS columnDefault, EXTRA AS extra FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME IN ('SEQ_DB', 'OLD_VALUE', 'CHANGED_DH', 'DEVICE_DH') ORDER BY ORDINAL_POSITION",
      [HISTORY_TABLE_NAME],
    );
    expect(columns.map(mySql8Column)).toEqual([
      expect.objectContaining({ name: 'SEQ_DB', columnType: 'bigint unsigned', columnDefault: null }),
      expect.objectContaining({ name: 'OLD_VALUE', columnType: 'text', columnDefault: null, extra: '' }),
      expect.objectContaining({
        name: 'CHANGED_DH',
        columnDefault: 'CURRENT_TIMESTAMP',
        extra: 'DEFAULT_GENERATED',
      }),
      expect.objectContaining({ name: 'DEVICE_DH', columnDefault: null, extra: '' }),
    ]);
    expect(await planSchemaSync(asMySql8(db), first)).toEqual(UP_TO_DATE);
    // Another installation's sync on that server creates its four tables and nothing shared.
    const other = await planSchemaSync(asMySql8(db), second);
    expect(other.statementTables).toEqual(Object.values(second));
    expect(other.differences.map(({ kind, table }) => `${kind} ${table}`)).toEqual(
      Object.values(second).map((name) => `missing-table ${name}`),
    );
  });

  it("adds back a shared table's missing column and index, and refuses a column of another type", async () => {
    const db = await host();
    await syncSchema(db, first);
    await db.execute(`ALTER TABLE ${HISTORY_TABLE_NAME} DROP COLUMN DEVICE_DH`);
    await db.execute(`ALTER TABLE ${REQUEST_TABLE_NAME} DROP INDEX ix_request_time`);
    const plan = await planSchemaSync(db, first);
    expect(plan.differences.map(({ kind, table, column }) => ({ kind, table, column }))).toEqual([
      { kind: 'missing-column', table: HISTORY_TABLE_NAME, column: 'DEVICE_DH' },
      { kind: 'missing-key', table: REQUEST_TABLE_NAME, column: undefined },
    ]);
    expect(plan.statements).toEqual([
      `ALTER TABLE \`${HISTORY_TABLE_NAME}\`\n  ADD COLUMN \`DEVICE_DH\` timestamp NULL DEFAULT NULL`,
      `ALTER TABLE \`${REQUEST_TABLE_NAME}\`\n  ADD KEY \`ix_request_time\` (\`INS_DH\`)`,
    ]);
    await syncSchema(db, first);
    expect(await planSchemaSync(db, first)).toEqual(UP_TO_DATE);

    await db.execute(`ALTER TABLE ${HISTORY_TABLE_NAME} MODIFY COLUMN FIELD int NOT NULL`);
    await expect(syncSchema(db, second)).rejects.toMatchObject({
      code: 'DESTRUCTIVE_DIFFERENCE',
      path: `${HISTORY_TABLE_NAME}.FIELD`,
      differences: [expect.objectContaining({ kind: 'column-type', found: 'int', expected: 'varchar(64)' })],
    });
    // Refused before anything ran: the second installation's tables were not created either.
    expect(await db.query("SHOW TABLES LIKE 'MO_%'")).toEqual([]);
  });
});
