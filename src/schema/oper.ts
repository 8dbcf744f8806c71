import { decimal, mysqlTable, timestamp, tinyint, varchar } from 'drizzle-orm/mysql-core';
import type { TableNames } from '../model/table-names.js';
import { aptColumns } from './apt-columns.js';
import { bigintUnsigned } from './bigint-unsigned.js';
import { commonColumns, commonConstraints } from './common-columns.js';
import { hostTables } from './host.js';
import { seqDbForeignKey } from './seq-db-reference.js';

/** The activity table, named `names.OPER`. */
export function operTable(names: TableNames) {
  const name = names.OPER;
  return mysqlTable(
    name,
    {
      ...commonColumns(),
      CODIGO: varchar('CODIGO', { length: 50 }),
      DESCRICAO: varchar('DESCRICAO', { length: 250 }),
      UNIDADE_MEDIDA_SEQ_DB: bigintUnsigned('UNIDADE_MEDIDA_SEQ_DB'),
      QIG_DISPLAY: tinyint('QIG_DISPLAY', { unsigned: true }).default(1),
      REVISAO_DH: timestamp('REVISAO_DH'),
      ...aptColumns(),
      INDICE: decimal('INDICE', { precision: 11, scale: 2, mode: 'string' }),
    },
    (t) => [
      ...commonConstraints(t),
      seqDbForeignKey(name, t.UNIDADE_MEDIDA_SEQ_DB, hostTables.UNIDADE_MEDIDA.SEQ_DB, 'no action'),
    ],
  );
}
