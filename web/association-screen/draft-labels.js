// @ts-check
/**
 * The texts of the modal's drafts (what was typed and not sent, kept on this device): part of
 * `ScreenLabels` (labels-en.js and labels-pt-br.js spread them in), replaceable the same way.
 */

/**
 * @typedef {object} DraftLabels
 * @property {string} draftChip short mark beside an activity in the tree: values typed, not saved
 * @property {string} draftRestored the modal shows a draft, `{at}` when it was last typed; says
 *   what Save and Cancel do with it
 * @property {string} draftUnkept this device cannot keep what is typed (no storage, or full): said once
 */

/** @type {DraftLabels} */
export const DRAFT_LABELS_EN = {
  draftChip: 'Draft, not saved',
  draftRestored: 'Not saved yet: typed on this device on {at}. Save stores it; Cancel discards it.',
  draftUnkept: 'This device cannot keep what you type here: save it before you leave the page.',
};

/** @type {DraftLabels} */
export const DRAFT_LABELS_PT_BR = {
  draftChip: 'Rascunho, não salvo',
  draftRestored: 'Ainda não salvo: digitado neste aparelho em {at}. Salvar grava; Cancelar descarta.',
  draftUnkept: 'Este aparelho não consegue guardar o que você digita aqui: salve antes de sair da página.',
};
