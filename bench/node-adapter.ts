// Node http bridges measured side by side in one run (`npm run bench:node-adapter`): toNodeListener
// (@hono/node-server's getRequestListener) against the hand-written bridge it replaced
// (bench/hand-written-bridge.ts), both in front of the same web-standard handlers, in the same
// process, through real keep-alive sockets.
//   thumbnail   cached 320-pixel WebP thumbnails from the gallery handler, requests/s
//   early 413   a PUT whose 256 KB body the handler refuses unread, then a GET on the same
//               connection (the keep-alive case): pairs/s; a stalled connection counts nothing
//   streamed    a 1 MB PUT echoed back as a stream, requests/s
// Each figure is the median over alternating rounds of (adapter / hand-written): above 1, the
// adapter is faster; the hand-written bridge stalls on the early 413, so that ratio is infinite.
// The HTTP load runs in a worker thread, so the servers (this thread) have the event loop to themselves.
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { createDiskCache } from '../src/gallery/cache/disk-cache.js';
import { createGalleryHandler } from '../src/http/gallery-handler.js';
import { toNodeListener } from '../src/http/node-adapter.js';
import { handWrittenListener } from './hand-written-bridge.js';
import { loadLine, median, spread } from './report.js';

const SECONDS = 1;
const ROUNDS = 7;
const CONNECTIONS = 16;
const EARLY_BODY_BYTES = 256 * 1024;
const STREAM_BYTES = 1024 * 1024;

// Worker side, plain JavaScript: `connections` keep-alive connections each run `steps` (method,
// path, body size) in a loop for `seconds`, and post how many loops completed. A loop that gets no
// answer within 2 s (a stalled connection) ends that connection's count.
const LOAD_WORKER = `
const { Agent, request } = require('node:http');
const { parentPort, workerData: { base, steps, seconds, connections } } = require('node:worker_threads');
const agent = new Agent({ keepAlive: true, maxSockets: connections });
const until = Date.now() + seconds * 1000;
const bodies = new Map();
const bodyOf = (size) => bodies.get(size) ?? bodies.set(size, Buffer.alloc(size, 120)).get(size);
const one = ({ method, path, size }) => new Promise((resolve, reject) => {
  const req = request(base + path, { agent, method, timeout: 2000, headers: size ? { 'content-length': size } : {} }, (res) => {
    res.on('data', () => {});
    res.on('end', resolve);
  });
  req.on('timeout', () => req.destroy(new Error('stalled')));
  req.on('error', reject);
  req.end(size ? bodyOf(size) : undefined);
});
let done = 0;
Promise.all(Array.from({ length: connections }, async () => {
  try {
    while (Date.now() < until) { for (const step of steps) await one(step); done += 1; }
  } catch {}
})).then(() => { agent.destroy(); parentPort.postMessage(done); });
`;

type Step = { method: string; path: string; size?: number };

async function loopsPerSecond(base: string, steps: readonly Step[]): Promise<number> {
  const worker = new Worker(LOAD_WORKER, {
    eval: true,
    workerData: { base, steps, seconds: SECONDS, connections: CONNECTIONS },
  });
  const [count] = (await once(worker, 'message')) as [number];
  await worker.terminate();
  return count / SECONDS;
}

async function listen(listener: RequestListener): Promise<{ base: string; close: () => Promise<void> }> {
  const server = createServer(listener);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Median of adapter/hand-written over alternating rounds, with each round's rates printed. */
async function compare(label: string, ours: string, hono: string, steps: (base: string) => Step[]) {
  const ratios: number[] = [];
  await loopsPerSecond(ours, steps(ours)); // warm-up of both paths
  await loopsPerSecond(hono, steps(hono));
  for (let round = 0; round < ROUNDS; round++) {
    const oursFirst = round % 2 === 0;
    const first = await loopsPerSecond(oursFirst ? ours : hono, steps(oursFirst ? ours : hono));
    const second = await loopsPerSecond(oursFirst ? hono : ours, steps(oursFirst ? hono : ours));
    const [oursRate, honoRate] = oursFirst ? [first, second] : [second, first];
    ratios.push(oursRate === 0 ? Number.POSITIVE_INFINITY : honoRate / oursRate);
    console.log(
      `  ${label} round ${round + 1}: hand-written ${oursRate.toFixed(0)}/s, adapter ${honoRate.toFixed(0)}/s`,
    );
  }
  console.log(`${label}: adapter/hand-written ${spread(ratios)}`);
  return median(ratios);
}

async function main() {
  const images = new URL('../examples/images/', import.meta.url).pathname;
  const files = (await readdir(images)).filter((name) => /\.(png|jpe?g)$/i.test(name)).sort();
  const work = await mkdtemp(join(tmpdir(), 'bench-node-adapter-'));
  const gallery = createGalleryHandler({
    source: async () => files.map((name, i) => ({ id: String(i), title: name, image: join(images, name) })),
    secrets: ['bench-secret-0123456789'],
    cache: createDiskCache({ dir: join(work, 'cache') }),
  });
  // One router for both bridges: the gallery, an early 413 that never reads the body, an echo.
  const handler = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (pathname === '/early') {
      return request.method === 'PUT'
        ? Response.json({ error: { code: 'BODY_TOO_LARGE' } }, { status: 413 })
        : Response.json({ ok: true });
    }
    if (pathname === '/echo')
      return new Response(request.body, { headers: { 'content-type': 'application/octet-stream' } });
    return gallery(request);
  };
  const ours = await listen(handWrittenListener(handler));
  const hono = await listen(toNodeListener(handler));
  const items = (
    (await (await fetch(`${hono.base}/caroulsel/data`)).json()) as { items: { previewUrl: string }[] }
  ).items;
  const thumb = items[2]?.previewUrl ?? '';
  const bytes = (await (await fetch(hono.base + thumb)).arrayBuffer()).byteLength; // generated and cached
  console.log(
    `machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; start: ${loadLine()}`,
  );
  console.log(
    `load: ${CONNECTIONS} keep-alive connections from a worker thread, ${SECONDS} s per run, ${ROUNDS} rounds; thumbnail ${bytes} bytes, early-answer body ${EARLY_BODY_BYTES} bytes, echoed body ${STREAM_BYTES} bytes`,
  );
  const results = {
    thumbnail: await compare('thumbnail', ours.base, hono.base, () => [{ method: 'GET', path: thumb }]),
    early_413: await compare('early 413', ours.base, hono.base, () => [
      { method: 'PUT', path: '/early', size: EARLY_BODY_BYTES },
      { method: 'GET', path: '/early' },
    ]),
    streamed: await compare('streamed', ours.base, hono.base, () => [
      { method: 'PUT', path: '/echo', size: STREAM_BYTES },
    ]),
  };
  console.log(`end: ${loadLine()}`);
  console.log(
    JSON.stringify(results, (_, value) => (value === Number.POSITIVE_INFINITY ? 'Infinity' : value)),
  );
  await ours.close();
  await hono.close();
  await rm(work, { recursive: true, force: true });
}

await main();
