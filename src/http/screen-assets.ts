import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { toResponse } from './answer.js';
import { ASSET_PARAMETER } from './association-query.js';
import { lastPathSegment, rewriteImports } from './module-imports.js';
import { type FileVariant, packageFiles, WEB_DIR } from './package-files.js';
import { errorAnswer, methodNotAllowed } from './responses.js';
import { SCREEN_ASSETS, SERVICE_WORKER, SERVICE_WORKER_CSP } from './screen-page.js';

const screenFiles = packageFiles(SCREEN_ASSETS);
const servedFiles: ReadonlySet<string> = new Set(SCREEN_ASSETS);

/**
 * The release of the screen's files: a hash over every one of them, so it changes whenever one does.
 * Written into the service worker (see `workerManifest`), whose bytes then change too: the browser
 * installs the new worker, which keeps the new release's files whole before it serves any of them.
 */
export async function screenRelease(
  read: (name: string) => Promise<Uint8Array> = (name) => readFile(new URL(name, WEB_DIR)),
): Promise<string> {
  const hash = createHash('sha256');
  for (const name of SCREEN_ASSETS) {
    const bytes = await read(name);
    hash.update(`${name}\0${bytes.byteLength}\0`).update(bytes);
  }
  return hash.digest('base64url').slice(0, 16);
}

let release: Promise<string> | undefined;
/** Read once per process, as the files change only with the package; a failed read is tried again. */
function currentRelease(): Promise<string> {
  release ??= screenRelease().catch((error: unknown) => {
    release = undefined;
    throw error;
  });
  return release;
}

/** The worker's line naming its release and the files it keeps (the screen's, itself aside). */
const MANIFEST_LINE = /^const MANIFEST = .*;$/m;

/** The service worker's source with its release and the files it keeps written in. */
export function workerManifest(source: string, releaseId: string): string {
  const manifest = { release: releaseId, assets: SCREEN_ASSETS.filter((name) => name !== SERVICE_WORKER) };
  if (!MANIFEST_LINE.test(source))
    throw new Error(`${SERVICE_WORKER} has no "const MANIFEST = …;" line to write its release in`);
  return source.replace(MANIFEST_LINE, `const MANIFEST = ${JSON.stringify(manifest)};`);
}

/**
 * A module as served at this request's URL: its relative imports name the handler's URL of each
 * file (`./associationtask?asset=association-screen/tree.js`; see module-imports.ts), one variant
 * per last path segment. Stylesheets are served as they are.
 */
function servedAs(url: URL, name: string, releaseId: string | undefined): FileVariant | undefined {
  if (!name.endsWith('.js')) return undefined;
  const segment = lastPathSegment(url.pathname);
  return {
    key: releaseId === undefined ? segment : `${segment}\n${releaseId}`,
    make: (bytes) => {
      const source = rewriteImports(Buffer.from(bytes).toString('utf8'), name, servedFiles, segment);
      return Buffer.from(releaseId === undefined ? source : workerManifest(source, releaseId));
    },
  };
}

/**
 * `?asset=<name>`: one of the screen's browser files, with its ETag (a 304 when If-None-Match names
 * it) and compressed as the client accepts. `vary` are the headers every answer of the handler carries.
 * `release` (`&release=<id>`, the service worker's install): the file only as of that release, else
 * 409 `RELEASE_CHANGED`, never cached. During a rolling deploy a phone may get the worker from a
 * node of the new release and its files from one of the old: kept under the new release's name,
 * the old files would run until the release after, the worker being byte-identical meanwhile. The
 * refusal fails the install, tried again at the next visit.
 */
export async function screenAsset(
  request: Request,
  url: URL,
  name: string,
  vary: Record<string, string>,
  release?: string,
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
  if (release !== undefined && release !== (await currentRelease())) {
    return toResponse(
      errorAnswer(
        409,
        'RELEASE_CHANGED',
        `this server runs another release of the screen's files than ${release}: a deploy is under way or done; install again`,
        { path: 'release', headers: vary },
      ),
    );
  }
  const answer = await screenFiles.answer(
    name,
    request.headers.get('if-none-match'),
    servedAs(url, name, name === SERVICE_WORKER ? await currentRelease() : undefined),
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
