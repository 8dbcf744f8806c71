import { describe, expect, expectTypeOf, it } from 'vitest';
import { GalleryMediaError } from '../../src/gallery.js';
import { answerError } from '../../src/http/error-answer.js';
import {
  DatabaseConnectionError,
  DatabaseTimeoutError,
  TaskAssociationError,
} from '../../src/model/errors.js';
import { InstallerError } from '../../src/model/installer-errors.js';
import { ConfigurationError } from '../../src/model/issues.js';
import {
  BusyError,
  CrossSiteError,
  InvalidRequestError,
  MetricConflictError,
  NotFoundError,
  PayloadTooLargeError,
  ReadOnlyRowError,
  UnsupportedMediaTypeError,
} from '../../src/model/request-errors.js';

function answered(error: unknown) {
  const reported: unknown[] = [];
  const answer = answerError(error, { onError: (e) => reported.push(e), headers: { Vary: 'Accept' } });
  return {
    status: answer.status,
    retryAfter: answer.headers['Retry-After'],
    vary: answer.headers.Vary,
    body: JSON.parse(Buffer.from(answer.body ?? new Uint8Array()).toString('utf8')),
    reported: reported.length,
  };
}

describe('errors carry their status', () => {
  it('has one per class, and none for errors that are not answers', () => {
    const statuses = [
      new InvalidRequestError('X', 'x'),
      new PayloadTooLargeError('X', 'x'),
      new UnsupportedMediaTypeError('X', 'x'),
      new CrossSiteError('X', 'x'),
      new NotFoundError('X', 'x'),
      new ReadOnlyRowError('X', 'x'),
      new MetricConflictError([], 'x'),
      new BusyError('X', 'x'),
      new DatabaseTimeoutError('X', 'x'),
      new ConfigurationError('X', 'x'),
      new InstallerError('X', 'x'),
      new TaskAssociationError('X', 'x'),
      new GalleryMediaError('X', 422, 'x'),
    ].map((error) => error.status);
    expect(statuses).toEqual([400, 413, 415, 403, 404, 409, 409, 503, 503, 500, undefined, undefined, 422]);
  });

  // Found by a review: the guide says every class carries `status`, undefined on the base, whose type
  // had none (a host's `error.status` did not compile; the package read it through a helper).
  it('declares status on the base class, as a host reads it from any error of ours', () => {
    expectTypeOf<TaskAssociationError['status']>().toEqualTypeOf<number | undefined>();
    expect('status' in new TaskAssociationError('X', 'x')).toBe(true);
  });

  it('adds nothing to an error’s own properties, a gallery media error’s status neither', () => {
    expect(Object.keys(new NotFoundError('X', 'x', { path: 'p' })).sort()).toEqual(['code', 'name', 'path']);
    expect(Object.keys(new GalleryMediaError('X', 404, 'x')).sort()).toEqual(['code', 'name', 'path']);
  });
});

describe('answerError', () => {
  it('answers an error of ours with its status, code, message and path, unreported', () => {
    expect(
      answered(new NotFoundError('TASK_SHEET_NOT_FOUND', 'no such sheet', { path: 'taskSheet' })),
    ).toEqual({
      status: 404,
      retryAfter: undefined,
      vary: 'Accept',
      body: { error: { code: 'TASK_SHEET_NOT_FOUND', message: 'no such sheet', path: 'taskSheet' } },
      reported: 0,
    });
  });

  it('lists a conflict’s fields beside its message', () => {
    const conflict = {
      entry: 0,
      activity: 3,
      group: 1,
      field: 'METRICA1',
      base: '1',
      theirs: '2',
      row: true,
      yours: '3',
      changedBy: 7,
      changedAt: null,
    };
    expect(answered(new MetricConflictError([conflict], 'changed')).body).toEqual({
      error: { code: 'METRIC_CONFLICT', message: 'changed', conflicts: [conflict] },
    });
  });

  it('asks a 503 to wait: 5 s for a database that did not answer (reported), 1 s for busy writers (not)', () => {
    expect(answered(new DatabaseTimeoutError('DATABASE_TIMEOUT', 't'))).toMatchObject({
      status: 503,
      retryAfter: '5',
      reported: 1,
    });
    expect(answered(new DatabaseConnectionError('DATABASE_CONNECTION', 'c'))).toMatchObject({
      status: 503,
      retryAfter: '1',
      reported: 1,
    });
    expect(answered(new BusyError('METRICS_BUSY', 'b'))).toMatchObject({
      status: 503,
      retryAfter: '1',
      reported: 0,
    });
  });

  it('answers a lost connection 503 and anything else 500, reporting both without details', () => {
    const lost = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(answered(lost)).toMatchObject({
      status: 503,
      retryAfter: '1',
      body: { error: { code: 'DATABASE_CONNECTION_LOST' } },
      reported: 1,
    });
    expect(answered(new TypeError('secret detail'))).toEqual({
      status: 500,
      retryAfter: undefined,
      vary: 'Accept',
      body: { error: { code: 'INTERNAL_ERROR', message: 'the request failed on the server' } },
      reported: 1,
    });
  });

  it('answers an error of ours without a status 500 with its own code, reported', () => {
    expect(answered(new InstallerError('INSTALL_LOCKED', 'locked'))).toMatchObject({
      status: 500,
      body: { error: { code: 'INSTALL_LOCKED', message: 'locked' } },
      reported: 1,
    });
  });
});

describe('the gallery’s use of the one mapping', () => {
  const UPSTREAM = { status: 502, code: 'GALLERY_UPSTREAM', message: 'the gallery source is unavailable' };
  const gallery = (error: unknown) => {
    const reported: unknown[] = [];
    const answer = answerError(error, {
      onError: (e) => reported.push(e),
      unexpected: UPSTREAM,
      answers: (e) => e instanceof NotFoundError,
    });
    const body = JSON.parse(Buffer.from(answer.body ?? new Uint8Array()).toString('utf8'));
    return { status: answer.status, code: body.error.code, reported: reported.length };
  };

  it('answers the errors it names as they say, unreported', () => {
    expect(gallery(new NotFoundError('MEDIA_NOT_FOUND', 'no such image'))).toEqual({
      status: 404,
      code: 'MEDIA_NOT_FOUND',
      reported: 0,
    });
  });

  it('answers any other error, ours or a lost connection of its source, as the upstream failure, reported', () => {
    const lost = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    for (const error of [new TaskAssociationError('GALLERY_SOURCE', 'bad rows'), lost, new Error('boom')])
      expect(gallery(error)).toEqual({ status: 502, code: 'GALLERY_UPSTREAM', reported: 1 });
  });
});
