import { mysqlTable, timestamp, varchar } from 'drizzle-orm/mysql-core';
import type { TableNames } from '../model/table-names.js';
import { bigintUnsigned } from './bigint-unsigned.js';
import { commonColumns, commonConstraints } from './common-columns.js';
import { seqDbForeignKey, seqDbReference } from './seq-db-reference.js';

/** The activity-to-group link (which activities a group holds), named `names.OPER_OPER_GRUPO`. */
export function operNOperGrupoTable(names: TableNames) {
  const name = names.OPER_OPER_GRUPO;
  const oper = seqDbReference(names.OPER);
  const operGrupo = seqDbReference(names.OPER_GRUPO);
  return mysqlTable(
    name,
    {
      ...commonColumns(),
      OPER_GRUPO_SEQ_DB: bigintUnsigned('OPER_GRUPO_SEQ_DB'),
      OPER_SEQ_DB: bigintUnsigned('OPER_SEQ_DB'),
      DESCRICAO: varchar('DESCRICAO', { length: 250 }),
      REVISAO_DH: timestamp('REVISAO_DH'),
    },
    (t) => [
      ...commonConstraints(t),
      seqDbForeignKey(name, t.OPER_GRUPO_SEQ_DB, operGrupo.SEQ_DB, 'no action'),
      seqDbForeignKey(name, t.OPER_SEQ_DB, oper.SEQ_DB, 'no action'),
    ],
  );
}
