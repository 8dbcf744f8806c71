import { describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/gallery/cache/memory-cache.js';
import { GalleryMediaError } from '../../src/gallery/gallery-errors.js';
import type { Limiter } from '../../src/gallery/limiter.js';
import { GalleryLimits } from '../../src/gallery/limits.js';
import { createMediaIndex } from '../../src/gallery/media-index.js';
import { SourceColumns } from '../../src/gallery/source.js';
import { SAMPLE_DIR } from './support/images.js';

// A listing probes each image of its page (size and placeholder: a decode). Probes take the same
// slots as renditions, so many cold pages at once cannot decode without bound; a full queue is a 503
// for the page, never a silently shorter page.

const samples = ['grace_hopper.jpg', 'debian-logo-256.png', 'joy-preview.jpg'];
const rows = async () => samples.map((name) => ({ id: name, title: name, image: `${SAMPLE_DIR}${name}` }));

/** A limiter that runs every task and counts them, or, while busy, refuses each as a full queue does. */
function fakeLimiter() {
  let calls = 0;
  let busy = false;
  const limiter: Limiter = {
    async run(task) {
      calls++;
      if (busy) throw new GalleryMediaError('GALLERY_BUSY', 503, 'too many images are being prepared');
      return task();
    },
  };
  const setBusy = (value: boolean) => {
    busy = value;
  };
  return { limiter, calls: () => calls, setBusy };
}

function indexWith(limiter: Limiter) {
  const warnings: string[] = [];
  const index = createMediaIndex({
    source: rows,
    columns: SourceColumns.parse({}),
    limits: GalleryLimits.parse({}),
    logger: { warn: (message) => warnings.push(message) },
    store: createMemoryCache(),
    limiter,
  });
  return { index, warnings };
}

describe('probing a page', () => {
  it('takes one limiter slot per image not probed before, and none once probed', async () => {
    const counting = fakeLimiter();
    const { index } = indexWith(counting.limiter);
    const page = await index.page({ cursor: null, limit: 10 });
    const { shown } = await index.probePage(page.entries);
    expect(shown.map((item) => item.entry.id)).toEqual(samples);
    expect(counting.calls()).toBe(samples.length);
    await index.probePage(page.entries);
    expect(counting.calls()).toBe(samples.length);
  });

  it('fails the page with the limiter’s 503 when it is full, skipping nothing and keeping no refusal', async () => {
    const fake = fakeLimiter();
    const { index, warnings } = indexWith(fake.limiter);
    const page = await index.page({ cursor: null, limit: 10 });
    fake.setBusy(true);
    await expect(index.probePage(page.entries)).rejects.toMatchObject({ code: 'GALLERY_BUSY', status: 503 });
    expect(warnings).toEqual([]);
    // Nothing was remembered from the busy moment: with room again, every image is probed and shown.
    fake.setBusy(false);
    expect((await index.probePage(page.entries)).shown.map((item) => item.entry.id)).toEqual(samples);
    expect(warnings).toEqual([]);
  });
});
