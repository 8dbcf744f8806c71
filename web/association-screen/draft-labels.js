// @ts-check
/**
 * The texts of the drafts (what was typed in the modal or the table and not sent, kept on this
 * device): part of `ScreenLabels` (labels-en.js and labels-pt-br.js spread them in), replaceable
 * the same way.
 */

/**
 * @typedef {object} DraftLabels
 * @property {string} draftChip short mark beside an activity in the tree: values typed, not saved
 * @property {string} draftRestored the modal shows a draft, `{at}` when it was last typed; says
 *   what Save and Cancel do with it
 * @property {string} draftCopied the same, for a draft holding values the table copied from sheet
 *   `{id}` (the fields say which)
 * @property {string} draftUnkept this device cannot keep what is typed (no storage, or full): said once
 * @property {string} tableDraftsRestored the table shows drafts again in `{count}` rows; says what
 *   Save and Escape do with them
 * @property {string} tableDraftsRestoredOne the same, in one row
 */

/** @type {DraftLabels} */
export const DRAFT_LABELS_EN = {
  draftChip: 'Draft, not saved',
  draftRestored: 'Not saved yet: typed on this device on {at}. Save stores it; Cancel discards it.',
  draftCopied:
    'Not saved yet: copied from sheet {id} on this device on {at}. Save stores it; Cancel discards it.',
  draftUnkept: 'This device cannot keep what you type here: save it before you leave the page.',
  tableDraftsRestored:
    'Values typed on this device and not saved yet are back in {count} rows. Save stores them; Escape takes a cell back.',
  tableDraftsRestoredOne:
    'Values typed on this device and not saved yet are back in 1 row. Save stores them; Escape takes a cell back.',
};

/** @type {DraftLabels} */
export const DRAFT_LABELS_PT_BR = {
  draftChip: 'Rascunho, não salvo',
  draftRestored: 'Ainda não salvo: digitado neste aparelho em {at}. Salvar grava; Cancelar descarta.',
  draftCopied:
    'Ainda não salvo: copiado da folha {id} neste aparelho em {at}. Salvar grava; Cancelar descarta.',
  draftUnkept: 'Este aparelho não consegue guardar o que você digita aqui: salve antes de sair da página.',
  tableDraftsRestored:
    'Os valores digitados neste aparelho e ainda não salvos voltaram em {count} linhas. Salvar alterações grava esses valores; Esc numa célula desfaz.',
  tableDraftsRestoredOne:
    'Os valores digitados neste aparelho e ainda não salvos voltaram em 1 linha. Salvar alterações grava esses valores; Esc numa célula desfaz.',
};
