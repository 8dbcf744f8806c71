// Encoder choices for the renditions, side by side on the same pixels (`npm run bench:avif`): our WebP
// settings (quality 75, effort 2) against AVIF at three efforts and WebP at efforts 0, 1 and 4; bytes
// and encode time.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import sharp from 'sharp';
import { srcsetOf } from '../src/gallery/image-pipeline.js';
import { GalleryLimits } from '../src/gallery/limits.js';
import { IMAGE_NAMES, requireImages } from './gallery-images.js';
import { loadLine, median, spread, timed } from './report.js';

const ROUNDS = 3;

type Pipeline = ReturnType<typeof sharp>;
type Encoder = (pipeline: Pipeline) => Pipeline;
const ENCODERS: [string, Encoder][] = [
  ['webp (ours)', (pipeline) => pipeline.webp({ quality: 75, effort: 2 })],
  // The other WebP efforts, at every rendition, thumbnails included: what a cheaper encode buys.
  ['webp q75 e0', (pipeline) => pipeline.webp({ quality: 75, effort: 0 })],
  ['webp q75 e1', (pipeline) => pipeline.webp({ quality: 75, effort: 1 })],
  ['webp q75 e4', (pipeline) => pipeline.webp({ quality: 75, effort: 4 })],
  ['avif q50 e4', (pipeline) => pipeline.avif({ quality: 50, effort: 4 })],
  ['avif q50 e2', (pipeline) => pipeline.avif({ quality: 50, effort: 2 })],
  ['avif q50 e0', (pipeline) => pipeline.avif({ quality: 50, effort: 0 })],
];

async function main() {
  await requireImages('bench:avif');
  const limits = GalleryLimits.parse({});
  console.log(`start: ${loadLine()}`);
  console.log(
    `rounds: ${ROUNDS}, widths ${limits.srcsetWidths.join('/')} and the thumbnail (${limits.thumbSize})`,
  );
  const totals = new Map(ENCODERS.map(([label]) => [label, { bytes: 0, ms: 0, ratios: [] as number[] }]));
  for (const file of IMAGE_NAMES) {
    const source = await readFile(file);
    const meta = await sharp(source).metadata();
    const entries = srcsetOf({ width: meta.width, height: meta.height }, limits);
    for (const { variant, width } of entries) {
      const thumb = variant === 'thumb';
      const { data, info } = await sharp(source)
        .rotate()
        .resize(
          thumb
            ? { width: limits.thumbSize, height: limits.thumbSize, fit: 'inside', withoutEnlargement: true }
            : { width },
        )
        .toColourspace('srgb')
        .raw()
        .toBuffer({ resolveWithObject: true });
      const raw = { width: info.width, height: info.height, channels: info.channels };
      const cells: string[] = [];
      let webpBytes = Number.NaN;
      for (const [label, encoder] of ENCODERS) {
        const times: number[] = [];
        let bytes = 0;
        for (let round = 0; round < ROUNDS; round++) {
          times.push(
            await timed(async () => {
              bytes = (await encoder(sharp(data, { raw })).toBuffer()).length;
            }),
          );
        }
        const total = totals.get(label);
        if (Number.isNaN(webpBytes)) webpBytes = bytes;
        if (total !== undefined) {
          total.bytes += bytes;
          total.ms += median(times);
          total.ratios.push(bytes / webpBytes);
        }
        cells.push(`${label} ${bytes} B ${spread(times, 0)} ms`);
      }
      console.log(`${basename(file)} ${variant} (${info.width}x${info.height}): ${cells.join(' | ')}`);
    }
  }
  const webp = totals.get('webp (ours)') ?? { bytes: Number.NaN, ms: Number.NaN, ratios: [] };
  for (const [label, total] of totals) {
    console.log(
      `total ${label}: ${total.bytes} bytes, ${total.ms.toFixed(0)} ms; bytes over WebP's per rendition ${spread(total.ratios)}`,
    );
  }
  console.log(`end: ${loadLine()}`);
  console.log(
    [...totals]
      .filter(([label]) => label !== 'webp (ours)')
      .map(
        ([label, total]) =>
          `${label.replace(/ /g, '_')}: bytes_vs_webp=${(total.bytes / webp.bytes).toFixed(2)} ` +
          `median_rendition_bytes_vs_webp=${median(total.ratios).toFixed(2)} time_vs_webp=${(total.ms / webp.ms).toFixed(2)}`,
      )
      .join(' '),
  );
}

await main();
