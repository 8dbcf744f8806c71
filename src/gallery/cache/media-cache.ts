import { GalleryConfigError } from '../gallery-errors.js';

/** One cached rendition: its bytes and the Content-Type they are served with. */
export interface CachedMedia {
  readonly bytes: Uint8Array;
  readonly contentType: string;
}

/**
 * Where renditions are kept between requests. Keys are ours (`[A-Za-z0-9_-]`, from content
 * hashes), and a value never changes once written for a key, so backends need no invalidation.
 */
export interface MediaCache {
  get(key: string): Promise<CachedMedia | undefined>;
  set(key: string, media: CachedMedia): Promise<void>;
  /** Releases connections or handles the cache opened itself. */
  close?(): Promise<void>;
}

const KEY = /^[A-Za-z0-9_-]{1,200}$/;

/** Refuses a key that could name anything but a cache entry (a path, a Redis pattern). */
export function checkCacheKey(key: string): string {
  if (!KEY.test(key))
    throw new GalleryConfigError('GALLERY_CACHE_KEY', `not a media cache key: ${JSON.stringify(key)}`);
  return key;
}

// Stored form shared by the backends: u16 type length, type, u32 body length, body. The lengths
// let a reader tell a whole entry from a cut one, which it then treats as missing.
export function encodeEntry(media: CachedMedia): Buffer {
  const type = Buffer.from(media.contentType, 'utf8');
  const head = Buffer.alloc(6 + type.length);
  head.writeUInt16BE(type.length, 0);
  type.copy(head, 2);
  head.writeUInt32BE(media.bytes.byteLength, 2 + type.length);
  return Buffer.concat([head, media.bytes]);
}

export function decodeEntry(stored: Buffer): CachedMedia | undefined {
  if (stored.length < 6) return undefined;
  const typeLength = stored.readUInt16BE(0);
  if (stored.length < 6 + typeLength) return undefined;
  const bodyLength = stored.readUInt32BE(2 + typeLength);
  if (stored.length !== 6 + typeLength + bodyLength) return undefined;
  return {
    contentType: stored.subarray(2, 2 + typeLength).toString('utf8'),
    bytes: stored.subarray(6 + typeLength),
  };
}
