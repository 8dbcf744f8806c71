// Public API of src/gallery: re-exports only.

export {
  createDiskCache,
  DEFAULT_CACHE_DIR,
  DiskCacheOptions,
  defaultCacheDir,
  openCacheDir,
} from './cache/disk-cache.js';
export type { CachedMedia, MediaCache } from './cache/media-cache.js';
export { createMemoryCache, layeredCache, MemoryCacheOptions } from './cache/memory-cache.js';
export { createRedisCache, RedisCacheOptions } from './cache/redis-cache.js';
export { GalleryConfigError, GalleryMediaError } from './errors.js';
export { folderSource } from './folder-source.js';
export {
  createGalleryHandler,
  type GalleryHandler,
  type GalleryHandlerOptions,
  type GalleryItem,
  type GalleryPage,
} from './handler.js';
export type { ImageInput } from './image-input.js';
export type { Variant } from './image-pipeline.js';
export { GalleryLimits, type GalleryLimitsInput } from './limits.js';
export type { GalleryLogger } from './logger.js';
export { toNodeListener } from './node-adapter.js';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './page-query.js';
export { GALLERY_ASSET_FILES, GALLERY_ROUTES, isGalleryPath } from './routes.js';
export {
  DEFAULT_IMAGES_DIR,
  DEFAULT_WEB_ROOT,
  type GalleryServer,
  type GalleryServerOptions,
  startGalleryServer,
} from './server.js';
export {
  type GalleryPageRequest,
  type GallerySource,
  type GallerySourcePage,
  normaliseRows,
  type PagedGallerySource,
  SourceColumns,
  type SourceItem,
  type WholeListSource,
} from './source.js';
export { type ContentHash, contentHash, createTokenSigner, type TokenSigner } from './token.js';
export { createWebRootHandler } from './web-root.js';
