// @ts-check
/**
 * Progress of the sheet: how many activities have values ("12 of 30", `part=progress`), for the
 * sheet and, in a disclosure, for every node above the activities (sector, group), each named by
 * the label the tree or the table has read for it. Read when the screen is ready and again a moment
 * after a save (of the modal or of the table).
 */

import { BLOCK } from './dom.js';
import { fill } from './labels.js';

/** How long after a save the progress is read again: saves in a row are read once. */
const REFRESH_DELAY_MS = 400;

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {() => Iterable<{ level: number, id: number, label: string }>} known the nodes the tree has read
 * @param {(countOf: (level: number, id: number) => import('./api.js').NodeProgress | undefined) => void} read
 *   told each time the progress is read, with each node's count (the tree shows them at its branches)
 */
export function createProgress(ctx, known, read) {
  const { create, labels } = ctx;
  const root = create('div', `${BLOCK}__progress`);
  root.hidden = true;
  const line = create('p', `${BLOCK}__progress-sheet`);
  const bar = create('span', `${BLOCK}__progress-bar`);
  bar.setAttribute('aria-hidden', 'true');
  const fillBar = create('span', `${BLOCK}__progress-fill`);
  bar.append(fillBar);
  const details = create('details', `${BLOCK}__progress-groups`);
  const summary = create('summary', '', labels.progressGroups);
  const list = create('ul', `${BLOCK}__progress-list`);
  details.append(summary, list);
  root.append(line, bar, details);
  /** Node labels by `level:id`, as the tree and the table learn them. */
  /** @type {Map<string, string>} */
  const names = new Map();
  /** @type {import('./api.js').SheetProgress | undefined} */
  let last;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let reads = 0;

  details.addEventListener('toggle', () => {
    if (details.open) draw();
  });

  function draw() {
    if (!last) return;
    learn(known());
    root.hidden = false;
    line.textContent = fill(labels.progress, { filled: last.filled, total: last.activities });
    fillBar.style.width = `${last.activities === 0 ? 0 : (100 * last.filled) / last.activities}%`;
    list.replaceChildren();
    for (const node of last.nodes) {
      const name = names.get(`${node.level}:${node.id}`);
      if (name === undefined) continue;
      const item = create('li', `${BLOCK}__progress-node`);
      item.style.setProperty('--ta-screen-depth', String(node.level - 1));
      item.append(
        create('span', `${BLOCK}__progress-name`, name),
        create(
          'span',
          `${BLOCK}__progress-count`,
          fill(labels.progressShort, { filled: node.filled, total: node.activities }),
        ),
      );
      list.append(item);
    }
    details.hidden = list.childElementCount === 0;
  }

  /** Names the nodes of a path (a table's row) or of the tree. @param {Iterable<{ level: number, id: number, label: string }>} steps */
  function learn(steps) {
    for (const step of steps) names.set(`${step.level}:${step.id}`, step.label);
  }

  async function refresh() {
    const mine = ++reads;
    try {
      const data = await ctx.api.progress();
      if (ctx.destroyed() || mine !== reads) return;
      last = data;
      const byNode = new Map(data.nodes.map((node) => [`${node.level}:${node.id}`, node]));
      read((level, id) => byNode.get(`${level}:${id}`));
      draw();
    } catch {
      // The count stays as last read: it is a guide, not the data.
    }
  }

  return {
    root,
    refresh,
    /** Reads the progress again a moment after a save. */
    later() {
      ctx.timers.cancel(timer);
      timer = ctx.timers.later(() => void refresh(), REFRESH_DELAY_MS);
    },
    learn,
    draw,
  };
}

/** @typedef {ReturnType<typeof createProgress>} Progress */
