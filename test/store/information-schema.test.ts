import { expect, it } from 'vitest';
import { readTables, referencingKeys, tableOf } from '../../src/store/information-schema.js';
import { useScratchDatabase } from '../support/database.js';

// Where the server keeps MO_OPER and mo_oper apart (lower_case_table_names=0, this machine's
// MariaDB), information_schema still matches an IN list of names, and a referenced table's name,
// regardless of case: the reader must not take the one for the other.
const scratch = useScratchDatabase('store_information_schema');

it('reads a table only under its own name, and only the keys pointing at it', async () => {
  const { db } = scratch();
  const [server] = await db.query<{ folds: number }>('SELECT @@lower_case_table_names AS folds');
  expect(Number(server?.folds)).toBe(0);
  await db.execute('CREATE TABLE MO_CASE (SEQ_DB int PRIMARY KEY) ENGINE=InnoDB');
  await db.execute('CREATE TABLE mo_case (SEQ_DB int PRIMARY KEY, X int) ENGINE=InnoDB');
  await db.execute(
    'CREATE TABLE lower_child (SEQ_DB int PRIMARY KEY, P int, CONSTRAINT fk_lower FOREIGN KEY (P) REFERENCES mo_case (SEQ_DB)) ENGINE=InnoDB',
  );
  const found = await readTables(db, ['MO_CASE', 'other_table'], { indexes: true, foreignKeys: true });
  expect([...found.keys()]).toEqual(['MO_CASE']);
  expect([...(tableOf(found, 'MO_CASE')?.columns.keys() ?? [])]).toEqual(['SEQ_DB']);
  expect(tableOf(found, 'mo_case')).toBeUndefined();
  expect(await referencingKeys(db, 'MO_CASE')).toEqual([]);
  expect(await referencingKeys(db, 'mo_case')).toEqual([
    { table: 'lower_child', constraint: 'fk_lower', foldsNames: false },
  ]);
});
