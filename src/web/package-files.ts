import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Answer } from '../gallery/answer.js';
import { matchesEtag, SECURITY_HEADERS } from '../gallery/responses.js';

/** The package's own `web/` folder: two levels up from src/web (tests) and from dist/web (installed). */
const WEB_DIR = new URL('../../web/', import.meta.url);

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

interface LoadedFile {
  readonly bytes: Uint8Array;
  readonly etag: string;
  readonly type: string;
}

/**
 * Serves a fixed set of the package's `web/` files, so a host that mounts one handler gets the
 * browser code that goes with it without copying files into its own static folder. Only names in
 * `files` are ever read (no path from a request reaches the file system); each is read once per
 * process, as the files change only with the package.
 *
 * @example const assets = packageFiles(['caroulsel-gallery.js']); await assets.answer('caroulsel-gallery.js', null);
 */
export function packageFiles(files: readonly string[]) {
  const allowed = new Set(files);
  const loaded = new Map<string, Promise<LoadedFile>>();

  function load(name: string): Promise<LoadedFile> {
    let file = loaded.get(name);
    if (file === undefined) {
      file = readFile(new URL(name, WEB_DIR)).then((bytes) => ({
        bytes,
        etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`,
        type: TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream',
      }));
      // A failed read is not remembered: the next request tries again.
      file.catch(() => loaded.delete(name));
      loaded.set(name, file);
    }
    return file;
  }

  return {
    /** True when `name` is one of the files served. */
    has: (name: string): boolean => allowed.has(name),
    /**
     * The file as an answer: 200 with its bytes, or 304 when `ifNoneMatch` names its ETag. The
     * caller has checked `has(name)`; an unknown name is a 404 anyway.
     */
    async answer(name: string, ifNoneMatch: string | null): Promise<Answer> {
      const headers = { ...SECURITY_HEADERS, 'Cache-Control': 'no-cache' };
      if (!allowed.has(name)) return { status: 404, headers };
      const file = await load(name);
      // Revalidated on each use (no-cache): after an upgrade a page never runs last release's code,
      // and while nothing changed the answer is a body-less 304.
      if (matchesEtag(ifNoneMatch, file.etag))
        return { status: 304, headers: { ...headers, ETag: file.etag } };
      return {
        status: 200,
        headers: {
          ...headers,
          'Content-Type': file.type,
          'Content-Length': String(file.bytes.byteLength),
          ETag: file.etag,
        },
        body: file.bytes,
      };
    },
  };
}
