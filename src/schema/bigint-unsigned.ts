import { bigint } from 'drizzle-orm/mysql-core';

/**
 * A `bigint unsigned` read as a number: SEQ_DB values and the columns pointing at them stay far
 * below 2^53, and the connection returns them as numbers (src/store/mysql.ts).
 */
export function bigintUnsigned(name: string) {
  return bigint(name, { mode: 'number', unsigned: true });
}
