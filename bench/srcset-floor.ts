// How low an item's cold srcset can go, whatever its encoder (`npm run bench:srcset-floor`): in one
// process, with the gallery's own pipeline functions, per image and in total over the bench images:
//   thumb           the thumbnail as it is made (decoded straight at its size, encoded)
//   decode          one decode of the source at the widest width of its srcset, nothing encoded
//   thumb from it   the thumbnail cut from that decode (resized and encoded from the raw pixels)
// Two floors follow, for every choice of widths (the configured ones, then narrower sets):
//   separate        (thumb + decode) / thumb: a srcset whose thumbnail keeps its own decode, as ours
//                   does, costs at least this before any width is encoded
//   shared          (decode + thumb from it) / thumb: a srcset whose thumbnail is cut from the widths'
//                   decode costs at least this; and so does that design's thumbnail asked alone,
//                   which the issue also wants at or below ipx's (today's thumbnail is at parity)
// The goal is a whole srcset within 1.5 times one thumbnail: a floor above 1.5 cannot meet it.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import sharp from 'sharp';
import { decodePixels, encodeWidth, renderImage, srcsetOf } from '../src/gallery/image-pipeline.js';
import { GalleryLimits } from '../src/gallery/limits.js';
import { IMAGE_NAMES, requireImages } from './gallery-images.js';
import { loadLine, median, spread, timed } from './report.js';

const ROUNDS = 7;
/** The configured widths, then narrower choices an owner could make instead. */
const WIDTH_SETS: readonly (readonly number[])[] = [
  GalleryLimits.parse({}).srcsetWidths,
  [320, 640, 960],
  [320, 640],
  [640],
];

await requireImages('bench:srcset-floor');
// One thread for libvips, as a cold request gets on a busy server, and no cache between rounds.
sharp.concurrency(1);
sharp.cache(false);
console.log(`start: ${loadLine()}`);
console.log(
  `rounds: ${ROUNDS}, ${IMAGE_NAMES.length} images, widths ${WIDTH_SETS.map((set) => set.join('/')).join(', ')}`,
);

const totals = WIDTH_SETS.map(() => ({ thumb: 0, decode: 0, fromDecode: 0 }));
for (const file of IMAGE_NAMES) {
  const source = await readFile(file);
  const meta = await sharp(source).metadata();
  const cells: string[] = [];
  for (const [index, widths] of WIDTH_SETS.entries()) {
    const limits = GalleryLimits.parse({ srcsetWidths: widths });
    const entries = srcsetOf({ width: meta.width, height: meta.height }, limits);
    const thumbWidth = entries.find((entry) => entry.variant === 'thumb')?.width ?? limits.thumbSize;
    const widest = Math.max(...entries.map((entry) => entry.width));
    // An image narrower than every width has the thumbnail alone: nothing more to decode.
    const alone = entries.length === 1;
    const thumb: number[] = [];
    const decode: number[] = [];
    const fromDecode: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const thumbTime = await timed(() => renderImage(source, 'thumb', limits));
      thumb.push(thumbTime);
      if (alone) {
        decode.push(0);
        fromDecode.push(thumbTime);
        continue;
      }
      let pixels: Awaited<ReturnType<typeof decodePixels>> | undefined;
      decode.push(
        await timed(async () => {
          pixels = await decodePixels(source, widest, limits);
        }),
      );
      const decoded = pixels;
      if (decoded !== undefined) fromDecode.push(await timed(() => encodeWidth(decoded, thumbWidth, limits)));
    }
    const total = totals[index];
    if (total !== undefined) {
      total.thumb += median(thumb);
      total.decode += median(decode);
      total.fromDecode += median(fromDecode);
    }
    if (index === 0) cells.push(`thumb ${spread(thumb, 1)} ms`);
    cells.push(
      alone
        ? 'thumbnail alone'
        : `decode at ${widest} ${spread(decode, 1)} ms, thumb from it ${spread(fromDecode, 1)} ms`,
    );
  }
  console.log(`${basename(file)} (${meta.width}x${meta.height}): ${cells.join(' | ')}`);
}
console.log(`end: ${loadLine()}; sums of the per-image medians`);
console.log(
  WIDTH_SETS.map((widths, index) => {
    const total = totals[index] ?? { thumb: Number.NaN, decode: Number.NaN, fromDecode: Number.NaN };
    const separate = (total.thumb + total.decode) / total.thumb;
    const shared = (total.decode + total.fromDecode) / total.thumb;
    return `w${widths.join('_')}: separate_floor=${separate.toFixed(2)} shared_floor=${shared.toFixed(2)}`;
  }).join(' '),
);
