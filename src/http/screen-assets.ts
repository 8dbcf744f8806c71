import { toResponse } from './answer.js';
import { ASSET_PARAMETER } from './association-query.js';
import { lastPathSegment, rewriteImports } from './module-imports.js';
import { type FileVariant, packageFiles } from './package-files.js';
import { errorAnswer, methodNotAllowed } from './responses.js';
import { SCREEN_ASSETS, SERVICE_WORKER, SERVICE_WORKER_CSP } from './screen-page.js';

const screenFiles = packageFiles(SCREEN_ASSETS);
const servedFiles: ReadonlySet<string> = new Set(SCREEN_ASSETS);

/**
 * A module as served at this request's URL: its relative imports name the handler's URL of each
 * file (`./associationtask?asset=association-screen/tree.js`; see module-imports.ts), one variant
 * per last path segment. Stylesheets are served as they are.
 */
function servedAs(url: URL, name: string): FileVariant | undefined {
  if (!name.endsWith('.js')) return undefined;
  const segment = lastPathSegment(url.pathname);
  return {
    key: segment,
    make: (bytes) =>
      Buffer.from(rewriteImports(Buffer.from(bytes).toString('utf8'), name, servedFiles, segment)),
  };
}

/**
 * `?asset=<name>`: one of the screen's browser files, with its ETag (a 304 when If-None-Match names
 * it) and compressed as the client accepts. `vary` are the headers every answer of the handler carries.
 */
export async function screenAsset(
  request: Request,
  url: URL,
  name: string,
  vary: Record<string, string>,
): Promise<Response> {
  // A HEAD arrives here as its GET (see createAssociationHandler), and loses the body there.
  if (request.method !== 'GET') {
    return toResponse(methodNotAllowed(request.method, 'GET, HEAD', vary));
  }
  if (!screenFiles.has(name)) {
    return toResponse(
      errorAnswer(
        404,
        'NOT_FOUND',
        'no such file of the screen: association-screen.js, association-screen.css or a module of association-screen/',
        { path: ASSET_PARAMETER, headers: vary },
      ),
    );
  }
  const answer = await screenFiles.answer(
    name,
    request.headers.get('if-none-match'),
    servedAs(url, name),
    request.headers.get('accept-encoding'),
  );
  if (name !== SERVICE_WORKER) return toResponse(answer);
  // The service worker runs under its own response's policy, not the page's: it imports the
  // screen's modules and fetches from this origin. Served at the endpoint's own path, its scope may
  // be that path without Service-Worker-Allowed; the header says so for whoever reads the answer.
  return toResponse({
    ...answer,
    headers: {
      ...answer.headers,
      'Content-Security-Policy': SERVICE_WORKER_CSP,
      'Service-Worker-Allowed': url.pathname,
    },
  });
}
