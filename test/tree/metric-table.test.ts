import { expect, it } from 'vitest';
import { tableNames } from '../../src/model/table-names.js';
import type { SqlExecutor } from '../../src/store/driver.js';
import { forgetMetricTableShape, metricTableShape } from '../../src/store/metric-table.js';
import { useScratchDatabase } from '../support/database.js';
import { installTables } from './fixture.js';

const scratch = useScratchDatabase('resolvers_metric_table', { hostSchema: true });
const names = tableNames();

// MySQL 8 reports a functional key part with a NULL COLUMN_NAME; MariaDB has none. The real server's
// answer about the metric table's indexes is edited on its way back as MySQL 8 would send it.
it('finds the key index beside an index of expressions, and never takes an expression for a key column', async () => {
  const { db } = scratch();
  await installTables(db, names);
  await db.execute(`ALTER TABLE ${names.OPER_GRUPO_METRICA} ADD KEY ix_host_expr (OPER_SEQ_DB)`);
  // information_schema as MySQL 8 reports a functional key part: a row of the index whose
  // COLUMN_NAME is NULL.
  const reporting = (edit: (row: { name: string; column: string | null }) => string | null): SqlExecutor => ({
    execute: (sql, params, options) => db.execute(sql, params, options),
    query: async <Row extends object>(sql: string, params?: readonly unknown[]) => {
      const rows = await db.query<{ name: string; column: string | null }>(sql, params);
      if (!sql.includes('information_schema.STATISTICS')) return rows as unknown as Row[];
      return rows.map((row) => ({ ...row, column: edit(row) })) as unknown as Row[];
    },
  });
  const shapeThrough = async (executor: SqlExecutor) => {
    forgetMetricTableShape(executor, names.OPER_GRUPO_METRICA);
    return metricTableShape(executor, names.OPER_GRUPO_METRICA);
  };

  // An index whose only part is an expression.
  const allExpression = reporting((row) => (row.name === 'ix_host_expr' ? null : row.column));
  expect((await shapeThrough(allExpression)).keyIndex).toBe('ix_metric_key');

  // The key index with an expression where FOLHA_TAREFA_SEQ_DB was: it no longer serves the lookup.
  const expressionInside = reporting((row) =>
    row.name === 'ix_metric_key' && row.column === 'FOLHA_TAREFA_SEQ_DB' ? null : row.column,
  );
  expect((await shapeThrough(expressionInside)).keyIndex).toBeUndefined();
});
