import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Answer, type AnswerRequest, toWebHandler } from './answer.js';
import { createCompressedFiles, etagOf } from './compression.js';
import { bodyAnswer, errorAnswer, methodNotAllowed, notFound } from './responses.js';

// A name, or a folder and a name (a component's modules): each starts with a letter or digit, so
// neither is `..` nor hidden.
const ASSET_PATH = /^\/assets\/(?:([A-Za-z0-9][A-Za-z0-9._-]*)\/)?([A-Za-z0-9][A-Za-z0-9._-]*)$/;
/** What a 404 says this handler serves. */
const SERVED =
  'the home page is / and its files are /assets/<name> and /assets/<folder>/<name> (.js, .css or .html files of the page)';
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

/** Whether `folder` holds a file (not a link, not a folder) called `name`. */
async function holdsFile(folder: string, name: string): Promise<boolean> {
  const present = await readdir(folder, { withFileTypes: true }).catch(() => []);
  return present.some((entry) => entry.isFile() && entry.name === name);
}

/** Whether `root` holds a folder (not a link to one) called `name`. */
async function holdsFolder(root: string, name: string): Promise<boolean> {
  const present = await readdir(root, { withFileTypes: true }).catch(() => []);
  return present.some((entry) => entry.isDirectory() && entry.name === name);
}

/**
 * Serves the home page: `GET /` is `index.html` of `webRoot`, `GET /assets/<name>` a file directly
 * in `webRoot`, `GET /assets/<folder>/<name>` one in a folder of it (the gallery component's
 * modules are in `caroulsel-gallery/`). Only names actually present (files and folders, not links)
 * and ending in .js, .css or .html are served, so no request can reach outside the folder or read
 * anything but the page's own files.
 */
export function createWebRootHandler(webRoot: string): (request: Request) => Promise<Response> {
  const compressed = createCompressedFiles();
  async function serve(request: AnswerRequest, folder: string | undefined, name: string): Promise<Answer> {
    const { pathname } = request;
    const type = TYPES[name.slice(name.lastIndexOf('.'))];
    if (type === undefined) return notFound(pathname, SERVED);
    const dir = folder === undefined ? webRoot : join(webRoot, folder);
    const missing = () =>
      folder === undefined && name === 'index.html'
        ? errorAnswer(404, 'NOT_FOUND', 'the home page (index.html) is missing')
        : notFound(pathname, SERVED);
    const present =
      (folder === undefined || (await holdsFolder(webRoot, folder))) && (await holdsFile(dir, name));
    if (!present) return missing();
    // A file removed (a release being copied in) between the look and the read is missing, not a 500.
    const bytes = await readFile(join(dir, name)).catch((error: unknown) => {
      if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
      throw error;
    });
    if (bytes === undefined) return missing();
    // The page's files change with each release of the package: revalidate instead of keeping them
    // (read each time, so an edited file is seen at once; compressed once per content).
    const { headers } = bodyAnswer(
      bytes,
      { 'Content-Type': type, 'Cache-Control': 'no-cache' },
      { csp: false },
    );
    const { 'Content-Length': _length, ...rest } = headers;
    return compressed.answer({ bytes, etag: etagOf(bytes) }, request, rest);
  }

  return toWebHandler(async (request) => {
    const { method, pathname } = request;
    const match = ASSET_PATH.exec(pathname);
    const name = pathname === '/' ? 'index.html' : match?.[2];
    if (name === undefined) return notFound(pathname, SERVED);
    if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(method, 'GET, HEAD');
    return serve(request, match?.[1], name);
  });
}
