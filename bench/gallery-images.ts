// The images bench:gallery and bench:avif measure: the five bundled samples and two large ones, a
// 1920x1080 PNG of soft waves and a 4096x4096 JPEG photo. The large ones are made here with sharp,
// the same bytes on every run of one sharp version (no randomness: a fixed formula and a seeded
// noise), so a clone of the repository alone can run the benches. BENCH_GALLERY_IMAGES names a
// folder holding softwaves-16x9.png and pixels-large.jpg to measure instead (the original Debian
// wallpapers the earlier numbers in docs/benchmarks.md were taken on); a bench stops when one of
// those is missing rather than measure fewer images than it says.
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

const SAMPLES = new URL('../examples/images/', import.meta.url).pathname;
// Versioned: a change to how they are made gets a folder of its own, never last version's files.
const MADE_DIR = join(tmpdir(), 'task-association-bench-images-v1');
const GIVEN_DIR = process.env.BENCH_GALLERY_IMAGES;
const LARGE_DIR = GIVEN_DIR ?? MADE_DIR;

const WAVES = 'softwaves-16x9.png';
const PHOTO = 'pixels-large.jpg';

export const IMAGE_NAMES = [
  join(SAMPLES, 'debian-logo-256.png'),
  join(SAMPLES, 'emerald-16x9.png'),
  join(SAMPLES, 'grace_hopper.jpg'),
  join(SAMPLES, 'joy-preview.jpg'),
  join(SAMPLES, 'spacefun-preview.jpg'),
  join(LARGE_DIR, WAVES),
  join(LARGE_DIR, PHOTO),
];

/**
 * Makes the two large images unless BENCH_GALLERY_IMAGES names a folder of them; then throws,
 * naming `bench` and the missing files, unless every image is there.
 */
export async function requireImages(bench: string): Promise<void> {
  if (GIVEN_DIR === undefined) await makeLargeImages();
  const missing = IMAGE_NAMES.filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new Error(
      `${bench} needs all ${IMAGE_NAMES.length} images; missing: ${missing.join(', ')} (BENCH_GALLERY_IMAGES must name a folder holding ${WAVES} and ${PHOTO}, or be unset to have them made)`,
    );
  }
}

/** Writes the large images to MADE_DIR, each once (written whole under another name, then renamed). */
async function makeLargeImages(): Promise<void> {
  await mkdir(MADE_DIR, { recursive: true });
  for (const [name, make] of [
    [WAVES, softWaves],
    [PHOTO, largePhoto],
  ] as const) {
    const file = join(MADE_DIR, name);
    if (existsSync(file)) continue;
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, await make());
    await rename(partial, file);
  }
}

/** 1920x1080 PNG: smooth bands of colour crossed by waves, as a desktop wallpaper (about 1.1 MB). */
function softWaves(): Promise<Buffer> {
  const width = 1920;
  const height = 1080;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const wave = Math.sin(x / 140 + Math.sin(y / 90) * 2) * 0.5 + 0.5;
      const swell = Math.sin((x + y) / 260) * 0.5 + 0.5;
      const at = (y * width + x) * 3;
      pixels[at] = Math.round(30 + 60 * wave + 40 * swell);
      pixels[at + 1] = Math.round(60 + 90 * swell);
      pixels[at + 2] = Math.round(120 + 100 * wave);
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/**
 * 4096x4096 JPEG (q85): a bundled sample photo enlarged, with seeded grain so that it holds as much
 * detail as a real photo of that size (several MB) rather than the smooth surface enlarging leaves.
 */
async function largePhoto(): Promise<Buffer> {
  const side = 4096;
  const { data } = await sharp(join(SAMPLES, 'grace_hopper.jpg'))
    .resize(side, side, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  // A linear congruential generator: the same grain on every run.
  let seed = 0x2545f491;
  for (let i = 0; i < data.length; i++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    data[i] = Math.min(255, Math.max(0, (data[i] ?? 0) + ((seed >>> 24) % 25) - 12));
  }
  return sharp(data, { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}
