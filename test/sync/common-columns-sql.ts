import { tableNames } from '../../src/model/table-names.js';
import { COMMON_COLUMN_NAMES } from '../../src/schema/common-columns.js';
import { createTables } from '../../src/schema/tables.js';
import { columnDefinition } from '../../src/sync/ddl.js';
import { tableModel } from '../../src/sync/expected-model.js';

/**
 * The common columns as our DDL writes them, and the keys they need, for a test's CREATE TABLE of
 * a table that is ours (it has them) but differs in another column: without them it would be refused
 * as a host's table (NOT_OUR_TABLE) before anything else is compared.
 */
export const COMMON_COLUMNS_SQL = [
  ...tableModel(createTables(tableNames()).OPER, 'OPER')
    .columns.filter((column) => COMMON_COLUMN_NAMES.includes(column.name))
    .map((column) => columnDefinition(column)),
  'PRIMARY KEY (EMPRESA, FILIAL, LOCAL, ID)',
  'UNIQUE KEY uq_seq_db (SEQ_DB)',
].join(', ');
