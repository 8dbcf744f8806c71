import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { TaskAssociationError } from '../model/errors.js';
import type { Answer } from './answer.js';
import { createCompressedFiles, etagOf } from './compression.js';
import { SECURITY_HEADERS } from './responses.js';

/**
 * One of the package's own browser files (or a dependency's) could not be read: the installation is
 * broken, not the request. Its message names the file, never the server's path. HTTP 500.
 */
export class PackageFileError extends TaskAssociationError {
  override get status(): number | undefined {
    return 500;
  }
}

/** The package's own `web/` folder: two levels up from src/web (tests) and from dist/web (installed). */
export const WEB_DIR = new URL('../../web/', import.meta.url);

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

const require = createRequire(import.meta.url);

/**
 * A browser file of a runtime dependency, served under a name of its own: `file` is found next to
 * the module `from` resolves to, so the dependency's `exports` map need not list it.
 */
export interface DependencyFile {
  readonly name: string;
  readonly from: string;
  readonly file: string;
}

/**
 * The dependencies' files the gallery component loads next to itself: PhotoSwipe's core and styles
 * for the lightbox, and the ThumbHash decoder for the placeholders. Minified builds, as published.
 */
export const GALLERY_DEPENDENCY_FILES: readonly DependencyFile[] = [
  { name: 'photoswipe.esm.min.js', from: 'photoswipe', file: 'photoswipe.esm.min.js' },
  { name: 'photoswipe.css', from: 'photoswipe', file: 'photoswipe.css' },
  { name: 'thumbhash.js', from: 'thumbhash', file: 'thumbhash.js' },
];

/** Where a dependency's file is on disk; resolved like an import, so hoisting and nesting both work. */
export function dependencyFileUrl(file: DependencyFile): URL {
  return new URL(file.file, pathToFileURL(require.resolve(file.from)));
}

interface LoadedFile {
  readonly bytes: Uint8Array;
  readonly etag: string;
  readonly type: string;
}

/**
 * A file as served to some requests: made from the file's bytes (a module with its imports written
 * for the URL it is served at, say). `key` names the variant: each is made once per key, and its
 * ETag is over the bytes served.
 */
export interface FileVariant {
  readonly key: string;
  readonly make: (bytes: Uint8Array) => Uint8Array;
}

/** Variants kept per set of files: a host mounted at many paths makes more, never without bound. */
const MAX_VARIANTS = 64;

function loadedFile(name: string, bytes: Uint8Array): LoadedFile {
  return {
    bytes,
    etag: etagOf(bytes),
    type: TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream',
  };
}

/**
 * Serves a fixed set of the package's `web/` files (and of its dependencies' browser files), so a
 * host that mounts one handler gets the browser code that goes with it without copying files into
 * its own static folder. Only names in `files` and `dependencies` are ever read (no path from a
 * request reaches the file system); each is read once per process, as the files change only with
 * the package.
 *
 * @example const assets = packageFiles(['caroulsel-gallery.js']); await assets.answer('caroulsel-gallery.js', null);
 */
export function packageFiles(files: readonly string[], dependencies: readonly DependencyFile[] = []) {
  const where = new Map<string, () => URL>(files.map((name) => [name, () => new URL(name, WEB_DIR)]));
  for (const file of dependencies) where.set(file.name, () => dependencyFileUrl(file));
  const allowed = new Set(where.keys());
  const loaded = new Map<string, Promise<LoadedFile>>();

  function load(name: string): Promise<LoadedFile> {
    let file = loaded.get(name);
    if (file === undefined) {
      const locate = where.get(name);
      // Resolved on first use, inside the promise: a missing dependency fails that request only.
      file = Promise.resolve()
        .then(() => {
          if (locate === undefined) throw new Error(`${name} is not a served file`);
          return readFile(locate());
        })
        .catch((error: unknown) => {
          const code =
            typeof error === 'object' && error !== null && 'code' in error ? ` (${String(error.code)})` : '';
          throw new PackageFileError(
            'PACKAGE_FILE_UNREADABLE',
            `the browser file ${name} could not be read${code}: the package's installation is incomplete; reinstall task-association`,
            { cause: error },
          );
        })
        .then((bytes) => loadedFile(name, bytes));
      // A failed read is not remembered: the next request tries again.
      file.catch(() => loaded.delete(name));
      loaded.set(name, file);
    }
    return file;
  }

  const compressed = createCompressedFiles();
  const variants = new Map<string, Promise<LoadedFile>>();
  function loadVariant(name: string, variant: FileVariant): Promise<LoadedFile> {
    const key = `${name}\n${variant.key}`;
    let file = variants.get(key);
    if (file === undefined) {
      if (variants.size >= MAX_VARIANTS) variants.clear();
      file = load(name).then((original) => loadedFile(name, variant.make(original.bytes)));
      file.catch(() => variants.delete(key));
      variants.set(key, file);
    }
    return file;
  }

  return {
    /** True when `name` is one of the files served. */
    has: (name: string): boolean => allowed.has(name),
    /**
     * The file as an answer: 200 with its bytes, or 304 when `ifNoneMatch` names its ETag. The
     * caller has checked `has(name)`; an unknown name is a 404 anyway. A file that cannot be read
     * throws a {@link PackageFileError}, for the caller to answer in its own error shape. With a
     * `variant`, the variant's bytes are served instead of the file's. With `acceptEncoding`, the
     * bytes go brotli- or gzip-compressed when the request accepts it (compressed on the first such
     * request, then kept), each coding with its own ETag.
     */
    async answer(
      name: string,
      ifNoneMatch: string | null,
      variant?: FileVariant,
      acceptEncoding: string | null = null,
    ): Promise<Answer> {
      const headers = { ...SECURITY_HEADERS, 'Cache-Control': 'no-cache' };
      if (!allowed.has(name)) return { status: 404, headers };
      const file = await (variant === undefined ? load(name) : loadVariant(name, variant));
      // Revalidated on each use (no-cache): after an upgrade a page never runs last release's code,
      // and while nothing changed the answer is a body-less 304.
      return compressed.answer(
        file,
        { acceptEncoding, ifNoneMatch },
        { ...headers, 'Content-Type': file.type },
      );
    },
  };
}
