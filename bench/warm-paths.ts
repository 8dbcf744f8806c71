// The cached thumbnail through toNodeListener's two paths, side by side: the direct one (our
// handlers' answerer, no web Request and Response) and hono's bridge (the same handler wrapped in a
// plain function). autocannon from its own process, 16 connections, rounds alternating.
// `node --import tsx bench/warm-paths.ts`
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { createMemoryCache } from '../src/gallery/cache/memory-cache.js';
import { createGalleryHandler } from '../src/http/gallery-handler.js';
import { toNodeListener } from '../src/http/node-adapter.js';
import { loadLine, median } from './report.js';

const AUTOCANNON = new URL('../node_modules/autocannon/autocannon.js', import.meta.url).pathname;
const IMAGES = new URL('../examples/images/', import.meta.url).pathname;

const handler = createGalleryHandler({
  source: async () => [{ id: 'joy', title: 'Joy', image: `${IMAGES}joy-preview.jpg` }],
  secrets: ['warm-paths-secret-0123456789'],
  cache: createMemoryCache(),
});
const servers = {
  direct: createServer(toNodeListener(handler)),
  bridged: createServer(toNodeListener((request: Request) => handler(request))),
};
const ports: Record<string, number> = {};
for (const [name, server] of Object.entries(servers)) {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  ports[name] = (server.address() as AddressInfo).port;
}
const list = (await (await fetch(`http://127.0.0.1:${ports.direct}/caroulsel/data`)).json()) as {
  items: { previewUrl: string }[];
};
const path = list.items[0]?.previewUrl ?? '';
await (await fetch(`http://127.0.0.1:${ports.direct}${path}`)).arrayBuffer();

async function rate(port: number): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    AUTOCANNON,
    '--json',
    '-c',
    '16',
    '-d',
    '4',
    '-w',
    '1',
    `http://127.0.0.1:${port}${path}`,
  ]);
  return (JSON.parse(stdout) as { requests: { average: number } }).requests.average;
}
const rates: Record<string, number[]> = { direct: [], bridged: [] };
console.log(`start: ${loadLine()}`);
for (let round = 0; round < 3; round += 1) {
  for (const name of round % 2 === 0 ? ['direct', 'bridged'] : ['bridged', 'direct']) {
    rates[name]?.push(await rate(ports[name] as number));
  }
}
console.log(
  `cached thumbnail: direct ${median(rates.direct ?? []).toFixed(0)} req/s, through Request/Response ${median(rates.bridged ?? []).toFixed(0)} req/s (medians of 3; ${loadLine()})`,
);
for (const server of Object.values(servers)) server.close();
