import { GALLERY_DEPENDENCY_FILES } from './package-files.js';

/**
 * The component's modules, in `web/caroulsel-gallery/`: the entry imports them by relative URLs, so
 * they are served under `/assets/caroulsel-gallery/`. Written out, not read from the folder: no
 * request path reaches the file system (a test checks the list against the folder).
 */
const COMPONENT_MODULES: readonly string[] = [
  'cards.js',
  'dom.js',
  'grid.js',
  'history.js',
  'lightbox-loader.js',
  'lightbox.js',
  'list.js',
  'mount.js',
  'paging.js',
  'placeholders.js',
  'retry.js',
  'sources.js',
  'texts.js',
].map((name) => `caroulsel-gallery/${name}`);

/** The browser component's own files, in the package's `web/` folder: the entry, its styles, its modules. */
export const COMPONENT_OWN_FILES: readonly string[] = [
  'caroulsel-gallery.js',
  'caroulsel-gallery.css',
  ...COMPONENT_MODULES,
];

/**
 * The files the gallery handler serves under `/assets/`: the browser component's own (its entry,
 * styles and modules), and those it loads from next to its entry (the lightbox, the placeholder
 * decoder). A page with the component needs all of them: without the last three it has no lightbox
 * and no placeholders.
 */
export const GALLERY_ASSET_FILES: readonly string[] = [
  ...COMPONENT_OWN_FILES,
  ...GALLERY_DEPENDENCY_FILES.map((file) => file.name),
];

/**
 * Every path a host routes to the gallery handler, as route patterns most frameworks take
 * (`/caroulsel/*`, then each component file): one list, so a host's routing cannot leave one out.
 *
 * @example GALLERY_ROUTES.includes('/assets/thumbhash.js') // true
 */
export const GALLERY_ROUTES: readonly string[] = [
  '/caroulsel/*',
  ...GALLERY_ASSET_FILES.map((name) => `/assets/${name}`),
];

/**
 * Whether the gallery handler answers `pathname` (its data, its media, its component's files), for
 * a host that routes with a function.
 *
 * @example isGalleryPath('/assets/photoswipe.css') // true; isGalleryPath('/assets/app.js') is false
 */
export function isGalleryPath(pathname: string): boolean {
  if (pathname.startsWith('/caroulsel/')) return true;
  return pathname.startsWith('/assets/') && GALLERY_ASSET_FILES.includes(pathname.slice('/assets/'.length));
}
