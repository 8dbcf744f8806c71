import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { WholeListSource } from './source.js';

const IMAGE_FILE = /\.(jpe?g|png|webp|gif|avif|tiff?)$/i;

/**
 * The embedded default source: every image file directly in `dir`, sorted by name (a stable order),
 * with the file name as id and its stem as title. Rows use the default columns id/title/image.
 */
export function folderSource(dir: string): WholeListSource {
  const root = resolve(dir);
  return async () => {
    const entries = await readdir(root, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && IMAGE_FILE.test(entry.name))
      .map((entry) => entry.name)
      .sort()
      .map((name) => ({ id: name, title: name.replace(/\.[^.]+$/, ''), image: join(root, name) }));
  };
}
