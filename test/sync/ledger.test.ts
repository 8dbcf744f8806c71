import { expect, it } from 'vitest';
import { ledgerTable } from '../../src/schema/ledger.js';
import { readTable, readTables } from '../../src/store/information-schema.js';
import { execute } from '../../src/store/sql.js';
import { diffSchema } from '../../src/sync/diff.js';
import { tableModel } from '../../src/sync/expected-model.js';
import { LEDGER_DDL, ledgerUpgradesOf } from '../../src/sync/ledger.js';
import { useScratchDatabase } from '../support/database.js';

const scratch = useScratchDatabase('sync_ledger');

// How versions before the ledger's Drizzle definition created it: such a ledger must read as the
// same table.
const HAND_WRITTEN_DDL = `CREATE TABLE task_association_ledger (
  SEQ_DB bigint unsigned NOT NULL AUTO_INCREMENT,
  EMPRESA int NOT NULL,
  FILIAL int NOT NULL,
  LOCAL int NOT NULL,
  ENTRY_KEY varchar(100) NOT NULL,
  HOST_TABLE varchar(64) NOT NULL,
  ROW_SEQ_DB bigint unsigned DEFAULT NULL,
  INS_USUARIO_SEQ_DB bigint unsigned NOT NULL,
  INS_DH timestamp NULL DEFAULT CURRENT_TIMESTAMP,
  UPD_DH timestamp NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP,
  PACKAGE_VERSION varchar(40) DEFAULT NULL,
  PRIMARY KEY (SEQ_DB),
  UNIQUE KEY task_association_ledger_entry (EMPRESA, FILIAL, LOCAL, ENTRY_KEY)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`;

async function differences() {
  const { db } = scratch();
  const found = await readTables(db, ['task_association_ledger'], { indexes: true, foreignKeys: true });
  return diffSchema([tableModel(ledgerTable)], found).differences;
}

it('creates the ledger its Drizzle definition describes, once, and reads a hand-made one as the same', async () => {
  const { db } = scratch();
  expect(LEDGER_DDL.sql).toMatch(/^CREATE TABLE IF NOT EXISTS `task_association_ledger` \(/);
  await execute(db, LEDGER_DDL);
  // A second installation's apply finds it there and leaves it.
  await execute(db, LEDGER_DDL);
  expect(await differences()).toEqual([]);
  await db.execute('DROP TABLE task_association_ledger');
  await db.execute(HAND_WRITTEN_DDL);
  expect(await differences()).toEqual([]);
});

it('adds to an older ledger only the columns a table with rows can take, and refuses a table that is not a ledger', async () => {
  const { db } = scratch();
  await db.execute('DROP TABLE IF EXISTS task_association_ledger');
  // As the first versions made it: no UPD_DH, no PACKAGE_VERSION.
  await db.execute(
    HAND_WRITTEN_DDL.replace(/\n {2}UPD_DH[^\n]*/, '').replace(/\n {2}PACKAGE_VERSION[^\n]*/, ''),
  );
  await db.execute(
    "INSERT INTO task_association_ledger (EMPRESA, FILIAL, LOCAL, ENTRY_KEY, HOST_TABLE, INS_USUARIO_SEQ_DB) VALUES (1, 1, 1, 'link-field', 'sys_core_ds_tabela_campo', 1)",
  );
  const planned = await upgrades(db);
  expect(planned.map((upgrade) => upgrade.sql)).toEqual([
    'ALTER TABLE `task_association_ledger` ADD COLUMN `UPD_DH` timestamp NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP',
    'ALTER TABLE `task_association_ledger` ADD COLUMN `PACKAGE_VERSION` varchar(40) NULL DEFAULT NULL',
  ]);
  for (const upgrade of planned) await execute(db, upgrade);
  expect(await differences()).toEqual([]);
  expect(await upgrades(db)).toEqual([]);

  // A table of that name without the ledger's required columns is not ours to reshape.
  await db.execute('DROP TABLE task_association_ledger');
  await db.execute('CREATE TABLE task_association_ledger (NOTE varchar(10))');
  await expect(upgrades(db)).rejects.toMatchObject({ code: 'LEDGER_UNEXPECTED' });
});

/** The ledger's upgrades, decided over the ledger as read now. */
async function upgrades(db: Parameters<typeof readTable>[0]) {
  const found = await readTable(db, 'task_association_ledger');
  if (found === undefined) throw new Error('no ledger to upgrade');
  return ledgerUpgradesOf(found);
}
