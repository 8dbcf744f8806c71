import { createHash } from 'node:crypto';
import { ConflictError } from '../model/request-errors.js';
import type { Scope } from '../model/scope.js';

/**
 * The key the screen files its offline entries under: one per acting user and scope, so entries
 * queued on a phone are sent only by the person (and company, branch, site) who entered them, never
 * by whoever signs in next on the same browser. It is a label, not a secret or a credential: each
 * save is still authorised by the session that sends it. A hash, so the key carries no scope to
 * tamper with, and the same person in the same scope always gets the same key (entries survive a new
 * session). The user's id itself is not hidden from their own page: `part=start` answers it too, so
 * the screen can name that user's changes "you".
 *
 * @example ownerKey({ EMPRESA: 1, FILIAL: 1, LOCAL: 1 }, 7) // 'k3Jt...' (22 characters)
 */
export function ownerKey(scope: Scope, user: number): string {
  return createHash('sha256')
    .update(`task-association/owner/v1|${scope.EMPRESA}|${scope.FILIAL}|${scope.LOCAL}|${user}`)
    .digest('base64url')
    .slice(0, 22);
}

/**
 * Refuses a save whose `owner` (the key its entries were made under) is not the session's: someone
 * else signed in on the browser between the sender asking `part=owner` and this request, and the
 * request rides their cookie. Checked before the request id is looked up and before anything is
 * written, so nothing of it is stored as the wrong person, not even as the replay of a save once
 * stored. A save without `owner` is the session's, as before.
 *
 * @example assertOwner(ownerKey(scope, 8), scope, 7) // throws ConflictError OWNER_CHANGED at `owner`
 */
export function assertOwner(sent: string | undefined, scope: Scope, user: number): void {
  if (sent === undefined || sent === ownerKey(scope, user)) return;
  throw new ConflictError(
    'OWNER_CHANGED',
    'the entries were made as another user or scope than the one signed in now: nothing was saved; ask part=owner who is signed in, and send them only as their owner',
    { path: 'owner' },
  );
}
