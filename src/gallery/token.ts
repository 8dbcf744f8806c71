import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { GalleryConfigError } from './gallery-errors.js';

const HASH_BYTES = 16;
const MAC_BYTES = 16;
// 22 + 22 base64url characters: anything else is refused before a single byte is decoded.
const TOKEN = /^[A-Za-z0-9_-]{44}$/;
// Binds the MAC to this use, so a secret shared with another system cannot mint our tokens.
const DOMAIN = 'task-association/caroulsel-media/v1:';

export const Secrets = z
  .array(
    z.string('a gallery secret is a string').min(16, 'a gallery secret needs at least 16 characters'),
    'must be a list of secrets, each a string of 16 characters or more',
  )
  .min(1, 'the gallery needs at least one secret');

/** The content hash a token names (base64url, 22 characters): also the media's cache identity. */
export type ContentHash = string & { readonly __brand: 'ContentHash' };

/** Hashes media bytes to the {@link ContentHash} tokens are derived from. */
export function contentHash(bytes: Uint8Array): ContentHash {
  return createHash('sha256')
    .update(bytes)
    .digest()
    .subarray(0, HASH_BYTES)
    .toString('base64url') as ContentHash;
}

export interface TokenSigner {
  /** The URL-safe token for media with this content hash, signed with the first secret. */
  sign(hash: ContentHash): string;
  /** The content hash a genuine token names, or undefined; checks the MAC before anything else. */
  verify(token: string): ContentHash | undefined;
}

/**
 * Tokens are `base64url(hash) + base64url(HMAC-SHA256(secret, context + hash))`, both truncated to
 * 128 bits. The first secret signs and every secret verifies, so a secret is rotated by putting the
 * new one first and dropping the old one once cached pages have expired.
 *
 * `context` names how the media is rendered (pipeline version and sizes): when it changes, every
 * URL changes too, so a browser holding a URL "immutable" never keeps a rendition made the old way.
 */
export function createTokenSigner(secrets: readonly string[], context = ''): TokenSigner {
  const parsed = Secrets.safeParse(secrets);
  if (!parsed.success) {
    // Said where it is, as the gallery's other options are (`secrets.1` for the second).
    const issue = parsed.error.issues[0];
    const path = ['secrets', ...(issue?.path ?? [])].join('.');
    throw new GalleryConfigError('GALLERY_SECRET', `gallery option ${path}: ${issue?.message ?? 'invalid'}`, {
      path,
    });
  }
  const keys = parsed.data.map((secret) => Buffer.from(secret, 'utf8'));
  const mac = (key: Buffer, hash: string) =>
    createHmac('sha256', key).update(`${DOMAIN}${context}:`).update(hash).digest().subarray(0, MAC_BYTES);
  const first = keys[0] as Buffer;
  return {
    sign: (hash) => hash + mac(first, hash).toString('base64url'),
    verify(token) {
      if (!TOKEN.test(token)) return undefined;
      const hash = token.slice(0, 22);
      const given = Buffer.from(token.slice(22), 'base64url');
      // Re-encoding must give the same text: rejects the non-canonical spellings of the last character.
      if (given.length !== MAC_BYTES || given.toString('base64url') !== token.slice(22)) return undefined;
      let valid = false;
      // Every key is tried, so the time taken does not say which secret (if any) matched.
      for (const key of keys) valid = timingSafeEqual(mac(key, hash), given) || valid;
      return valid ? (hash as ContentHash) : undefined;
    },
  };
}
