// @ts-check
/**
 * Walks the activity tree beyond what is shown (see tree.js): to the next editable activity of the
 * whole sheet ("Save and next" opens closed branches on the way, each read once) and down to a search
 * match. Each renders the chunks of long branches it passes, so what it reaches has its element.
 */

/** @typedef {import('./tree.js').TreeNode} TreeNode */

/**
 * @param {{
 *   expand: (node: TreeNode) => Promise<void>,
 *   childrenOf: (owner: TreeNode | null) => TreeNode[],
 *   renderedOf: (owner: TreeNode | null) => number,
 *   renderMore: (owner: TreeNode | null) => boolean,
 *   focusNode: (node: TreeNode) => void,
 * }} tree
 */
export function createTreeWalk({ expand, childrenOf, renderedOf, renderMore, focusNode }) {
  /**
   * The next editable activity after `node` in the whole tree's order, whether shown or not: closed
   * branches on the way are opened (each read once), and the chunk of a long branch it sits in is
   * rendered. "Save and next" walks every activity of the sheet this way. Undefined at the end;
   * rejects when a branch on the way cannot be read (the branch shows it; the caller says it, since
   * the person is looking at the dialog, not at the branch).
   * @param {TreeNode} node
   */
  async function nextTaskInSheet(node) {
    for (let next = await stepAfter(node); next; next = await stepAfter(next)) {
      if (next.data.kind === 'task' && next.data.editable !== false) {
        reveal(next);
        return next;
      }
    }
    return undefined;
  }

  /** The node after `node` in the tree's order, a branch's children first (opened for it). @param {TreeNode} node */
  async function stepAfter(node) {
    if (node.data.kind === 'branch' && node.data.hasChildren) {
      await expand(node);
      const first = node.children?.[0];
      if (first) return first;
    }
    for (let current = /** @type {TreeNode | null} */ (node); current; current = current.parent) {
      const siblings = childrenOf(current.parent);
      const next = siblings[siblings.indexOf(current) + 1];
      if (next) return next;
    }
    return undefined;
  }

  /** Renders the chunks down to `node`, its branches being open. @param {TreeNode} node */
  function reveal(node) {
    const chain = [];
    for (let current = /** @type {TreeNode | null} */ (node); current; current = current.parent)
      chain.unshift(current);
    for (const child of chain) {
      const position = childrenOf(child.parent).indexOf(child);
      while (renderedOf(child.parent) <= position && renderMore(child.parent)) {}
    }
  }

  /**
   * Opens the tree down to a search match (each closed branch on the way loads once) and focuses it.
   * Resolves with the node at the path's end, or undefined when a step is no longer in the tree.
   * @param {readonly { level: number, id: number }[]} path
   * @returns {Promise<TreeNode | undefined>}
   */
  async function openPath(path) {
    /** @type {TreeNode | null} */
    let owner = null;
    /** @type {TreeNode | undefined} */
    let found;
    for (const [index, step] of path.entries()) {
      if (owner !== null) await expand(owner);
      const siblings = childrenOf(owner);
      const position = siblings.findIndex(
        (node) => node.data.level === step.level && node.data.id === step.id,
      );
      found = siblings[position];
      if (!found) return undefined;
      // A match deep in a long branch: render the chunks up to it.
      while (renderedOf(owner) <= position && renderMore(owner)) {}
      if (index < path.length - 1) owner = found;
    }
    if (found) focusNode(found);
    return found;
  }

  return { nextTaskInSheet, openPath };
}
