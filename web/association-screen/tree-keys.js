// @ts-check
/**
 * The tree's keys and clicks, as the WAI-ARIA tree pattern has them: arrows (Right opens or enters a
 * branch, Left closes it or goes to the parent), Home/End, Enter/Space (an activity opens its modal),
 * and type-ahead on the labels.
 */

import { BLOCK } from './dom.js';

/** How long a pause ends the word typed ahead. */
const TYPE_AHEAD_MS = 600;

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {import('./tree.js').Tree} tree
 * @param {(node: import('./tree.js').TreeNode) => void} openActivity opens an activity's modal
 */
export function attachTreeKeys(ctx, tree, openActivity) {
  let typeAhead = '';
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let typeAheadTimer;

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    const node = tree.currentNode();
    if (!node || event.altKey || event.ctrlKey || event.metaKey) return;
    const items = tree.visibleItems();
    const index = items.indexOf(node.item);
    /** @param {HTMLElement | undefined} item */
    const go = (item) => {
      const target = tree.nodeOf(item);
      if (target) tree.focusNode(target);
    };
    switch (event.key) {
      case 'ArrowDown': {
        const next = tree.nextVisible(node);
        if (next) tree.focusNode(next);
        break;
      }
      case 'ArrowUp':
        go(items[index - 1]);
        break;
      case 'ArrowRight':
        if (node.data.kind !== 'branch' || !node.item.hasAttribute('aria-expanded')) break;
        if (!node.expanded) void tree.expand(node).catch(() => undefined);
        else if (node.children?.[0]) tree.focusNode(node.children[0]);
        break;
      case 'ArrowLeft':
        if (node.expanded) tree.collapse(node);
        else if (node.parent) tree.focusNode(node.parent);
        break;
      case 'Home':
        go(items[0]);
        break;
      case 'End': {
        const last = tree.lastVisible();
        if (last) tree.focusNode(last);
        break;
      }
      case 'Enter':
      case ' ':
        if (node.data.kind === 'task') openActivity(node);
        else tree.toggle(node);
        break;
      default:
        if (event.key.length === 1 && event.key !== ' ') {
          typeAheadTo(node, event.key);
          break;
        }
        return;
    }
    event.preventDefault();
  }

  /**
   * Type-ahead: focus the next visible item whose label starts with what was typed in the last
   * moment (one letter repeated cycles through the items starting with it).
   * @param {import('./tree.js').TreeNode} from @param {string} key
   */
  function typeAheadTo(from, key) {
    typeAhead += key.toLowerCase();
    // One timer for the word: each key restarts it, so a word typed at a steady pace is kept whole.
    ctx.timers.cancel(typeAheadTimer);
    typeAheadTimer = ctx.timers.later(() => {
      typeAhead = '';
      typeAheadTimer = undefined;
    }, TYPE_AHEAD_MS);
    const items = tree.visibleItems();
    const start = items.indexOf(from.item);
    const repeated = typeAhead.length > 1 && [...typeAhead].every((c) => c === typeAhead[0]);
    const prefix = repeated ? (typeAhead[0] ?? '') : typeAhead;
    const offset = typeAhead.length === 1 || repeated ? 1 : 0;
    for (let step = 0; step < items.length; step++) {
      const node = tree.nodeOf(items[(start + offset + step) % items.length]);
      if (node?.data.label.toLowerCase().startsWith(prefix)) {
        tree.focusNode(node);
        return;
      }
    }
  }

  /** @param {MouseEvent} event */
  function onClick(event) {
    const target = /** @type {HTMLElement} */ (event.target);
    const node = tree.nodeOf(target.closest(`.${BLOCK}__row`)?.parentElement);
    if (!node) return;
    tree.focusNode(node, { scroll: false });
    if (node.data.kind === 'task') openActivity(node);
    else tree.toggle(node);
  }

  tree.list.addEventListener('keydown', onKey);
  tree.list.addEventListener('click', onClick);
}
