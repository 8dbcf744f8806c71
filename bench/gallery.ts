// The gallery's figures, measured side by side in one run (`npm run bench:gallery`):
//   payload_ratio  our /caroulsel/data bytes over the base64-inline list of the same items
//   vs_nginx       cached thumbnail requests/s through our handler over Debian's nginx serving the
//                  same bytes from a file (its own config and prefix in a temp dir, one worker)
//   vs_sirv        the same over sirv, a fast Node static server, serving the same file
//   cold_vs_ipx    ipx's time over ours to answer the first request of every image's thumbnail over
//                  HTTP, both with empty caches (ipx keeps none; ours gets a fresh cache each round)
//   generations    renditions generated for 100 concurrent requests of one cold thumbnail
//   startup_ms     `serve` (the published bin) from spawn to listening, median of 7 (bench/gallery-startup.ts)
//   phone_first_thumb_ms, phone_bytes_before  the demo's home page on a slow phone: its first
//                  thumbnail's arrival and the bytes on the wire before it (bench/gallery-phone.ts)
//   nodes_generations  generations for 100 concurrent cold requests over three `serve --redis`
//                  processes (bench/gallery-nodes.ts): goal 1
//   srcset_vs_thumb  ours, the cold time of every item's whole srcset (all its URLs, one after the
//                  other) over the cold time of its thumbnail alone as it was made before srcsets
//                  (a handler with `srcsetWidths: []`): goal at most 1.5
//   srcset_vs_ipx  ipx's time over ours to make the same renditions cold (ipx one request per URL)
//   listN_*        the first page of GET /caroulsel/data (48 items) over a folder of N images, in
//                  milliseconds per request (one connection, requests one after another), over
//                  nginx's JSON directory listing of the same folder (autoindex_format json): cold
//                  (a fresh handler and an empty cache: the page's images hashed and probed), warm
//                  (a later request) and 304 (revalidation with the page's ETag). Goal: warm <= 2.
//                  The folder is the seven images over and over: the first page's 48 files are
//                  copies made distinct (a few bytes after the image's end), so the cold page probes
//                  48 contents; the rest are hard links.
// `npm run bench:gallery -- --cold-only` measures the payload, generations and cold renditions only
// (a few minutes shorter: no cached-thumbnail load, no listings); the figures it skips print as "-".
// HTTP load comes from autocannon run as a separate process (with a worker), so the servers (this
// process, and nginx) share no event loop with the load. Ports 3110-3113 (BENCH_GALLERY_PORT moves them).
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { chmod, link, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { createIPX, createIPXNodeServer, ipxFSStorage } from 'ipx';
import sirv from 'sirv';
import { createDiskCache } from '../src/gallery/cache/disk-cache.js';
import { folderSource } from '../src/gallery/folder-source.js';
import { GalleryLimits, type GalleryLimitsInput } from '../src/gallery/limits.js';
import { DEFAULT_PAGE_SIZE } from '../src/gallery/page-query.js';
import { createGalleryHandler } from '../src/http/gallery-handler.js';
import { toNodeListener } from '../src/http/node-adapter.js';
import { startGalleryServer } from '../src/http/server.js';
import { IMAGE_NAMES, requireImages } from './gallery-images.js';
import { threeNodeGenerations } from './gallery-nodes.js';
import { SLOW_PHONE, slowPhoneVisit } from './gallery-phone.js';
import { startupTimes } from './gallery-startup.js';
import { loadLine, median, spread, timed } from './report.js';

const SECRET = 'bench-secret-0123456789';
const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';
// The static-file floor is a real nginx: without one the bench stops here, with what to do, rather
// than at its first spawn with a bare ENOENT.
if (!existsSync(NGINX)) {
  throw new Error(
    `bench:gallery compares with nginx, and there is none at ${NGINX}: install Debian's (apt-get install nginx-light) or set NGINX to its path`,
  );
}
const FIRST_PORT = Number(process.env.BENCH_GALLERY_PORT ?? 3110);
const LOAD_SECONDS = 5;
const ROUNDS = 5;
const COLD_ROUNDS = 7;
const CONNECTIONS = 16;
const AUTOCANNON = new URL('../node_modules/autocannon/autocannon.js', import.meta.url).pathname;
const LISTING_SIZES = [1_000, 10_000];
const LIST_SECONDS = 3;
const COLD_ONLY = process.argv.includes('--cold-only');

/**
 * Milliseconds per request autocannon (another process, one connection, so requests go one after
 * another) gets from `url`; every answer must have `status`.
 */
async function msPerRequest(url: string, status: 200 | 304, headers: Record<string, string> = {}) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      AUTOCANNON,
      '--json',
      '-c',
      '1',
      '-d',
      String(LIST_SECONDS),
      '-w',
      '1',
      ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}=${value}`]),
      url,
    ],
    { timeout: (LIST_SECONDS + 30) * 1000, maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as {
    requests: { total: number };
    duration: number;
    errors: number;
    '2xx': number;
    '3xx': number;
  };
  const matching = status === 304 ? result['3xx'] : result['2xx'];
  if (result.errors > 0 || matching !== result.requests.total || result.requests.total === 0) {
    throw new Error(
      `${url}: ${result.requests.total} requests, ${matching} answered ${status}, ${result.errors} errors`,
    );
  }
  return (result.duration * 1000) / result.requests.total;
}

/**
 * A folder of `count` images named in order: the first page's files are distinct copies (bytes
 * appended after the image, which decoders ignore), the others hard links to the originals.
 */
async function imageFolder(
  dir: string,
  count: number,
  originals: readonly { file: string; bytes: Buffer }[],
) {
  await mkdir(dir, { mode: 0o755 });
  for (let i = 0; i < count; i++) {
    const original = originals[i % originals.length] as { file: string; bytes: Buffer };
    const file = join(dir, `img-${String(i).padStart(5, '0')}-${basename(original.file)}`);
    if (i < DEFAULT_PAGE_SIZE)
      await writeFile(file, Buffer.concat([original.bytes, Buffer.from(`\0copy ${i}`)]));
    else await link(original.file, file);
  }
  await chmod(dir, 0o755);
}

/** Requests per second autocannon (another process, one worker thread) gets from `url`. */
async function requestsPerSecond(url: string, seconds = LOAD_SECONDS): Promise<number> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [AUTOCANNON, '--json', '-c', String(CONNECTIONS), '-d', String(seconds), '-w', '1', url],
    { timeout: (seconds + 30) * 1000, maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as { requests: { average: number }; non2xx: number; errors: number };
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} answers other than 2xx and ${result.errors} errors under load`);
  }
  return result.requests.average;
}

async function listen(server: Server, port: number): Promise<void> {
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
}

/** Debian's nginx on `port`, serving `root`, with its own prefix, config, logs and pid in `dir`. */
async function startNginx(
  dir: string,
  root: string,
  port: number,
  locations = '',
  readyPath = '/thumb.webp',
) {
  const conf = join(dir, 'nginx.conf');
  await writeFile(
    conf,
    `worker_processes 1;
daemon off;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  keepalive_requests 1000000;
  client_body_temp_path ${join(dir, 'body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};
  types { image/webp webp; }
  server { listen 127.0.0.1:${port}; root ${root}; ${locations} }
}
`,
  );
  const child = spawn(NGINX, ['-p', dir, '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  for (let attempt = 0; attempt < 50; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx (${NGINX}) exited: ${stderr.trim()}`);
    const answer = await fetch(`http://127.0.0.1:${port}${readyPath}`).catch(() => undefined);
    if (answer?.ok) return child;
    await sleep(100);
  }
  child.kill();
  throw new Error(`nginx (${NGINX}) did not answer on port ${port} within 5 s: ${stderr.trim()}`);
}

interface ListingFigures {
  count: number;
  cold: number[];
  warm: number[];
  revalidated: number[];
  nginx: number[];
}

/**
 * The first page of `/caroulsel/data` over folders of 1,000 and 10,000 images against nginx's JSON
 * listing of the same folder (its own instance, prefix and port), in milliseconds per request.
 */
async function listing(work: string, images: readonly { file: string; bytes: Buffer }[], port: number) {
  const prefix = join(work, 'nginx-listing');
  await mkdir(prefix, { mode: 0o755 });
  const folders = LISTING_SIZES.map((count) => ({ count, dir: join(work, `folder-${count}`) }));
  for (const { count, dir } of folders) await imageFolder(dir, count, images);
  await writeFile(join(prefix, 'ready'), 'ok', { mode: 0o644 });
  const locations = folders
    .map(
      ({ count, dir }) =>
        `location /folder-${count}/ { alias ${dir}/; autoindex on; autoindex_format json; }`,
    )
    .join(' ');
  const nginx = await startNginx(prefix, prefix, port, locations, '/ready');
  // One server whose handler is replaced for each cold round (a fresh handler and cache folder).
  let current = toNodeListener(createGalleryHandler({ source: async () => [], secrets: [SECRET] }));
  const ours = createServer((request, response) => current(request, response));
  await listen(ours, port + 1);
  const results: ListingFigures[] = [];
  try {
    for (const { count, dir } of folders) {
      const figures: ListingFigures = { count, cold: [], warm: [], revalidated: [], nginx: [] };
      const ourUrl = `http://127.0.0.1:${port + 1}/caroulsel/data`;
      const nginxUrl = `http://127.0.0.1:${port}/folder-${count}/`;
      let page = Buffer.alloc(0);
      for (let round = 0; round < COLD_ROUNDS; round++) {
        current = toNodeListener(
          createGalleryHandler({
            source: folderSource(dir),
            secrets: [SECRET],
            cache: createDiskCache({ dir: join(work, `listing-cache-${count}-${round}`) }),
            logger: { warn: (message) => console.error(message) },
          }),
        );
        figures.cold.push(
          await timed(async () => {
            const answer = await fetch(ourUrl);
            page = Buffer.from(await answer.arrayBuffer());
            if (!answer.ok) throw new Error(`${ourUrl}: HTTP ${answer.status}`);
          }),
        );
      }
      const shown = (JSON.parse(page.toString()) as { items: unknown[] }).items.length;
      if (shown !== DEFAULT_PAGE_SIZE)
        throw new Error(`the first page of ${count} images shows ${shown} items`);
      const etag = (await fetch(ourUrl).then((answer) => answer.headers.get('etag'))) ?? '';
      const nginxList = Buffer.from(await (await fetch(nginxUrl)).arrayBuffer());
      const listed = (JSON.parse(nginxList.toString()) as unknown[]).length;
      if (listed !== count) throw new Error(`nginx lists ${listed} files of ${count}`);
      // The folder source reads a folder changed in the last 2 s again on every call (coarse
      // clocks): wait that out, as a gallery does that is not being written to.
      const changed = (await stat(dir)).mtimeMs;
      await sleep(Math.max(0, changed + 2100 - Date.now()));
      await msPerRequest(ourUrl, 200); // warm-up
      await msPerRequest(nginxUrl, 200);
      for (let round = 0; round < ROUNDS; round++) {
        const order = [
          async () => figures.warm.push(await msPerRequest(ourUrl, 200)),
          async () => figures.nginx.push(await msPerRequest(nginxUrl, 200)),
          async () => figures.revalidated.push(await msPerRequest(ourUrl, 304, { 'If-None-Match': etag })),
        ];
        for (let i = 0; i < order.length; i++) await order[(i + round) % order.length]?.();
      }
      console.log(
        `listing ${count} images: our first page ${page.length} bytes (${shown} items), nginx's JSON listing ${nginxList.length} bytes; ${loadLine()}`,
      );
      console.log(
        `  ms per request: ours cold ${spread(figures.cold, 1)}, warm ${spread(figures.warm, 2)}, 304 ${spread(figures.revalidated, 2)}; nginx ${spread(figures.nginx, 2)}`,
      );
      results.push(figures);
    }
  } finally {
    nginx.kill();
    ours.close();
  }
  return results;
}

/** Three visits of the demo's home page on the slow phone, its server's media cache warmed first. */
async function slowPhoneFigures(): Promise<{ times: number[]; bytes: number }> {
  const cacheDir = await mkdtemp(join(tmpdir(), 'bench-phone-'));
  const server = await startGalleryServer({ port: 0, cacheDir, secrets: [SECRET] });
  try {
    await slowPhoneVisit(server.url);
    const visits = [];
    for (let round = 0; round < 3; round += 1) visits.push(await slowPhoneVisit(server.url));
    return { times: visits.map((visit) => visit.firstThumbnailMs), bytes: visits[0]?.bytesBefore ?? 0 };
  } finally {
    await server.close();
    await rm(cacheDir, { recursive: true, force: true });
  }
}

async function main() {
  await requireImages('bench:gallery');
  const work = await mkdtemp(join(tmpdir(), 'bench-gallery-'));
  // nginx's worker drops root's rights: it must be able to walk into the folder it serves.
  await chmod(work, 0o755);
  // One folder of copies that ours and ipx both read from.
  const imageDir = join(work, 'images');
  await mkdir(imageDir);
  const images = await Promise.all(
    IMAGE_NAMES.map(async (original) => {
      const bytes = await readFile(original);
      const file = join(imageDir, basename(original));
      await writeFile(file, bytes);
      return { file, bytes };
    }),
  );
  const servers: Server[] = [];
  let nginx: ReturnType<typeof spawn> | undefined;
  try {
    let generations = 0;
    const galleryOf = (cacheDir: string, overrides: GalleryLimitsInput = {}) =>
      createGalleryHandler({
        limits: overrides,
        source: async () => images.map(({ file }, i) => ({ id: String(i), title: file, image: file })),
        secrets: [SECRET],
        cache: createDiskCache({ dir: cacheDir }),
        logger: { warn: (message) => console.error(message) },
        onGenerate: () => {
          generations += 1;
        },
      });
    const handler = galleryOf(join(work, 'cache'));
    const limits = GalleryLimits.parse({});
    console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`);
    console.log(`start: ${loadLine()}`);
    console.log(`images (${images.length}):`);
    for (const { file, bytes } of images) console.log(`  ${basename(file)}  ${bytes.length} bytes`);
    console.log(`thumbnail: WebP inside ${limits.thumbSize}x${limits.thumbSize}`);

    // 1. Payload: our list against the legacy list carrying every image inline as a data URI.
    const data = Buffer.from(await (await handler(new Request('http://bench/caroulsel/data'))).arrayBuffer());
    const items = (
      JSON.parse(data.toString()) as { items: { id: string; title: string; previewUrl: string }[] }
    ).items;
    const legacy = Buffer.from(
      JSON.stringify(
        images.map(({ file, bytes }, i) => ({
          id: String(i),
          title: file,
          image: `data:image/${file.endsWith('.png') ? 'png' : 'jpeg'};base64,${bytes.toString('base64')}`,
        })),
      ),
    );
    const payloadRatio = data.length / legacy.length;
    console.log(`payload: /caroulsel/data ${data.length} bytes, base64-inline list ${legacy.length} bytes`);

    // 2. Generations: 100 concurrent requests for one cold thumbnail, over HTTP.
    const ours = createServer(toNodeListener(handler));
    servers.push(ours);
    await listen(ours, FIRST_PORT);
    const thumbUrl = `http://127.0.0.1:${FIRST_PORT}${items[2]?.previewUrl ?? ''}`;
    const before = generations;
    const responses = await Promise.all(Array.from({ length: 100 }, () => fetch(thumbUrl)));
    const thumb = Buffer.from(await (responses[0] as Response).arrayBuffer());
    for (const response of responses.slice(1)) await response.arrayBuffer();
    const coldGenerations = generations - before;
    console.log(`generations: ${coldGenerations} for 100 concurrent requests of one cold thumbnail`);

    // 3. Cached thumbnail requests per second: ours against nginx and sirv serving the same bytes.
    const rates = new Map<string, number[]>();
    const versus = (label: string) =>
      (rates.get('ours') ?? []).map((rate, round) => rate / (rates.get(label)?.[round] ?? Number.NaN));
    if (!COLD_ONLY) {
      const staticDir = join(work, 'static');
      await mkdir(staticDir, { mode: 0o755 });
      await writeFile(join(staticDir, 'thumb.webp'), thumb, { mode: 0o644 });
      nginx = await startNginx(work, staticDir, FIRST_PORT + 1);
      const sirvServer = createServer(sirv(staticDir, { etag: true }));
      servers.push(sirvServer);
      await listen(sirvServer, FIRST_PORT + 2);
      const targets = [
        { label: 'ours', url: thumbUrl },
        { label: 'nginx', url: `http://127.0.0.1:${FIRST_PORT + 1}/thumb.webp` },
        { label: 'sirv', url: `http://127.0.0.1:${FIRST_PORT + 2}/thumb.webp` },
      ];
      for (const target of targets) {
        const answer = await fetch(target.url);
        const body = Buffer.from(await answer.arrayBuffer());
        if (!answer.ok || !body.equals(thumb))
          throw new Error(`${target.label} does not serve the thumbnail's bytes`);
        await requestsPerSecond(target.url, 2); // warm-up
      }
      console.log(
        `load: autocannon in its own process, ${CONNECTIONS} keep-alive connections, ${LOAD_SECONDS} s per run, ${ROUNDS} rounds (order rotating), thumbnail ${thumb.length} bytes`,
      );
      for (const target of targets) rates.set(target.label, []);
      for (let round = 0; round < ROUNDS; round++) {
        const order = targets.map((_, index) => targets[(index + round) % targets.length]);
        for (const target of order) {
          if (target !== undefined) rates.get(target.label)?.push(await requestsPerSecond(target.url));
        }
        console.log(
          `  round ${round + 1}: ${targets.map((target) => `${target.label} ${rates.get(target.label)?.at(-1)?.toFixed(0)} req/s`).join(', ')}; ${loadLine()}`,
        );
      }
      for (const target of targets)
        console.log(`${target.label}: ${spread(rates.get(target.label) ?? [], 0)} req/s`);
      console.log(
        `ours / nginx per round: ${spread(versus('nginx'))}; ours / sirv per round: ${spread(versus('sirv'))}`,
      );
    }

    // 4. Cold renditions over HTTP, same images: our thumbnails as made before srcsets (a handler
    // with `srcsetWidths: []`) and as made now (with srcsets listed, the thumbnail asked alone),
    // ipx's thumbnails, our whole srcsets (every URL, one after the other), and ipx making the same
    // srcsets (no cache, one decode per URL).
    const ipx = createIPX({ storage: ipxFSStorage({ dir: imageDir }) });
    const ipxServer = createServer(createIPXNodeServer(ipx));
    servers.push(ipxServer);
    await listen(ipxServer, FIRST_PORT + 3);
    const fetchAll = async (urls: readonly string[]) => {
      for (const url of urls) {
        const answer = await fetch(url);
        await answer.arrayBuffer();
        if (!answer.ok) throw new Error(`${url}: HTTP ${answer.status}`);
      }
    };
    const coldPort = FIRST_PORT + 4;
    // One server whose handler is replaced each round by a fresh one with an empty cache: a new
    // server per round would meet the client's kept-alive sockets to the previous one.
    let coldListener = toNodeListener(galleryOf(join(work, 'cold-warm-up')));
    const coldServer = createServer((request, response) => coldListener(request, response));
    servers.push(coldServer);
    await listen(coldServer, coldPort);
    let fresh = 0;
    /** A fresh handler with an empty cache on the cold server; its list, read before any timing. */
    const freshGallery = async (overrides: GalleryLimitsInput = {}) => {
      coldListener = toNodeListener(galleryOf(join(work, `cold-${fresh++}`), overrides));
      const list = (await (await fetch(`http://127.0.0.1:${coldPort}/caroulsel/data`)).json()) as {
        items: { previewUrl: string; srcset: string }[];
      };
      return list.items;
    };
    const srcsetPaths = (srcset: string) =>
      srcset.split(', ').map((candidate) => candidate.split(' ')[0] ?? '');
    // ipx makes the same renditions: the thumbnail fitted in its square, the widths by width.
    const ipxPathOf = (path: string, file: string) => {
      const variant = path.slice(path.lastIndexOf('/') + 1);
      const size =
        variant === 'thumb'
          ? `s_${limits.thumbSize}x${limits.thumbSize},fit_inside`
          : `w_${variant.slice(1)}`;
      return `http://127.0.0.1:${FIRST_PORT + 3}/${size},f_webp,q_75/${basename(file)}`;
    };
    const coldKinds = ['thumb before srcsets', 'thumb', 'ipx thumb', 'srcset', 'ipx srcset'] as const;
    const cold = new Map(coldKinds.map((kind) => [kind, [] as number[]]));
    // Per image: its whole srcset over its thumbnail before srcsets, each round.
    const perImage = images.map(() => ({ srcset: [] as number[], before: [] as number[] }));
    const measure = async (kind: (typeof coldKinds)[number]) => {
      const timeEach = async (urls: readonly string[][]) => {
        let total = 0;
        const each: number[] = [];
        for (const group of urls) {
          const time = await timed(() => fetchAll(group));
          each.push(time);
          total += time;
        }
        return { total, each };
      };
      const ours = (items: { previewUrl: string; srcset: string }[], whole: boolean) =>
        items.map((item) =>
          (whole ? srcsetPaths(item.srcset) : [item.previewUrl]).map(
            (path) => `http://127.0.0.1:${coldPort}${path}`,
          ),
        );
      if (kind === 'thumb before srcsets') {
        const { total, each } = await timeEach(ours(await freshGallery({ srcsetWidths: [] }), false));
        for (const [i, time] of each.entries()) perImage[i]?.before.push(time);
        cold.get(kind)?.push(total);
      } else if (kind === 'thumb') {
        cold.get(kind)?.push((await timeEach(ours(await freshGallery(), false))).total);
      } else if (kind === 'srcset') {
        const { total, each } = await timeEach(ours(await freshGallery(), true));
        for (const [i, time] of each.entries()) perImage[i]?.srcset.push(time);
        cold.get(kind)?.push(total);
      } else {
        // ipx is told the same URLs our srcsets list (the list is read from a gallery not timed).
        const items = await freshGallery();
        const urls = items.map((item, i) =>
          (kind === 'ipx thumb' ? [item.previewUrl] : srcsetPaths(item.srcset)).map((path) =>
            ipxPathOf(path, images[i]?.file ?? ''),
          ),
        );
        cold.get(kind)?.push((await timeEach(urls)).total);
      }
    };
    for (let round = 0; round < COLD_ROUNDS; round++) {
      // The order rotates, so a drift of the machine's load does not always fall on the same kind.
      for (let step = 0; step < coldKinds.length; step++) {
        const kind = coldKinds[(step + round) % coldKinds.length];
        if (kind !== undefined) await measure(kind);
      }
    }
    const series = (kind: (typeof coldKinds)[number]) => cold.get(kind) ?? [];
    const coldPerRound = (a: (typeof coldKinds)[number], b: (typeof coldKinds)[number]) =>
      series(a).map((time, round) => time / (series(b)[round] ?? Number.NaN));
    const coldRatios = coldPerRound('ipx thumb', 'thumb');
    const beforeVsIpx = coldPerRound('ipx thumb', 'thumb before srcsets');
    const srcsetRatios = coldPerRound('srcset', 'thumb before srcsets');
    const srcsetVsIpx = coldPerRound('ipx srcset', 'srcset');
    const renditions = (await freshGallery()).reduce((sum, item) => sum + srcsetPaths(item.srcset).length, 0);
    console.log(
      `cold, over HTTP, ${COLD_ROUNDS} rounds (order rotating), all ${images.length} images one after the other, a fresh cache each time:`,
    );
    for (const kind of coldKinds) console.log(`  ${kind}: ${spread(series(kind), 0)} ms`);
    console.log(`  (the srcsets hold ${renditions} renditions for the ${images.length} images)`);
    for (const [i, { file }] of images.entries()) {
      const times = perImage[i];
      if (times === undefined) continue;
      const ratio = median(times.srcset) / median(times.before);
      console.log(
        `  ${basename(file)}: srcset ${spread(times.srcset, 0)} ms, thumbnail before srcsets ${spread(times.before, 0)} ms (${ratio.toFixed(2)})`,
      );
    }
    console.log(
      `ipx thumb / our thumb ${spread(coldRatios)}; ipx thumb / thumb before srcsets ${spread(beforeVsIpx)}; ` +
        `srcset / thumb before srcsets ${spread(srcsetRatios)}; ipx srcset / our srcset ${spread(srcsetVsIpx)}`,
    );

    // 5. Listing large folders: our first page against nginx's JSON listing of the same folder.
    const listings = COLD_ONLY ? [] : await listing(work, images, FIRST_PORT + 6);
    const perRound = (figures: ListingFigures, ours: readonly number[]) =>
      ours.map((time, round) => time / (figures.nginx[round] ?? Number.NaN));
    for (const figures of listings) {
      console.log(
        `  ${figures.count} images, ours / nginx per round: warm ${spread(perRound(figures, figures.warm))}, 304 ${spread(perRound(figures, figures.revalidated))}; cold / nginx median ${(median(figures.cold) / median(figures.nginx)).toFixed(1)}`,
      );
    }
    const listingRatios = listings
      .map(
        (figures) =>
          `list${figures.count}_warm=${median(perRound(figures, figures.warm)).toFixed(2)} ` +
          `list${figures.count}_304=${median(perRound(figures, figures.revalidated)).toFixed(2)} ` +
          `list${figures.count}_cold=${(median(figures.cold) / median(figures.nginx)).toFixed(1)}`,
      )
      .join(' ');
    // 6. Start to listening, the slow phone's first thumbnail, and three nodes on one Redis.
    const { serveMs, bareNodeMs, zodFloorMs } = await startupTimes();
    console.log(
      `startup: serve to listening ${serveMs.toFixed(0)} ms, bare node ${bareNodeMs.toFixed(0)} ms, node importing zod ${zodFloorMs.toFixed(0)} ms (median of 7)`,
    );
    const phone = await slowPhoneFigures();
    console.log(
      `slow phone (150 ms RTT, 1.6 Mbit/s, CPU x${SLOW_PHONE.cpuSlowdown}): first thumbnail ${spread(phone.times, 0)} ms, ${phone.bytes} bytes before it`,
    );
    const nodeGenerations = await threeNodeGenerations().catch((error: unknown) => {
      console.error(`three nodes not measured: ${(error as Error).message}`);
      return Number.NaN;
    });
    console.log(`three nodes: ${nodeGenerations} generation(s) for 100 concurrent cold requests over them`);
    // A figure this run did not measure (`--cold-only`) prints as "-", not as NaN.
    const ratioOf = (values: readonly number[]) => (values.length === 0 ? '-' : median(values).toFixed(2));
    console.log(`end: ${loadLine()}`);
    console.log(
      `payload_ratio=${payloadRatio.toFixed(4)} vs_nginx=${ratioOf(versus('nginx'))} vs_sirv=${ratioOf(versus('sirv'))} ` +
        `cold_vs_ipx=${median(coldRatios).toFixed(2)} generations=${coldGenerations} ` +
        `srcset_vs_thumb=${median(srcsetRatios).toFixed(2)} srcset_vs_ipx=${median(srcsetVsIpx).toFixed(2)} ${listingRatios} ` +
        `startup_ms=${serveMs.toFixed(0)} phone_first_thumb_ms=${median(phone.times).toFixed(0)} phone_bytes_before=${phone.bytes} nodes_generations=${nodeGenerations}`,
    );
  } finally {
    nginx?.kill();
    for (const server of servers) server.close();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
