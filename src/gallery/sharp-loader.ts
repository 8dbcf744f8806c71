import type sharp from 'sharp';

export type Sharp = typeof sharp;

let loading: Promise<Sharp> | undefined;

/**
 * sharp, loaded on first use: its native library takes a few hundred milliseconds to load, which a
 * server that starts would otherwise pay before it listens, though no request has needed an image
 * yet (`startGalleryServer` loads it right after listening, so the first image request seldom waits).
 */
export function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then((module) => module.default);
  // A failure is not remembered: the next use tries again.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
