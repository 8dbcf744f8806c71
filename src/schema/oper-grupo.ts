import { char, mysqlTable, timestamp, varchar } from 'drizzle-orm/mysql-core';
import type { TableNames } from '../model/table-names.js';
import { aptColumns } from './apt-columns.js';
import { bigintUnsigned } from './bigint-unsigned.js';
import { commonColumns, commonConstraints } from './common-columns.js';
import { hostTables } from './host.js';
import { seqDbForeignKey } from './seq-db-reference.js';

/** The activity-group table, named `names.OPER_GRUPO`; groups nest through OPER_GRUPO_SEQ_DB. */
export function operGrupoTable(names: TableNames) {
  const name = names.OPER_GRUPO;
  return mysqlTable(
    name,
    {
      ...commonColumns(),
      CODIGO: varchar('CODIGO', { length: 100 }),
      DESCRICAO: varchar('DESCRICAO', { length: 250 }),
      TIPO: char('TIPO', { length: 1 }).default(''),
      OPER_GRUPO_SEQ_DB: bigintUnsigned('OPER_GRUPO_SEQ_DB'),
      REVISAO_DH: timestamp('REVISAO_DH'),
      ETAPA_SEQ_DB: bigintUnsigned('ETAPA_SEQ_DB'),
      ...aptColumns(),
    },
    (t) => [
      ...commonConstraints(t),
      // Deleting a parent group that still has children, or a stage still in use, is refused: the
      // customer asks for RESTRICT on both.
      seqDbForeignKey(name, t.OPER_GRUPO_SEQ_DB, t.SEQ_DB, 'restrict'),
      seqDbForeignKey(name, t.ETAPA_SEQ_DB, hostTables.ETAPA.SEQ_DB, 'restrict'),
    ],
  );
}
