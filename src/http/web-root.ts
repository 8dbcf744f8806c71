import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Answer, toWebHandler } from './answer.js';
import { bodyAnswer, errorAnswer, methodNotAllowed, notFound } from './responses.js';

const ASSET_PATH = /^\/assets\/([A-Za-z0-9][A-Za-z0-9._-]*)$/;
/** What a 404 says this handler serves. */
const SERVED = 'the home page is / and its files are /assets/<name> (.js, .css or .html files of the page)';
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

/**
 * Serves the home page: `GET /` is `index.html` of `webRoot`, `GET /assets/<name>` a file directly
 * in `webRoot`. Only names actually present and ending in .js, .css or .html are served, so no
 * request can reach outside the folder or read anything but the page's own files.
 */
export function createWebRootHandler(webRoot: string): (request: Request) => Promise<Response> {
  async function serve(pathname: string, name: string): Promise<Answer> {
    const type = TYPES[name.slice(name.lastIndexOf('.'))];
    if (type === undefined) return notFound(pathname, SERVED);
    const present = await readdir(webRoot, { withFileTypes: true }).catch(() => []);
    if (!present.some((entry) => entry.isFile() && entry.name === name)) {
      return name === 'index.html'
        ? errorAnswer(404, 'NOT_FOUND', `the home page ${join(webRoot, name)} is missing`)
        : notFound(pathname, SERVED);
    }
    const bytes = await readFile(join(webRoot, name));
    // The page's files change with each release of the package: revalidate instead of keeping them.
    return bodyAnswer(bytes, { 'Content-Type': type, 'Cache-Control': 'no-cache' }, { csp: false });
  }

  return toWebHandler(async ({ method, pathname }) => {
    const name = pathname === '/' ? 'index.html' : ASSET_PATH.exec(pathname)?.[1];
    if (name === undefined) return notFound(pathname, SERVED);
    if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(method, 'GET, HEAD');
    return serve(pathname, name);
  });
}
