import { createHash } from 'node:crypto';
import type { Scope } from '../model/scope.js';

/**
 * The key the screen files its offline entries under: one per acting user and scope, so entries
 * queued on a phone are sent only by the person (and company, branch, site) who entered them, never
 * by whoever signs in next on the same browser. It is a label, not a secret or a credential: each
 * save is still authorised by the session that sends it. A hash, so the page holds no user number or
 * scope of its own to show or tamper with, and the same person in the same scope always gets the
 * same key (entries survive a new session).
 *
 * @example ownerKey({ EMPRESA: 1, FILIAL: 1, LOCAL: 1 }, 7) // 'k3Jt...' (22 characters)
 */
export function ownerKey(scope: Scope, user: number): string {
  return createHash('sha256')
    .update(`task-association/owner/v1|${scope.EMPRESA}|${scope.FILIAL}|${scope.LOCAL}|${user}`)
    .digest('base64url')
    .slice(0, 22);
}
