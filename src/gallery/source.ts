import { z } from 'zod';
import { type ImageInput, toImageInput } from './image-input.js';
import type { GalleryLogger } from './logger.js';

/**
 * "Data entry point 400": the host's query for the gallery. Rows are plain objects; which keys hold
 * the id, the title, the image and (optionally) the image's alt text is configured by
 * {@link SourceColumns}. Two forms:
 *
 * - a function returning every row: the handler pages it itself (it calls the function for each
 *   page asked and cuts the page out of the rows; only that page's images are read and probed);
 * - a {@link PagedGallerySource}, asked for one page at a time, for a host whose rows are too many
 *   to return at once.
 */
export type GallerySource = WholeListSource | PagedGallerySource;

/** A source returning every row at once; the handler cuts the page asked out of them. */
export type WholeListSource = () => Promise<readonly unknown[]>;

/** What a paged source is asked: the host's cursor from its previous page (null: the first) and a size. */
export interface GalleryPageRequest {
  readonly cursor: string | null;
  /** At most this many rows (1 to 200). */
  readonly limit: number;
}

/** One page of rows, and the host's own cursor of the page after it (null on the last page). */
export interface GallerySourcePage {
  readonly rows: readonly unknown[];
  readonly next: string | null;
}

/**
 * A host source asked one page at a time (keyset pagination in its own query, say
 * `WHERE id > ? ORDER BY id LIMIT ?`). The cursor is the host's own text: the handler signs it into
 * the `next` URL and hands back only cursors it signed, so the host never sees a forged one. A
 * repeated id is dropped within a page only.
 */
export interface PagedGallerySource {
  page(request: GalleryPageRequest): Promise<GallerySourcePage>;
}

/** The longest cursor a paged source may give, in characters (UTF-16 code units, as `length` counts). */
export const MAX_HOST_CURSOR_CHARS = 1024;

/** The page a paged source must return; anything else is the host's bug, reported as such. */
export const SourcePage = z.object({
  rows: z.array(z.unknown()),
  next: z.string().min(1).max(MAX_HOST_CURSOR_CHARS).nullable(),
});

export const SourceColumns = z.strictObject({
  id: z.string().min(1).default('id'),
  title: z.string().min(1).default('title'),
  image: z.string().min(1).default('image'),
  /** The key of the image's text alternative; without it, or where a row's is blank, the title serves. */
  alt: z.string().min(1).optional(),
});
export type SourceColumns = z.infer<typeof SourceColumns>;

/** One row of the source after normalising: what the gallery lists and serves. */
export interface SourceItem {
  readonly id: string;
  readonly title: string;
  /** What the image shows, for people who cannot see it (the title unless the source says more). */
  readonly alt: string;
  readonly image: ImageInput;
}

function rowSchema(columns: SourceColumns) {
  return z.looseObject({
    [columns.id]: z.union([z.string().trim().min(1), z.number().int(), z.bigint()]).transform(String),
    // A missing title is not worth losing the image for: the id stands in.
    [columns.title]: z.string().nullish(),
    [columns.image]: z.unknown(),
    // Any value is accepted: a blank or non-text alt is worth the title, not losing the image.
    ...(columns.alt === undefined ? {} : { [columns.alt]: z.unknown().optional() }),
  });
}

/**
 * Turns the source's rows into items, in the source's order. A row that does not fit is skipped
 * with a logged reason (its index and what is wrong); it never fails the whole list. A repeated id
 * keeps its first row, so an item's identity stays stable.
 */
export function normaliseRows(
  rows: readonly unknown[],
  columns: SourceColumns,
  logger: GalleryLogger,
): SourceItem[] {
  const schema = rowSchema(columns);
  const items: SourceItem[] = [];
  const seen = new Set<string>();
  for (const [index, row] of rows.entries()) {
    const skip = (reason: string) => logger.warn(`gallery row ${index} skipped: ${reason}`, { row: index });
    const parsed = schema.safeParse(row);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      skip(`${issue?.path.join('.') || 'row'}: ${issue?.message ?? 'not an object'}`);
      continue;
    }
    const id = parsed.data[columns.id] as string;
    if (seen.has(id)) {
      skip(`id "${id}" repeats an earlier row`);
      continue;
    }
    const image = toImageInput(parsed.data[columns.image]);
    if ('error' in image) {
      skip(`${columns.image}: ${image.error}`);
      continue;
    }
    seen.add(id);
    const rawTitle = parsed.data[columns.title];
    const title = typeof rawTitle === 'string' && rawTitle !== '' ? rawTitle : id;
    const alt = columns.alt === undefined ? undefined : parsed.data[columns.alt];
    items.push({ id, title, alt: typeof alt === 'string' && alt.trim() !== '' ? alt : title, image });
  }
  return items;
}
