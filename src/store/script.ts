import { readFile } from 'node:fs/promises';
import mysql from 'mysql2/promise';
import { openDatabase } from './mysql.js';

/**
 * Runs an SQL script (several statements) on `url`: used to load a sample host schema in the demo
 * and the tests. Only for trusted files of ours; never for user input.
 */
export async function runSqlFile(url: string, file: string | URL): Promise<void> {
  const text = await readFile(file, 'utf8');
  const db = await openDatabase(url, { connectionLimit: 1, multipleStatements: true });
  try {
    await db.execute(text);
  } finally {
    await db.close();
  }
}

/**
 * A statement with its `?` parameters written in as SQL literals (mysql2's own escaping, dates in
 * UTC as our connections use them), ending in `;`: a line of a script a DBA can review and run.
 */
export function inlineStatement(sql: string, params: readonly unknown[]): string {
  // Our parameters are what mysql2 binds at run time (numbers, strings, null, dates), so they format alike.
  return `${mysql.format(sql, [...params] as Parameters<typeof mysql.format>[1], false, 'Z')};`;
}
