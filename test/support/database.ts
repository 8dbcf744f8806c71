import { afterAll, beforeAll } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../../src/store/scratch.js';
import { runSqlFile } from '../../src/store/script.js';
import { resolveDatabaseUrl } from '../../src/store/url.js';

/** The server the tests run against: `$DATABASE_URL`, default the local MariaDB's `test` database. */
export const SERVER_URL = resolveDatabaseUrl(undefined, process.env);

/** The sample host schema, bundled with the package (a copy of shared/fixtures/host-schema.sql). */
export const HOST_SCHEMA_FILE = new URL('../../examples/host-schema.sql', import.meta.url);

/**
 * Gives the calling test file a scratch database of its own, created before its tests and dropped
 * after them. With `hostSchema: true` the sample host schema is loaded into it.
 *
 * @example const scratch = useScratchDatabase('schema-sync', { hostSchema: true });
 *          it('...', async () => { await scratch().db.query('SELECT 1'); });
 */
export function useScratchDatabase(
  tag: string,
  options: { hostSchema?: boolean } = {},
): () => ScratchDatabase {
  let scratch: ScratchDatabase | undefined;
  beforeAll(async () => {
    scratch = await createScratchDatabase(SERVER_URL, tag);
    if (options.hostSchema) await runSqlFile(scratch.url, HOST_SCHEMA_FILE);
  });
  afterAll(async () => {
    await scratch?.drop();
  });
  return () => {
    if (scratch === undefined) throw new Error('the scratch database exists only inside tests and hooks');
    return scratch;
  };
}

/** A fresh scratch database for one test (when a test needs its own, e.g. to compare before/after). */
export async function freshDatabase(
  tag: string,
  options: { hostSchema?: boolean } = {},
): Promise<ScratchDatabase> {
  const scratch = await createScratchDatabase(SERVER_URL, tag);
  if (options.hostSchema) await runSqlFile(scratch.url, HOST_SCHEMA_FILE);
  return scratch;
}
