import { z } from 'zod';
import { InvalidRequestError } from '../model/request-errors.js';
import { SearchText } from '../model/search-text.js';
import { SeqDbText } from '../model/seq-db.js';
import { MAX_SHEET_PAGE, MAX_SHEET_PAGE_SIZE, SheetFilter } from '../tree/screen/sheet.js';

// What the association handler reads from a request's query string, and nothing else.

/**
 * The query parameters each method reads, one line per parameter; anything else, or a parameter
 * given twice, is a 400 naming it (`parseQuery`). Without `part`, a GET answers the whole tree
 * (JSON) or the screen's page (a browser navigation); `part` asks for the screen's light data.
 */
export const QUERY_PARAMETERS = {
  GET: z.strictObject({
    taskSheet: SeqDbText,
    /**
     * `start`: header, metric columns, first level; `children`: one node's children; `search`: matches
     * with paths; `history`: the changes of one activity's metrics (`activity`, and `group` unless null);
     * `sheet`: a page of every activity with its path and values (`page`, `size`, `filter`);
     * `progress`: how many activities have values, per node and for the sheet; `previous`: the values
     * saved on the previous sheet (or on `from`), to copy; `owner`: the key the screen's offline entries
     * are filed under (no database read).
     */
    part: z
      .enum(['start', 'children', 'search', 'history', 'sheet', 'progress', 'previous', 'owner'])
      .optional(),
    /** `part=children`: the TREE_VIEW level (1, 2, ...) and the SEQ_DB of the node whose children are asked for. */
    level: z
      .string()
      .regex(/^[1-9][0-9]?$/, { message: 'a level is a whole number from 1, as in TREE_VIEW' })
      .transform(Number)
      .optional(),
    node: SeqDbText.optional(),
    /** `part=search`: the words searched for in the label columns of every level (at most 100 characters, 8 words). */
    q: SearchText.optional(),
    /** `part=history`: the activity, and the node it hangs under (left out on a one-level tree). */
    activity: SeqDbText.optional(),
    group: SeqDbText.optional(),
    /** `part=sheet`: the page, from 1; rows per page, 1 to 1000 (default 500); `empty` for the activities without values. */
    page: z
      .string()
      .regex(/^[1-9][0-9]{0,3}$/, { message: `a page is a whole number from 1 to ${MAX_SHEET_PAGE}` })
      .transform(Number)
      .optional(),
    size: z
      .string()
      .regex(/^[1-9][0-9]{0,3}$/, { message: 'a page size is a whole number from 1 to 1000' })
      .transform(Number)
      .refine((size) => size <= MAX_SHEET_PAGE_SIZE, {
        message: `a page size is a whole number from 1 to ${MAX_SHEET_PAGE_SIZE}`,
      })
      .optional(),
    filter: SheetFilter.optional(),
    /** `part=previous`: the task sheet to copy from, when not the previous one. */
    from: SeqDbText.optional(),
  }),
  PUT: z.strictObject({
    taskSheet: SeqDbText,
  }),
} as const;
export type Query = z.output<typeof QUERY_PARAMETERS.GET>;

/** `?asset=<name>`: the screen's module and stylesheet, answered before any session or query check. */
export const ASSET_PARAMETER = 'asset';
/**
 * An asset request reads `asset`, and `release` where the service worker keeps its release's files
 * (the release it was written with: answered only by a node serving that release), held to the
 * same rule as the other queries.
 */
export const ASSET_QUERY = z.strictObject({
  [ASSET_PARAMETER]: z.string(),
  release: z.string().max(64).optional(),
});

/** The query parameters each kind of GET reads (no `part`: the whole tree or the page). */
const PART_READS: Record<NonNullable<Query['part']> | 'tree', readonly string[]> = {
  tree: ['taskSheet'],
  start: ['taskSheet', 'part'],
  children: ['taskSheet', 'part', 'level', 'node'],
  search: ['taskSheet', 'part', 'q'],
  history: ['taskSheet', 'part', 'activity', 'group'],
  sheet: ['taskSheet', 'part', 'page', 'size', 'filter'],
  progress: ['taskSheet', 'part'],
  previous: ['taskSheet', 'part', 'from'],
  owner: ['taskSheet', 'part'],
};

/**
 * A parameter this GET does not read is refused, as an unknown one is: `?part=start&node=7` would
 * otherwise answer the roots to a client that meant to ask for node 7's children.
 */
export function assertPartReads(url: URL, part: Query['part']): void {
  const reads = PART_READS[part ?? 'tree'];
  for (const name of url.searchParams.keys()) {
    if (!reads.includes(name)) {
      throw new InvalidRequestError(
        'UNKNOWN_QUERY_PARAMETER',
        `query parameter ${name} is not read ${part === undefined ? 'without part' : `by part=${part}`} (it reads ${reads.join(', ')})`,
        { path: name },
      );
    }
  }
}
