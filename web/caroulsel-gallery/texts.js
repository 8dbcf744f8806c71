// @ts-check
/**
 * Every text the gallery shows, in English and Brazilian Portuguese, and the choice between them by
 * the page's language. A host replaces any of them with the `labels` option.
 */

/**
 * Every text the component shows, so a host page can translate them.
 * @typedef {object} GalleryLabels
 * @property {string} gallery accessible name of the card list
 * @property {string} loading the loader's text while the list is requested
 * @property {string} empty shown when the list has no items
 * @property {string} error shown when the list request fails
 * @property {string} moreError shown after the grid when a later page fails (with the retry button)
 * @property {string} retry the retry button's text
 * @property {string} thumbnailError shown in a card whose thumbnail fails to load
 * @property {string} found announced once the grid is drawn, and after each page: `{count}` is the
 *   number of images the list gave so far (found, not loaded: the thumbnails come later, or fail)
 * @property {string} foundOne the same for a list of one image
 * @property {string} lightbox accessible name of the lightbox dialog
 * @property {string} close the lightbox's close button
 * @property {string} previous the lightbox's previous-image button
 * @property {string} next the lightbox's next-image button
 * @property {string} zoom the lightbox's zoom button
 * @property {string} imageError shown in the lightbox when a full image fails to load
 * @property {string} carousel what the lightbox's strip of images is, said by a screen reader
 *   (`aria-roledescription`; PhotoSwipe's own is English)
 * @property {string} slide what each image of the lightbox is, said the same way
 */

/** @type {GalleryLabels} */
export const DEFAULT_LABELS = {
  gallery: 'Image gallery',
  loading: 'Searching for images…',
  empty: 'No images to show yet.',
  error: 'The images could not be loaded.',
  moreError: 'More images could not be loaded.',
  retry: 'Try again',
  thumbnailError: 'Image unavailable',
  found: '{count} images found',
  foundOne: '1 image found',
  lightbox: 'Image viewer',
  close: 'Close',
  previous: 'Previous image',
  next: 'Next image',
  zoom: 'Zoom',
  imageError: 'The image cannot be loaded',
  carousel: 'carousel',
  slide: 'slide',
};

/**
 * The built-in texts in Brazilian Portuguese, for a page (or an element) whose `lang` is Portuguese.
 * @type {GalleryLabels}
 */
export const PT_BR_LABELS = {
  gallery: 'Galeria de imagens',
  loading: 'Procurando imagens…',
  empty: 'Ainda não há imagens para mostrar.',
  error: 'Não foi possível carregar as imagens.',
  moreError: 'Não foi possível carregar mais imagens.',
  retry: 'Tentar de novo',
  thumbnailError: 'Imagem indisponível',
  found: '{count} imagens encontradas',
  foundOne: '1 imagem encontrada',
  lightbox: 'Visualizador de imagens',
  close: 'Fechar',
  previous: 'Imagem anterior',
  next: 'Próxima imagem',
  zoom: 'Ampliar',
  imageError: 'Não foi possível carregar a imagem',
  // "carrossel" is the word Brazilian interfaces use; "imagem" rather than the English loanword
  // "slide", as each is one image here and the rest of the lightbox says "imagem".
  carousel: 'carrossel',
  slide: 'imagem',
};

/**
 * The built-in texts for `element`: Brazilian Portuguese where its language (its own `lang` or an
 * ancestor's, as the page declares it) is any Portuguese, else English.
 * @param {HTMLElement} element
 */
export function builtInLabels(element) {
  const lang = element.closest('[lang]')?.getAttribute('lang') ?? '';
  return lang.toLowerCase().startsWith('pt') ? PT_BR_LABELS : DEFAULT_LABELS;
}
