// @ts-check
/**
 * The helpers every part of the gallery shares: the block's class name, building an element, moving
 * focus, telling a plain click from one with a modifier, where the dependencies' files are, and the
 * item a `#photo=` link names.
 */

/** The BEM block: every class the gallery sets starts with it (the CSS and host themes use them). */
export const BLOCK = 'caroulsel-gallery';

/**
 * The dependency files (PhotoSwipe, the ThumbHash decoder) are served next to the entry module,
 * `caroulsel-gallery.js`, wherever the host serves it from: one folder up from this one. Through a
 * variable: a host's bundler takes `new URL('…', import.meta.url)` written out for a file to bundle.
 */
const here = import.meta.url;
const entryFolder = new URL('../', here);

/** @param {string} name a dependency file's name, e.g. `thumbhash.js` */
export const assetUrl = (name) => new URL(name, entryFolder).href;

/** The URL fragment that names the image the lightbox shows, so a shared link opens it. */
export const HASH_PREFIX = '#photo=';

/**
 * The item id the URL's fragment names, if any. Here rather than with the rest of the history
 * (`history.js`): the gallery reads it at mount, before the lightbox's modules are loaded.
 */
export function hashId() {
  const { hash } = window.location;
  if (!hash.startsWith(HASH_PREFIX)) return undefined;
  try {
    return decodeURIComponent(hash.slice(HASH_PREFIX.length));
  } catch {
    return undefined;
  }
}

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {Document} doc
 * @param {K} tag
 * @param {string} className
 * @param {string} [text] set as text, never parsed as HTML: titles come from data
 * @returns {HTMLElementTagNameMap[K]}
 */
export function create(doc, tag, className, text) {
  const node = doc.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Moves focus to `target` inside `root`, unless focus is elsewhere on the page (the visitor moved
 * on): where focus goes when the element that had it is replaced, instead of falling back to the
 * page's start. A target that is not focusable becomes focusable by script only.
 *
 * @param {HTMLElement} root
 * @param {HTMLElement} target
 */
export function focusWithin(root, target) {
  const doc = root.ownerDocument;
  const active = doc.activeElement;
  if (active !== null && active !== doc.body && !root.contains(active)) return;
  if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.focus({ preventScroll: true });
}

/**
 * A plain click (or Enter) on a link: one with a modifier keeps the link's own meaning (new tab,
 * download), as people expect from a link.
 *
 * @param {MouseEvent} event
 */
export function isPlainClick(event) {
  if (event.defaultPrevented || event.button !== 0) return false;
  return !(event.metaKey || event.ctrlKey || event.shiftKey || event.altKey);
}
