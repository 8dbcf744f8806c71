import { describe, expect, it } from 'vitest';
import { answerError } from '../../src/http/error-answer.js';
import { DatabaseConnectionError } from '../../src/model/errors.js';
import type { Database } from '../../src/store/driver.js';
import type { CheckedBatch } from '../../src/tree/save-batch.js';
import { writeRetrying } from '../../src/tree/save-retry.js';

/** A database whose every transaction fails as mysql2 fails when the server cannot be reached. */
function unreachable(): { db: Database; driverError: Error } {
  const driverError = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:3306'), {
    code: 'ECONNREFUSED',
    fatal: true,
  });
  const fail = () => Promise.reject(driverError);
  const db = {
    query: fail,
    execute: fail,
    transaction: fail,
    connection: fail,
    schemaName: 'scratch',
    close: () => Promise.resolve(),
  } as unknown as Database;
  return { db, driverError };
}

describe('a save whose connection is lost', () => {
  it('answers 503 DATABASE_CONNECTION_LOST with a fixed sentence; the driver’s words, naming the server, go to onError only', async () => {
    const { db, driverError } = unreachable();
    const error = await writeRetrying(db, { taskSheet: 42 } as CheckedBatch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseConnectionError);
    expect(error).toMatchObject({
      code: 'DATABASE_CONNECTION_LOST',
      message:
        'the connection to the database was lost while saving metrics of task sheet 42: the save may or may not be stored; send it again with the same request id, which is then answered once, not applied twice',
      cause: driverError,
    });
    const reported: unknown[] = [];
    const answer = answerError(error, { onError: (e) => reported.push(e) });
    expect(answer.status).toBe(503);
    expect(new TextDecoder().decode(answer.body)).toContain('DATABASE_CONNECTION_LOST');
    expect(new TextDecoder().decode(answer.body)).not.toMatch(/ECONNREFUSED|10\.0\.0\.5/);
    expect(reported).toEqual([error]);
    expect((reported[0] as Error).cause).toBe(driverError);
  });
});
