import type { SqlExecutor } from '../../src/store/driver.js';

/*
 * information_schema as MySQL 8.0.19+ reports what MariaDB reports in its own words, for tests that
 * have only a MariaDB: the real server's answers are rewritten on their way back. What changes
 * (MySQL 8 reference manual, "The INFORMATION_SCHEMA COLUMNS Table", and normalize.ts):
 *
 * - integer display widths are gone (`bigint(20) unsigned` → `bigint unsigned`), `tinyint(1)` stays;
 * - COLUMN_DEFAULT: a NULL default is SQL NULL (MariaDB says the text `NULL`), string literals are
 *   unquoted, `current_timestamp()` is `CURRENT_TIMESTAMP` with `DEFAULT_GENERATED` in EXTRA;
 * - an expression default (MariaDB: unquoted and not a number) has `DEFAULT_GENERATED` in EXTRA and
 *   its quotes escaped (`concat(\'a\')`); `@@version` names no MariaDB;
 * - EXTRA's `on update current_timestamp()` is `DEFAULT_GENERATED on update CURRENT_TIMESTAMP`;
 * - a foreign key rule left unspecified is `NO ACTION` (MariaDB says `RESTRICT`): every `RESTRICT` is
 *   read as `NO ACTION` here, which the sync takes for the same rule.
 */

type Row = Record<string, unknown>;

const WIDTH = /^(tinyint|smallint|mediumint|int|bigint)\(\d+\)/;

/** One row of the columns statement (information_schema.COLUMNS) as MySQL 8 would send it. */
export function mySql8Column(row: Row): Row {
  const columnType = String(row.columnType);
  const type = /^tinyint\(1\)/.test(columnType) ? columnType : columnType.replace(WIDTH, '$1');
  let columnDefault = row.columnDefault as string | null;
  let extra = String(row.extra ?? '');
  if (columnDefault === 'NULL') columnDefault = null;
  else if (columnDefault !== null && /^current_timestamp\(\)$/i.test(columnDefault)) {
    columnDefault = 'CURRENT_TIMESTAMP';
    extra = extra === '' ? 'DEFAULT_GENERATED' : `DEFAULT_GENERATED ${extra}`;
  } else if (columnDefault !== null && /^'.*'$/s.test(columnDefault)) {
    columnDefault = columnDefault.slice(1, -1).replaceAll("''", "'");
  } else if (columnDefault !== null && !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(columnDefault)) {
    // An expression default: marked, its quotes escaped (`concat(\'a\')`).
    columnDefault = columnDefault.replaceAll("'", "\\'");
    extra = extra === '' ? 'DEFAULT_GENERATED' : `DEFAULT_GENERATED ${extra}`;
  }
  extra = extra.replace(/on update current_timestamp\(\)/i, 'on update CURRENT_TIMESTAMP');
  if (/on update/i.test(extra) && !extra.includes('DEFAULT_GENERATED')) extra = `DEFAULT_GENERATED ${extra}`;
  return { ...row, columnType: type, columnDefault, extra, mariaDb: 0 };
}

/** `db`, its information_schema reads answered as MySQL 8 would answer them. */
export function asMySql8(db: SqlExecutor): SqlExecutor {
  return {
    execute: (sql, params, options) => db.execute(sql, params, options),
    query: async <R extends object>(sql: string, params?: readonly unknown[]) => {
      const rows = await db.query<Row>(sql, params);
      if (sql.includes('information_schema.COLUMNS')) return rows.map(mySql8Column) as R[];
      if (sql.includes('information_schema.REFERENTIAL_CONSTRAINTS')) {
        const rule = (value: unknown) => (value === 'RESTRICT' ? 'NO ACTION' : value);
        return rows.map((row) => ({
          ...row,
          onDelete: rule(row.onDelete),
          onUpdate: rule(row.onUpdate),
        })) as R[];
      }
      return rows as R[];
    },
  };
}
