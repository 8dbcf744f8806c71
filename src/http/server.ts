import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { createDiskCache, DEFAULT_CACHE_DIR, openCacheDir } from '../gallery/cache/disk-cache.js';
import { folderSource } from '../gallery/folder-source.js';
import { GalleryConfigError } from '../gallery/gallery-errors.js';
import type { GalleryLimitsInput } from '../gallery/limits.js';
import type { GalleryLogger } from '../gallery/logger.js';
import { loadSharp } from '../gallery/sharp-loader.js';
import { hasMethods, isFunction, optionProblem } from '../model/options.js';
import { createGalleryHandler } from './gallery-handler.js';
import { toNodeListener } from './node-adapter.js';
import { GALLERY_DEPENDENCY_FILES } from './package-files.js';
import { requestTarget } from './request-target.js';
import { createWebRootHandler } from './web-root.js';

// The package's own folder: two levels up from src/gallery (tests) and from dist/gallery (installed).
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const DEFAULT_IMAGES_DIR = join(PACKAGE_ROOT, 'examples', 'images');
export const DEFAULT_WEB_ROOT = join(PACKAGE_ROOT, 'web');

export interface GalleryServerOptions {
  /** Default 3000; 0 picks a free port (tests). */
  readonly port?: number;
  /** Default 127.0.0.1: the demo is not meant to be reachable from other machines. */
  readonly host?: string;
  /** The folder of images served (default the package's bundled samples). */
  readonly imagesDir?: string;
  /** The disk media cache's folder (default {@link DEFAULT_CACHE_DIR}, the user's own cache folder). */
  readonly cacheDir?: string;
  /** Where index.html and its assets are (default the package's `web/`). */
  readonly webRoot?: string;
  /**
   * A Redis shared by several nodes (`redis://127.0.0.1:6379`): renditions are cached there instead
   * of on disk, one node generates a cold rendition while the others wait for it, and every
   * generation is counted under `<redisKeyPrefix>generations`. The nodes must share their secrets.
   */
  readonly redisUrl?: string;
  /** Prefix of the Redis keys (default `caroulsel:media:`): one per gallery sharing a Redis. */
  readonly redisKeyPrefix?: string;
  /** Token secrets; default one random secret per process (URLs change at each restart). */
  readonly secrets?: readonly string[];
  readonly limits?: GalleryLimitsInput;
  readonly logger?: GalleryLogger;
  /**
   * More web-standard handlers on the same server, each at a path of its own (e.g. the association
   * screen at `/associationtask`): a request goes to the first whose path equals its own pathname.
   */
  readonly mount?: ReadonlyArray<{
    readonly path: string;
    readonly handler: (request: Request) => Promise<Response>;
  }>;
  /**
   * How long `close()` lets requests in flight finish (default {@link DEFAULT_CLOSE_GRACE_MS}):
   * a save being written gets its answer, a thumbnail being made reaches the cache.
   */
  readonly closeGraceMs?: number;
}

/** Requests in flight at `close()` get this long to finish before their connections are cut. */
export const DEFAULT_CLOSE_GRACE_MS = 10_000;

export interface GalleryServer {
  readonly url: string;
  /**
   * Stops taking connections, lets the requests in flight finish (for at most `closeGraceMs`, then
   * cuts their connections), then closes the shared cache's client.
   */
  close(): Promise<void>;
}

const folder = z.string().min(1, "must be a folder's path, not empty");

/**
 * The options' shape, checked before anything starts: a plain-JavaScript caller's misspelt option
 * (`cachedir`) was dropped without a word, the renditions then kept in the default folder. `secrets`
 * and `limits` are the gallery's own options, checked by its models (gallery.ts).
 */
const ServerOptionsShape = z.strictObject({
  port: z.number().int().min(0).max(65_535, 'must be a port from 0 to 65535').optional(),
  host: z.string().min(1).optional(),
  imagesDir: folder.optional(),
  cacheDir: folder.optional(),
  webRoot: folder.optional(),
  redisUrl: z.string().min(1).optional(),
  redisKeyPrefix: z.string().min(1).optional(),
  secrets: z.unknown().optional(),
  limits: z.unknown().optional(),
  logger: z.custom<GalleryLogger>(hasMethods('warn'), 'must be an object with a warn method').optional(),
  mount: z
    .array(
      z.strictObject({
        path: z.string().startsWith('/', 'must be a path starting with /'),
        handler: z.custom<(request: Request) => Promise<Response>>(isFunction, 'must be a function'),
      }),
    )
    .optional(),
  closeGraceMs: z
    .number()
    .int('must be a whole number of milliseconds')
    .min(0, 'must be from 0 to 600000 milliseconds')
    .max(600_000, 'must be from 0 to 600000 milliseconds')
    .optional(),
});

/**
 * Refuses options that cannot work (GALLERY_CONFIG at the option), and two that one would drop
 * without a word: two places for the renditions, or a prefix of no Redis.
 */
function checkServerOptions(options: unknown): asserts options is GalleryServerOptions {
  const problem = optionProblem(ServerOptionsShape, options, 'startGalleryServer');
  if (problem !== undefined) {
    throw new GalleryConfigError('GALLERY_CONFIG', problem.message, { path: problem.path });
  }
  const { cacheDir, redisUrl, redisKeyPrefix } = options as GalleryServerOptions;
  if (cacheDir !== undefined && redisUrl !== undefined) {
    throw new GalleryConfigError(
      'GALLERY_CONFIG',
      'startGalleryServer: cacheDir and redisUrl both name where renditions are kept: give one (redisUrl for several nodes)',
      { path: 'cacheDir' },
    );
  }
  if (redisKeyPrefix !== undefined && redisUrl === undefined) {
    throw new GalleryConfigError(
      'GALLERY_CONFIG',
      'startGalleryServer: redisKeyPrefix names the prefix of the keys in a Redis: give redisUrl with it',
      { path: 'redisKeyPrefix' },
    );
  }
}

/**
 * Runs the home page and the gallery on one Node http server: `/` and `/assets/*` from the web
 * root, `/caroulsel/*` from {@link createGalleryHandler} over a folder of images and a disk cache.
 *
 * @example const { url, close } = await startGalleryServer({ port: 3000 });
 */
export async function startGalleryServer(options: GalleryServerOptions = {}): Promise<GalleryServer> {
  checkServerOptions(options);
  const closeGraceMs = options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
  const shared = options.redisUrl === undefined ? undefined : await sharedCache(options);
  let gallery: ReturnType<typeof createGalleryHandler>;
  try {
    // The gallery's own options (secrets, limits) are checked here, before a cache folder is made;
    // refused, the shared cache's client goes, or it would keep the process alive.
    gallery = createGalleryHandler({
      source: folderSource(options.imagesDir ?? DEFAULT_IMAGES_DIR),
      secrets: options.secrets ?? [randomBytes(32).toString('base64url')],
      cache: shared?.cache ?? createDiskCache({ dir: options.cacheDir ?? DEFAULT_CACHE_DIR }),
      ...(shared === undefined ? {} : { onGenerate: shared.counted }),
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
  } catch (error) {
    await shared?.close();
    throw error;
  }
  if (shared === undefined) {
    // Checked before listening: a refused folder stops the server with its reason, instead of a
    // warning on every request of a gallery that would then never cache.
    await openCacheDir(options.cacheDir ?? DEFAULT_CACHE_DIR);
  }
  const web = createWebRootHandler(options.webRoot ?? DEFAULT_WEB_ROOT);
  const galleryListener = toNodeListener(gallery);
  const webListener = toNodeListener(web);
  const mounted = (options.mount ?? []).map(({ path, handler }) => ({
    path,
    listener: toNodeListener(handler),
  }));
  // The web root holds the page and the component; the component's dependency files come from the
  // package's dependencies, which only the gallery handler serves.
  const dependencyPaths = new Set(GALLERY_DEPENDENCY_FILES.map((file) => `/assets/${file.name}`));
  let closing = false;
  /** The answers not finished yet: close() has their connections end with them. */
  const answering = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (closing) res.shouldKeepAlive = false;
    answering.add(res);
    res.once('close', () => answering.delete(res));
    // Routed on the pathname the handlers will see: an absolute-form target (`http://a/caroulsel/data`)
    // names the gallery's data as the origin-form one does. A target that is no URL goes to any
    // listener: each answers it 400 BAD_REQUEST_TARGET.
    const pathname = requestTarget(req.url ?? '/')?.pathname ?? '';
    const listener =
      mounted.find((entry) => entry.path === pathname)?.listener ??
      (pathname.startsWith('/caroulsel/') || dependencyPaths.has(pathname) ? galleryListener : webListener);
    return listener(req, res);
  });
  const host = options.host ?? '127.0.0.1';
  server.listen(options.port ?? 3000, host);
  try {
    await Promise.race([
      once(server, 'listening'),
      once(server, 'error').then(([error]) => Promise.reject(error)),
    ]);
  } catch (error) {
    await shared?.close();
    const code = (error as { code?: string }).code;
    throw new GalleryConfigError(
      'GALLERY_LISTEN',
      code === 'EADDRINUSE'
        ? `port ${options.port ?? 3000} is already in use: stop what runs there or pass another --port`
        : `cannot listen on ${host}:${options.port ?? 3000}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  // Listening first, the image library right after: a start pays nothing for it, and it is
  // loaded by the time the first image is asked for.
  void loadSharp().catch(() => undefined);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    async close() {
      // No new connections, and idle keep-alive ones closed (server.close does both); a request in
      // flight finishes, its connection closing after its answer, unless it outlasts the grace.
      closing = true;
      // Each connection ends with its answer instead of idling as keep-alive until its timeout,
      // which server.close would wait for: `Connection: close` where the head is not sent yet, else
      // closed once idle.
      for (const res of answering) {
        if (!res.headersSent) res.shouldKeepAlive = false;
        else res.once('finish', () => setImmediate(() => server.closeIdleConnections()));
      }
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const cut = setTimeout(() => server.closeAllConnections(), closeGraceMs);
      try {
        await closed;
      } finally {
        clearTimeout(cut);
      }
      // After the requests: what they write to the shared cache is written before its client goes.
      await shared?.close();
    },
  };
}

/**
 * The Redis cache of several nodes, and the count of their generations. Loaded only when asked
 * for: a node on its own never loads the Redis client.
 */
async function sharedCache(options: GalleryServerOptions) {
  const { createRedisCache, redisClient } = await import('../gallery/cache/redis-cache.js');
  const redis = redisClient(options.redisUrl as string);
  const keyPrefix = options.redisKeyPrefix ?? 'caroulsel:media:';
  const cache = createRedisCache({ redis, keyPrefix });
  return {
    cache,
    /** Every decode of a source, on any node: what one generation per cold rendition is checked by. */
    counted: () => {
      redis.incr(`${keyPrefix}generations`).catch(() => undefined);
    },
    close: async () => {
      await redis.quit().catch(() => undefined);
    },
  };
}
