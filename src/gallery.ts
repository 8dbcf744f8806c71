// Public API of src/gallery: re-exports only.

export {
  createDiskCache,
  DEFAULT_CACHE_DIR,
  DiskCacheOptions,
  defaultCacheDir,
  openCacheDir,
} from './gallery/cache/disk-cache.js';
export type { CachedMedia, GenerationLock, HeldLock, MediaCache } from './gallery/cache/media-cache.js';
export { createMemoryCache, layeredCache, MemoryCacheOptions } from './gallery/cache/memory-cache.js';
export { createRedisCache, RedisCacheOptions } from './gallery/cache/redis-cache.js';
export { folderSource } from './gallery/folder-source.js';
export {
  createGallery,
  type Gallery,
  type GalleryItem,
  type GalleryListing,
  type GalleryOptions,
  type GalleryPage,
  type GalleryRendition,
} from './gallery/gallery.js';
export { GalleryConfigError, GalleryMediaError } from './gallery/gallery-errors.js';
export type { ImageInput } from './gallery/image-input.js';
export type { Variant } from './gallery/image-pipeline.js';
export { GalleryLimits, type GalleryLimitsInput } from './gallery/limits.js';
export type { GalleryLogger } from './gallery/logger.js';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './gallery/page-query.js';
export {
  type GalleryPageRequest,
  type GallerySource,
  type GallerySourcePage,
  normaliseRows,
  type PagedGallerySource,
  SourceColumns,
  type SourceItem,
  type WholeListSource,
} from './gallery/source.js';
export { type ContentHash, contentHash, createTokenSigner, type TokenSigner } from './gallery/token.js';
export {
  createGalleryHandler,
  type GalleryHandler,
  type GalleryHandlerOptions,
} from './http/gallery-handler.js';
export { GALLERY_ASSET_FILES, GALLERY_ROUTES, isGalleryPath } from './http/gallery-routes.js';
export { toNodeListener } from './http/node-adapter.js';
export {
  DEFAULT_CLOSE_GRACE_MS,
  DEFAULT_IMAGES_DIR,
  DEFAULT_WEB_ROOT,
  type GalleryServer,
  type GalleryServerOptions,
  startGalleryServer,
} from './http/server.js';
export { createWebRootHandler } from './http/web-root.js';
