import { decimal, index, int, mysqlTable } from 'drizzle-orm/mysql-core';
import type { TableNames } from '../model/table-names.js';
import { bigintUnsigned } from './bigint-unsigned.js';
import { commonColumns, commonConstraints } from './common-columns.js';
import { METRIC_KEY_INDEX } from './constraint-names.js';
import { hostTables } from './host.js';
import { seqDbForeignKey, seqDbReference } from './seq-db-reference.js';

/** The metric values of an activity/group on a task sheet, named `names.OPER_GRUPO_METRICA`. */
export function operGrupoMetricaTable(names: TableNames) {
  const name = names.OPER_GRUPO_METRICA;
  const oper = seqDbReference(names.OPER);
  const operGrupo = seqDbReference(names.OPER_GRUPO);
  return mysqlTable(
    name,
    {
      ...commonColumns(),
      OPER_SEQ_DB: bigintUnsigned('OPER_SEQ_DB'),
      OPER_GRUPO_SEQ_DB: bigintUnsigned('OPER_GRUPO_SEQ_DB'),
      FOLHA_TAREFA_SEQ_DB: bigintUnsigned('FOLHA_TAREFA_SEQ_DB'),
      METRICA1: decimal('METRICA1', { precision: 10, scale: 2, mode: 'string' }),
      METRICA2: int('METRICA2'),
    },
    (t) => [
      ...commonConstraints(t),
      // Scope first: every read and write of this table names its scope, and the foreign key on
      // FOLHA_TAREFA_SEQ_DB keeps an index of its own instead of adopting this one.
      index(METRIC_KEY_INDEX).on(
        t.EMPRESA,
        t.FILIAL,
        t.LOCAL,
        t.FOLHA_TAREFA_SEQ_DB,
        t.OPER_SEQ_DB,
        t.OPER_GRUPO_SEQ_DB,
      ),
      seqDbForeignKey(name, t.OPER_SEQ_DB, oper.SEQ_DB, 'no action'),
      seqDbForeignKey(name, t.OPER_GRUPO_SEQ_DB, operGrupo.SEQ_DB, 'no action'),
      seqDbForeignKey(name, t.FOLHA_TAREFA_SEQ_DB, hostTables.FOLHA_TAREFA.SEQ_DB, 'no action'),
    ],
  );
}
