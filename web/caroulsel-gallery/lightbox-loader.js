// @ts-check
/**
 * The lightbox, loaded when it is first needed: its adapter (`lightbox.js`, with `history.js`) is
 * the component's largest module and most pages never open it, so it stays off the first load,
 * where each module is a request a phone waits for. It is fetched with PhotoSwipe itself: when the
 * grid is first pointed at or focused, a card is opened, or the URL names an image.
 */

import { hashId } from './dom.js';

/** @typedef {import('./lightbox.js').Lightbox} Lightbox */

/**
 * Stands for {@link import('./lightbox.js').createLightbox}'s lightbox until it is loaded, then
 * hands everything to it. Back and Forward to a `#photo=` URL before then load it, as a link would.
 *
 * @param {Parameters<typeof import('./lightbox.js').createLightbox>[0]} gallery
 * @returns {Lightbox}
 */
export function lazyLightbox(gallery) {
  /** @type {Promise<Lightbox> | undefined} */
  let loading;
  /** @type {Lightbox | undefined} */
  let loaded;
  let destroyed = false;

  function load() {
    loading ??= import('./lightbox.js').then(({ createLightbox }) => {
      const lightbox = createLightbox(gallery);
      if (destroyed) lightbox.destroy();
      else {
        loaded = lightbox;
        window.removeEventListener('popstate', onPopState);
      }
      return lightbox;
    });
    // A failure is not remembered: the next opening tries again (a click then follows the link).
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  }

  /** Until the lightbox listens itself: a history step to an image's URL opens it. */
  function onPopState() {
    if (hashId() !== undefined && gallery.gridShown())
      void load().then((lightbox) => lightbox.openNamedInUrl());
  }
  window.addEventListener('popstate', onPopState);

  return {
    async open(index, cause) {
      let lightbox;
      try {
        lightbox = await load();
      } catch (error) {
        console.error('caroulsel-gallery: the lightbox did not load:', error);
        // The card is still a link: the visitor gets the full image the plain way.
        const card = gallery.cards()[index];
        if (cause === 'click' && card !== undefined) window.location.assign(card.item.fullUrl);
        return;
      }
      return lightbox.open(index, cause);
    },
    async openNamedInUrl() {
      if (loaded !== undefined) return loaded.openNamedInUrl();
      if (hashId() === undefined) return;
      return (await load()).openNamedInUrl();
    },
    warmOn(list) {
      const warm = () =>
        void load().then(
          (lightbox) => lightbox.warm(),
          () => {},
        );
      list.addEventListener('pointerover', warm, { once: true });
      list.addEventListener('focusin', warm, { once: true });
    },
    added(first) {
      loaded?.added(first);
    },
    moreFailed() {
      // Not loaded: not open either, and an opening reads the failure itself.
      loaded?.moreFailed();
    },
    warm() {
      void load().then(
        (lightbox) => lightbox.warm(),
        () => {},
      );
    },
    destroy() {
      destroyed = true;
      window.removeEventListener('popstate', onPopState);
      loaded?.destroy();
      loaded = undefined;
    },
  };
}
