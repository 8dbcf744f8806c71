import type * as fs from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { listItems, spiedGallery } from '../gallery/support/gallery.js';
import { SAMPLE_DIR } from '../gallery/support/images.js';

// Source files are read through node:fs/promises; this counts the reads in progress at once.
const reads = vi.hoisted(() => ({ active: 0, peak: 0, total: 0 }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const original = await importOriginal<typeof fs>();
  const readFile = async (...args: Parameters<typeof original.readFile>) => {
    reads.active += 1;
    reads.total += 1;
    reads.peak = Math.max(reads.peak, reads.active);
    try {
      return await original.readFile(...args);
    } finally {
      reads.active -= 1;
    }
  };
  return { ...original, readFile, default: { ...original, readFile } };
});

const names = ['grace_hopper.jpg', 'debian-logo-256.png', 'joy-preview.jpg', 'spacefun-preview.jpg'];
const rows = () => names.map((name) => ({ id: name, image: `${SAMPLE_DIR}${name}` }));

describe('source reads for generations', () => {
  it('run under the concurrency cap, and a request refused as busy reads nothing', async () => {
    const { get, counts } = spiedGallery(rows, { limits: { concurrency: 1, queueSize: 1 } });
    const items = await listItems(get);
    reads.peak = 0;
    reads.total = 0;
    const responses = await Promise.all(items.map((item) => get(item.previewUrl)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(2);
    expect(statuses.filter((status) => status === 503)).toHaveLength(2);
    expect(counts.generations).toBe(2);
    // One at a time, and only for the two generations admitted.
    expect(reads.peak).toBe(1);
    expect(reads.total).toBe(2);
  });
});
