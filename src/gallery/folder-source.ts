import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { WholeListSource } from './source.js';

const IMAGE_FILE = /\.(jpe?g|png|webp|gif|avif|tiff?)$/i;
// A folder whose modification time is this recent is read again even when the time looks
// unchanged: on a file system with coarse times, a second change within the same tick keeps it.
const RACY_MS = 2000;

interface FolderRow {
  readonly id: string;
  readonly title: string;
  readonly image: string;
}

/**
 * The embedded default source: every image file directly in `dir`, sorted by name (a stable order),
 * with the file name as id and its stem as title. Rows use the default columns id/title/image.
 * Regular files only: a symbolic link could name a file anywhere the process can read.
 *
 * The folder is read again only when its modification time changes (a name added, removed or
 * renamed); otherwise the same frozen rows are returned, so the gallery can keep what it made of
 * them and a page of a 10,000-image folder costs one `stat` of the folder. A file whose content
 * changes under the same name is noticed per page, by its own size and time.
 */
export function folderSource(dir: string): WholeListSource {
  const root = resolve(dir);
  let kept: { mtimeMs: number; ctimeMs: number; rows: readonly FolderRow[] } | undefined;
  return async () => {
    const info = await stat(root);
    if (
      kept !== undefined &&
      kept.mtimeMs === info.mtimeMs &&
      kept.ctimeMs === info.ctimeMs &&
      Date.now() - info.mtimeMs > RACY_MS
    ) {
      return kept.rows;
    }
    const entries = await readdir(root, { withFileTypes: true });
    const rows = Object.freeze(
      entries
        .filter((entry) => entry.isFile() && IMAGE_FILE.test(entry.name))
        .map((entry) => entry.name)
        .sort()
        .map((name) =>
          Object.freeze({ id: name, title: name.replace(/\.[^.]+$/, ''), image: join(root, name) }),
        ),
    );
    kept = { mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, rows };
    return rows;
  };
}
