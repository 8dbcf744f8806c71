import { readFile } from 'node:fs/promises';
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
