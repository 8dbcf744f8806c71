// The gallery's four figures, measured side by side in one run (`npm run bench:gallery`):
//   payload_ratio    our /caroulsel/data bytes over the base64-inline list of the same items
//   cached_vs_static cached thumbnail requests/s (memory layer) over the same bytes served from
//                    memory by a plain static handler; a second line compares the disk cache alone
//                    with a static handler that reads the file at each request
//   cold_vs_jimp     jimp's cold thumbnail time over ours, same images, same box
//   generations      renditions generated for 100 concurrent requests of one cold thumbnail
// The HTTP load runs in a worker thread, so the server (this thread) has the event loop to itself.
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Jimp } from 'jimp';
import { createDiskCache } from '../src/gallery/cache/disk-cache.js';
import { createGalleryHandler } from '../src/gallery/handler.js';
import { renderImage } from '../src/gallery/image-pipeline.js';
import { GalleryLimits } from '../src/gallery/limits.js';
import { toNodeListener } from '../src/gallery/node-adapter.js';

const SAMPLES = new URL('../examples/images/', import.meta.url).pathname;
// The large sample images live beside the checkout (shared/fixtures/images); used when present.
const FIXTURES = new URL('../../shared/fixtures/images/', import.meta.url).pathname;
const SECRET = 'bench-secret-0123456789';
const LOAD_SECONDS = 1;
const ROUNDS = 9;
const CONNECTIONS = 16;

// Worker side, as plain JavaScript (workers do not inherit the TypeScript loader): keeps
// `connections` keep-alive requests in flight for `seconds` and posts how many completed.
const LOAD_WORKER = `
const { Agent, request } = require('node:http');
const { parentPort, workerData: { url, seconds, connections } } = require('node:worker_threads');
const agent = new Agent({ keepAlive: true, maxSockets: connections });
const until = Date.now() + seconds * 1000;
let done = 0;
const one = () => new Promise((resolve, reject) => {
  const req = request(url, { agent }, (res) => {
    if (res.statusCode !== 200) reject(new Error(url + ': HTTP ' + res.statusCode));
    res.on('data', () => {});
    res.on('end', resolve);
  });
  req.on('error', reject);
  req.end();
});
Promise.all(Array.from({ length: connections }, async () => {
  while (Date.now() < until) { await one(); done += 1; }
})).then(() => { agent.destroy(); parentPort.postMessage(done); });
`;

async function requestsPerSecond(url: string): Promise<number> {
  const worker = new Worker(LOAD_WORKER, {
    eval: true,
    workerData: { url, seconds: LOAD_SECONDS, connections: CONNECTIONS },
  });
  const [count] = (await once(worker, 'message')) as [number];
  await worker.terminate();
  return count / LOAD_SECONDS;
}

/**
 * Median over `rounds` of (ours req/s / static req/s), the two measured back to back in
 * alternating order: on a shared machine the load drifts, a ratio of neighbouring runs does not.
 */
async function compareWithStatic(
  label: string,
  ours: string,
  floor: { url: string; label: string },
  rounds: number,
): Promise<number> {
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const first = round % 2 === 0 ? floor.url : ours;
    const firstRate = await requestsPerSecond(first);
    const secondRate = await requestsPerSecond(first === floor.url ? ours : floor.url);
    const [staticRate, oursRate] = first === floor.url ? [firstRate, secondRate] : [secondRate, firstRate];
    ratios.push(oursRate / staticRate);
    console.log(
      `  round ${round + 1}: ${label} ${oursRate.toFixed(0)} req/s, ${floor.label} ${staticRate.toFixed(0)} req/s`,
    );
  }
  return ratios.sort((a, b) => a - b)[Math.floor(rounds / 2)] ?? 0;
}

async function main() {
  const names = [
    'debian-logo-256.png',
    'emerald-16x9.png',
    'grace_hopper.jpg',
    'joy-preview.jpg',
    'spacefun-preview.jpg',
  ];
  const files = names.map((name) => join(SAMPLES, name));
  // The large images live outside the repository; the bench uses them when they are there.
  for (const name of ['softwaves-16x9.png', 'pixels-large.jpg']) {
    if (existsSync(join(FIXTURES, name))) files.push(join(FIXTURES, name));
  }
  const images = await Promise.all(files.map(async (file) => ({ file, bytes: await readFile(file) })));
  const work = await mkdtemp(join(tmpdir(), 'bench-gallery-'));
  let generations = 0;
  const handler = createGalleryHandler({
    source: async () => images.map(({ file }, i) => ({ id: String(i), title: file, image: file })),
    secrets: [SECRET],
    cache: createDiskCache({ dir: join(work, 'cache') }),
    logger: { warn: (message) => console.error(message) },
    onGenerate: () => {
      generations += 1;
    },
  });
  const limits = GalleryLimits.parse({});
  console.log(
    `machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ` +
      `load average ${loadavg()[0]?.toFixed(1)} (other work on the machine skews the HTTP figures)`,
  );
  console.log(`images (${images.length}):`);
  for (const { file, bytes } of images) console.log(`  ${file}  ${bytes.length} bytes`);
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
  // The floors: plain static handlers in the same process, sending the thumbnail's bytes held in
  // memory (against our memory layer) or read from a file at each request (against the disk cache).
  let held = Buffer.alloc(0);
  const sendStatic = (res: ServerResponse, bytes: Buffer) => {
    res.writeHead(200, { 'Content-Type': 'image/webp', 'Content-Length': bytes.length });
    res.end(bytes);
  };
  const server = createServer(async (req, res) => {
    if (req.url === '/static/memory.webp') return sendStatic(res, held);
    if (req.url === '/static/disk.webp') return sendStatic(res, await readFile(join(work, 'thumb.webp')));
    listener(req, res);
  });
  const listener = toNodeListener(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const thumbUrl = base + (items[2]?.previewUrl ?? '');
  const before = generations;
  const responses = await Promise.all(Array.from({ length: 100 }, () => fetch(thumbUrl)));
  const thumb = Buffer.from(await (responses[0] as Response).arrayBuffer());
  for (const response of responses.slice(1)) await response.arrayBuffer();
  const coldGenerations = generations - before;
  console.log(`generations: ${coldGenerations} for 100 concurrent requests of one cold thumbnail`);

  // 3. Cached thumbnail requests per second against the same bytes served by a static handler.
  held = thumb;
  await writeFile(join(work, 'thumb.webp'), thumb);
  console.log(
    `load: ${CONNECTIONS} keep-alive connections, ${LOAD_SECONDS} s per run, ${ROUNDS} rounds, thumbnail ${thumb.length} bytes`,
  );
  await requestsPerSecond(thumbUrl); // warm-up of both paths' code
  const cachedVsStatic = await compareWithStatic(
    'cached thumbnail',
    thumbUrl,
    { url: `${base}/static/memory.webp`, label: 'static from memory' },
    ROUNDS,
  );
  console.log(`memory layer against a static handler holding the same bytes: ${cachedVsStatic.toFixed(2)}x`);
  // The second comparison, disk against disk: the memory layer off (each hit reads the disk
  // cache) against a static handler that reads the file at each request.
  const diskOnly = createServer(
    toNodeListener(
      createGalleryHandler({
        source: async () => images.map(({ file }, i) => ({ id: String(i), title: file, image: file })),
        secrets: [SECRET],
        cache: createDiskCache({ dir: join(work, 'cache') }),
        limits: { memoryCacheBytes: 0 },
      }),
    ),
  );
  diskOnly.listen(0, '127.0.0.1');
  await once(diskOnly, 'listening');
  const diskUrl = `http://127.0.0.1:${(diskOnly.address() as AddressInfo).port}${items[2]?.previewUrl ?? ''}`;
  const diskVsStatic = await compareWithStatic(
    'disk cache alone',
    diskUrl,
    { url: `${base}/static/disk.webp`, label: 'static from file' },
    5,
  );
  console.log(
    `disk cache alone (memory layer off) against a static handler reading the file: ${diskVsStatic.toFixed(2)}x`,
  );
  diskOnly.close();
  server.close();

  // 4. Cold thumbnails: our pipeline against jimp, same images, same box (jimp has no WebP: JPEG).
  let ours = 0;
  let theirs = 0;
  for (const { bytes } of images) {
    let start = performance.now();
    await renderImage(bytes, 'thumb', limits);
    ours += performance.now() - start;
    start = performance.now();
    const image = await Jimp.read(bytes);
    image.scaleToFit({ w: limits.thumbSize, h: limits.thumbSize });
    await image.getBuffer('image/jpeg');
    theirs += performance.now() - start;
  }
  console.log(
    `cold thumbnails: ours ${ours.toFixed(0)} ms, jimp ${theirs.toFixed(0)} ms (all images, one pass)`,
  );
  await rm(work, { recursive: true, force: true });

  console.log(
    `payload_ratio=${payloadRatio.toFixed(4)} cached_vs_static=${cachedVsStatic.toFixed(2)} ` +
      `cold_vs_jimp=${(theirs / ours).toFixed(1)} generations=${coldGenerations}`,
  );
}

await main();
