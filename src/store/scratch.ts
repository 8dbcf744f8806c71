import { randomBytes } from 'node:crypto';
import { type Identifier, parseIdentifier } from '../model/identifier.js';
import type { Database } from './driver.js';
import { openDatabase } from './mysql.js';
import { execute, type Sql, sql } from './sql.js';
import { withDatabase } from './url.js';

export interface ScratchDatabase {
  /** The database's name, e.g. `ta_schema_sync_k3x9q2`. */
  readonly name: string;
  /** A URL on the same server and credentials, pointing at the scratch database. */
  readonly url: string;
  /** An open pool on it. */
  readonly db: Awaited<ReturnType<typeof openDatabase>>;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/**
 * Creates a fresh database next to the one `serverUrl` names (the demo and every test file get one
 * of their own). `tag` becomes part of the name, cut down to what an identifier allows.
 */
export async function createScratchDatabase(serverUrl: string, tag: string): Promise<ScratchDatabase> {
  const suffix = randomBytes(4).toString('hex');
  const stem = tag.replace(/[^A-Za-z0-9_]+/g, '_').slice(0, 40);
  const name = parseIdentifier(`ta_${stem}_${suffix}`, 'scratch database name');
  const admin = await openDatabase(serverUrl, { connectionLimit: 1 });
  try {
    await execute(admin, createDatabaseStatement(name));
  } finally {
    await admin.close();
  }
  const url = withDatabase(serverUrl, name);
  const db = await openDatabase(url);
  return {
    name,
    url,
    db,
    async drop() {
      await db.close();
      await dropDatabase(serverUrl, name);
    },
  };
}

async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const admin: Database = await openDatabase(serverUrl, { connectionLimit: 1 });
  try {
    await execute(
      admin,
      sql`DROP DATABASE IF EXISTS ${sql.identifier(parseIdentifier(name, 'database name'))}`,
    );
  } finally {
    await admin.close();
  }
}

export function createDatabaseStatement(name: Identifier): Sql {
  return sql`CREATE DATABASE ${sql.identifier(name)} CHARACTER SET utf8mb4`;
}

export function dropDatabaseStatement(name: Identifier): Sql {
  return sql`DROP DATABASE IF EXISTS ${sql.identifier(name)}`;
}
