// The images bench:gallery and bench:avif measure: the five bundled samples and two large ones (a
// 1920x1080 PNG, a 4096x4096 JPEG) that are not in the repository. Those are read from
// BENCH_GALLERY_IMAGES, else from the shared fixtures beside the checkout; a bench stops when one
// is missing rather than measure fewer images than it says.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const SAMPLES = new URL('../examples/images/', import.meta.url).pathname;
const LARGE_DIR =
  process.env.BENCH_GALLERY_IMAGES ?? new URL('../../shared/fixtures/images/', import.meta.url).pathname;

export const IMAGE_NAMES = [
  join(SAMPLES, 'debian-logo-256.png'),
  join(SAMPLES, 'emerald-16x9.png'),
  join(SAMPLES, 'grace_hopper.jpg'),
  join(SAMPLES, 'joy-preview.jpg'),
  join(SAMPLES, 'spacefun-preview.jpg'),
  join(LARGE_DIR, 'softwaves-16x9.png'),
  join(LARGE_DIR, 'pixels-large.jpg'),
];

/** Throws, naming `bench` and the missing files, unless every image is there. */
export function requireImages(bench: string): void {
  const missing = IMAGE_NAMES.filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new Error(
      `${bench} needs all ${IMAGE_NAMES.length} images; missing: ${missing.join(', ')} (set BENCH_GALLERY_IMAGES to the folder holding softwaves-16x9.png and pixels-large.jpg)`,
    );
  }
}
