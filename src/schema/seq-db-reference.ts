import { type AnyMySqlColumn, foreignKey, mysqlTable } from 'drizzle-orm/mysql-core';
import { bigintUnsigned } from './bigint-unsigned.js';
import { foreignKeyName } from './constraint-names.js';

/**
 * A table seen only through its SEQ_DB, the column every foreign key here points at. Used for host
 * tables and for our own tables referenced from another factory, so each factory needs only the
 * installation's table names. Never handed to drizzle-kit: it would try to create it.
 */
export function seqDbReference(name: string) {
  return mysqlTable(name, {
    SEQ_DB: bigintUnsigned('SEQ_DB').notNull(),
  });
}

/**
 * What happens to a referencing row when the referenced row is deleted. `restrict` where the customer
 * asks for it; `no action`, the SQL default, where the customer only says "references" (InnoDB checks
 * both at once, so both refuse the delete; spelling them out keeps information_schema identical on
 * MariaDB and MySQL).
 */
export type DeleteRule = 'restrict' | 'no action';

/** A foreign key from `column` of table `table` to a SEQ_DB, named by {@link foreignKeyName}. */
export function seqDbForeignKey(
  table: string,
  column: AnyMySqlColumn,
  target: AnyMySqlColumn,
  onDelete: DeleteRule,
) {
  return foreignKey({ name: foreignKeyName(table, column.name), columns: [column], foreignColumns: [target] })
    .onDelete(onDelete)
    .onUpdate('no action');
}
