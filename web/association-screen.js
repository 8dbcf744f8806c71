// @ts-check
/**
 * The association screen: a task sheet's activity tree and the metric-entry modal, as a
 * framework-free browser module that ships as-is (no build step).
 *
 * It talks to the association handler only: `?part=start` once (header, metric columns, first
 * level), `?part=children` once per branch opened, `?part=search` while searching, `?part=history`
 * when a person asks for an activity's changes, and a `PUT` per saved or removed activity (only the
 * fields the person changed, each with the value it was changed from: a save that would overwrite
 * someone else's change meanwhile is refused, and the modal shows that conflict at its field). The tree follows the WAI-ARIA tree pattern (roving focus, arrows, Home/End,
 * type-ahead), renders a long branch in chunks as it is scrolled or walked, and the modal is the
 * native `<dialog>` opened with `showModal()` (focus trap, Esc, backdrop).
 *
 * @example
 *   import { mountAssociationScreen } from '/associationtask?asset=association-screen.js';
 *   const screen = mountAssociationScreen(document.querySelector('#screen'), {
 *     endpoint: '/associationtask',
 *     taskSheet: 42,
 *   });
 *   // later: screen.destroy();
 */

/**
 * What the handler says about one node (`ScreenNode` on the server).
 * @typedef {object} ScreenNode
 * @property {number} id
 * @property {number} level
 * @property {string} label
 * @property {boolean} hasChildren
 * @property {'branch' | 'task'} kind
 * @property {number | null} [group]
 * @property {Record<string, { value: string | number | null, source: string }>} [metrics] source
 *   `saved` for every field of a key with a live row (value null: saved empty), else the default's kind
 * @property {boolean} [editable]
 * @property {LastChange | null} [lastChange] who last wrote the activity's metric row, and when; null
 *   when it has no live row
 */

/**
 * @typedef {object} LastChange
 * @property {number} user the user's SEQ_DB
 * @property {string} at ISO 8601
 */

/**
 * One field a save or a remove was refused at (409 `METRIC_CONFLICT`): someone changed it since the
 * screen read it. `theirs` is what is stored now (null: cleared, or the entry removed), `yours` what
 * this save asked for (null for a remove).
 * @typedef {object} MetricConflict
 * @property {number} entry
 * @property {number} activity
 * @property {number | null} group
 * @property {string} field
 * @property {string | number | null} base
 * @property {string | number | null} theirs
 * @property {string | number | null} yours
 * @property {number | null} [changedBy]
 * @property {string | null} [changedAt]
 */

/**
 * One change of the history (`part=history`), newest first.
 * @typedef {object} MetricChange
 * @property {number} id
 * @property {string} field
 * @property {'insert' | 'update' | 'clear' | 'remove'} action
 * @property {string | null} oldValue
 * @property {string | null} newValue
 * @property {number} user
 * @property {string} at
 * @property {string} source
 * @property {string | null} requestId
 */

/**
 * What a save answers for one entry: the row as stored (every metric), or null when it has none
 * (after a remove: the defaults apply again).
 * @typedef {object} SavedEntry
 * @property {number} activity
 * @property {number | null} group
 * @property {Record<string, string | number | null> | null} stored
 * @property {LastChange | null} lastChange
 */

/**
 * A metric column as the handler types it from the database.
 * @typedef {object} MetricColumn
 * @property {string} field
 * @property {string} label
 * @property {string | null} dataType
 * @property {boolean} unsigned
 * @property {boolean} nullable
 * @property {number | null} precision
 * @property {number | null} scale
 * @property {number | null} maxLength
 */

/**
 * @typedef {object} ScreenStart
 * @property {{ id: number, columns: { name: string, label?: string, value: string | null, dataType?: string | null }[] }} taskSheet
 * @property {MetricColumn[]} metrics
 * @property {number} levels
 * @property {ScreenNode[]} nodes
 */

/**
 * Every text the screen shows. `{name}` parts are filled in; everything else is shown as written.
 * @typedef {object} ScreenLabels
 * @property {string} title the header's title, `{id}` the task sheet's SEQ_DB
 * @property {string} eyebrow small text above the title
 * @property {string} tree accessible name of the tree
 * @property {string} loading while the task sheet loads
 * @property {string} empty a task sheet whose tree has no node
 * @property {string} notFound the task sheet does not exist (or is not the user's), `{id}`
 * @property {string} error the screen could not be loaded
 * @property {string} retry retry button
 * @property {string} branchLoading while a branch loads
 * @property {string} branchError a branch could not be loaded
 * @property {string} search search field's label
 * @property {string} searchPlaceholder search field's placeholder
 * @property {string} searchResults accessible name of the result list
 * @property {string} searchNone no match, `{q}` the text
 * @property {string} searchMore more matched than shown
 * @property {string} searchCount announced result count, `{count}` (two or more)
 * @property {string} searchCountOne announced when there is one result
 * @property {string} searchError the search failed
 * @property {string} readOnly a read-only activity, in the tree and in the modal
 * @property {string} readOnlyNotice the modal's explanation of a read-only row
 * @property {string} save
 * @property {string} saveNext "Save and next"
 * @property {string} cancel
 * @property {string} close the read-only modal's close button
 * @property {string} saving while a save is under way
 * @property {string} saved announced after a save, `{label}`
 * @property {string} saveError a save failed; the typed values are kept, `{message}`
 * @property {string} networkError a request never got an answer
 * @property {string} checkField a typed value the browser refused, said aloud: `{field}` `{problem}`
 * @property {string} savedNext "Save and next" saved `{label}` and now shows `{next}`
 * @property {string} refusedValue the server refused a value the browser let through (the column
 *   changed meanwhile, say); `{detail}` is the server's own sentence, in English
 * @property {string} busy another save of this task sheet's scope held the server too long (METRICS_BUSY)
 * @property {string} slowServer the database did not answer in time (DATABASE_TIMEOUT)
 * @property {string} serverFailed the server failed (a 500): its operators were told
 * @property {string} readOnlyRow the saved row became read-only (READ_ONLY_ROW)
 * @property {string} inactiveRow the saved row was made inactive (INACTIVE_ROW)
 * @property {string} notInTree the activity or node left the tree since the page read it
 * @property {string} sourceSaved where a preset came from: a saved value
 * @property {string} sourceValue a fixed default
 * @property {string} sourceField a default from the activity's column
 * @property {string} sourceTaskSheet a default from the task sheet's column
 * @property {string} sourceNone no preset
 * @property {string} chipSaved short source in the tree: saved
 * @property {string} chipDefault short source in the tree: default
 * @property {string} notNumber value is no number
 * @property {string} notWhole value is no whole number
 * @property {string} ambiguousPoint pt-BR: a point without a decimal comma ("1.5", "1.500"), read two ways
 * @property {string} ambiguousComma English: a comma without a decimal point ("1,5", "1,500"), read two ways
 * @property {string} notNegative a negative number in a column that keeps none (unsigned floating point)
 * @property {string} tooManyDecimals more decimals than the column keeps, `{scale}`
 * @property {string} tooManyDecimalsOne more decimals than a column of one decimal place keeps
 * @property {string} tooManyDigits more digits before the point than the column keeps, `{digits}`
 * @property {string} outOfRange outside the column's range, `{min}` `{max}`
 * @property {string} required the column is NOT NULL
 * @property {string} tooLong longer than the column, `{max}`
 * @property {string} empty_value what the tree shows for a metric without value
 * @property {string} sourceSavedEmpty where a preset came from: a value saved empty (cleared)
 * @property {string} nothingChanged Save pressed with nothing changed: nothing is sent, `{label}`
 * @property {string} nothingChangedNext the same from "Save and next", `{label}` `{next}`
 * @property {string} lastChange who last changed the activity's metrics, `{user}` `{at}`
 * @property {string} neverSaved the activity has no saved entry (what the form shows are defaults)
 * @property {string} user a user, `{id}` the user's SEQ_DB
 * @property {string} conflictSummary a save refused because others changed fields meanwhile, `{fields}`
 * @property {string} conflictTitle at a field: who changed it meanwhile and when, `{user}` `{at}`
 * @property {string} conflictTitleUnknown at a field: changed meanwhile, by someone the server did not say
 * @property {string} conflictTheirs the value stored now
 * @property {string} conflictYours the value this save asked for
 * @property {string} conflictEmpty a value that is empty (cleared, or the entry removed)
 * @property {string} conflictYoursRemove what a refused remove asked for
 * @property {string} keepMine button: keep the typed value over the stored one
 * @property {string} keepMineFor its accessible name, `{field}`
 * @property {string} useTheirs button: take the stored value
 * @property {string} useTheirsFor its accessible name, `{field}`
 * @property {string} keptMine at a field after "Keep mine", `{theirs}` the value it will replace
 * @property {string} conflictsResolved every conflict has its choice: save again
 * @property {string} chooseFirst Save pressed while conflicts wait for a choice, `{fields}`
 * @property {string} removeConflict a remove refused because others changed fields meanwhile, `{fields}`
 * @property {string} conflictAway a save refused for a conflict after its dialog moved on, `{label}`
 * @property {string} remove the button that removes the activity's saved entry
 * @property {string} removeTitle the confirmation's title
 * @property {string} removeText the confirmation's text, `{label}`
 * @property {string} removeConfirm the confirmation's button that removes
 * @property {string} removeCancel the confirmation's button that keeps the entry
 * @property {string} removing while a remove is under way
 * @property {string} removed announced after a remove, `{label}`
 * @property {string} removeError a remove failed, `{message}`
 * @property {string} entryGone the entry was removed meanwhile (ENTRY_NOT_FOUND)
 * @property {string} history the button that shows the activity's changes
 * @property {string} historyTitle the changes' heading
 * @property {string} historyLoading while the changes load
 * @property {string} historyEmpty no change recorded
 * @property {string} historyError the changes could not be loaded
 * @property {string} historyMore only the latest changes are shown, `{count}`
 * @property {string} actionInsert a history line: the value was set on a new entry
 * @property {string} actionUpdate a history line: the value was changed
 * @property {string} actionClear a history line: the value was cleared
 * @property {string} actionRemove a history line: the entry was removed
 * @property {string} viaScreen a history line's source: this screen
 * @property {string} viaOther a history line's source, `{source}` as the server names it
 */

/**
 * @typedef {object} ScreenOptions
 * @property {string} endpoint the association handler's URL (where the host mounted it)
 * @property {number} taskSheet the task sheet's SEQ_DB
 * @property {Partial<ScreenLabels>} [labels] texts to replace (over the language's built-in ones)
 * @property {string} [lang] `en` or `pt-BR`; default the element's nearest `lang`, else the page's
 * @property {number} [chunkSize] children rendered at a time in a long branch; default 200
 * @property {number} [timeoutMs] longest wait for one request; default 20000
 */

/** @typedef {'loading' | 'ready' | 'empty' | 'not-found' | 'error'} ScreenState */

/**
 * @typedef {object} ScreenController
 * @property {() => ScreenState} state the current state
 * @property {() => void} destroy aborts requests, closes the modal, stops observers and timers,
 *   and empties the element
 */

/** @type {ScreenLabels} */
export const LABELS_EN = {
  title: 'Task sheet {id}',
  eyebrow: 'Activities and metrics',
  tree: 'Activities',
  loading: 'Loading the task sheet…',
  empty: 'This task sheet has no activities yet.',
  notFound: 'Task sheet {id} was not found. It may have been deleted, or belong to another company or site.',
  error: 'The task sheet could not be loaded.',
  retry: 'Try again',
  branchLoading: 'Loading…',
  branchError: 'Could not load this branch: open it again to retry.',
  search: 'Search activities',
  searchPlaceholder: 'Code or description',
  searchResults: 'Search results',
  searchNone: 'Nothing matches “{q}”.',
  searchMore: 'More matches exist: type more to narrow them down.',
  searchCount: '{count} matches',
  searchCountOne: '1 match',
  searchError: 'The search failed. Try again.',
  readOnly: 'Read-only',
  readOnlyNotice: 'These metrics are locked (read-only or inactive) and cannot be changed here.',
  save: 'Save',
  saveNext: 'Save and next',
  cancel: 'Cancel',
  close: 'Close',
  saving: 'Saving…',
  saved: 'Saved {label}.',
  saveError: 'Not saved: {message} Your values are kept.',
  networkError: 'The server could not be reached.',
  checkField: 'Check {field}: {problem}',
  savedNext: 'Saved {label}. Now: {next}.',
  refusedValue: '{detail}',
  busy: 'Someone else is saving metrics here right now. Try again in a moment.',
  slowServer: 'The server took too long to answer. Try again in a moment.',
  serverFailed: 'Something failed on the server; it has been reported. Try again in a moment.',
  readOnlyRow: 'These metrics have become read-only.',
  inactiveRow: 'These metrics have been made inactive; they can be changed once reactivated.',
  notInTree: 'This is no longer in the tree. Reload the page.',
  sourceSaved: 'Saved value',
  sourceValue: 'Default: fixed value',
  sourceField: 'Default: from the activity',
  sourceTaskSheet: 'Default: from the task sheet',
  sourceNone: 'No saved value and no default',
  chipSaved: 'saved',
  chipDefault: 'default',
  notNumber: 'Enter a number, such as 12.50.',
  notWhole: 'Enter a whole number.',
  ambiguousPoint:
    'Use a comma for decimals (1,5); write thousands without a point (1500) or with a comma after them (1.500,00).',
  ambiguousComma:
    'Use a point for decimals (1.5); write thousands without a comma (1500) or with a point after them (1,500.00).',
  notNegative: 'Enter zero or more.',
  tooManyDecimals: 'Use at most {scale} decimal places.',
  tooManyDecimalsOne: 'Use at most 1 decimal place.',
  tooManyDigits: 'Use at most {digits} digits before the decimal point.',
  outOfRange: 'Enter a number from {min} to {max}.',
  required: 'A value is required.',
  tooLong: 'Use at most {max} characters.',
  empty_value: '—',
  sourceSavedEmpty: 'Saved empty',
  nothingChanged: 'Nothing changed in {label}: nothing to save.',
  nothingChangedNext: 'Nothing changed in {label}. Now: {next}.',
  lastChange: 'Last changed by {user}, {at}.',
  neverSaved: 'Nothing saved yet.',
  user: 'user {id}',
  conflictSummary:
    'Not saved: someone else changed {fields} meanwhile. At each, keep yours or use theirs, then save again.',
  conflictTitle: 'Changed meanwhile by {user}, {at}',
  conflictTitleUnknown: 'Changed meanwhile by someone else',
  conflictTheirs: 'Stored now',
  conflictYours: 'Yours',
  conflictEmpty: 'empty',
  conflictYoursRemove: 'remove the entry',
  keepMine: 'Keep mine',
  keepMineFor: 'Keep mine for {field}',
  useTheirs: 'Use theirs',
  useTheirsFor: 'Use theirs for {field}',
  keptMine: 'Yours will replace {theirs} when you save.',
  conflictsResolved: 'Press Save to store your choices.',
  chooseFirst: 'Choose first at {fields}: keep yours or use theirs.',
  removeConflict:
    'Not removed: someone else changed {fields} meanwhile. The form shows what is stored now; remove again if you still mean to.',
  conflictAway: '{label} was not saved: someone else changed it meanwhile. Open it again to see.',
  remove: 'Remove entry',
  removeTitle: 'Remove the entry?',
  removeText: 'The saved values of {label} are removed; the defaults apply again.',
  removeConfirm: 'Remove',
  removeCancel: 'Keep it',
  removing: 'Removing…',
  removed: 'Removed the entry of {label}: the defaults apply again.',
  removeError: 'Not removed: {message}',
  entryGone: 'This entry had already been removed; the defaults apply.',
  history: 'History',
  historyTitle: 'Changes',
  historyLoading: 'Loading the changes…',
  historyEmpty: 'No change recorded yet.',
  historyError: 'The changes could not be loaded. Press History to try again.',
  historyMore: 'The latest {count} changes are shown.',
  actionInsert: 'set',
  actionUpdate: 'changed',
  actionClear: 'cleared',
  actionRemove: 'entry removed',
  viaScreen: 'on this screen',
  viaOther: 'via {source}',
};

/** @type {ScreenLabels} */
export const LABELS_PT_BR = {
  title: 'Folha de tarefa {id}',
  eyebrow: 'Atividades e métricas',
  tree: 'Atividades',
  loading: 'Carregando a folha de tarefa…',
  empty: 'Esta folha de tarefa ainda não tem atividades.',
  notFound:
    'A folha de tarefa {id} não foi encontrada. Ela pode ter sido excluída ou pertencer a outra empresa ou filial.',
  error: 'Não foi possível carregar a folha de tarefa.',
  retry: 'Tentar novamente',
  branchLoading: 'Carregando…',
  branchError: 'Não foi possível carregar este ramo: abra-o de novo para tentar outra vez.',
  search: 'Buscar atividades',
  searchPlaceholder: 'Código ou descrição',
  searchResults: 'Resultados da busca',
  searchNone: 'Nada corresponde a “{q}”.',
  searchMore: 'Há mais resultados: digite mais para refinar.',
  searchCount: '{count} resultados',
  searchCountOne: '1 resultado',
  searchError: 'A busca falhou. Tente novamente.',
  readOnly: 'Somente leitura',
  readOnlyNotice:
    'Estas métricas estão bloqueadas (somente leitura ou inativas) e não podem ser alteradas aqui.',
  save: 'Salvar',
  saveNext: 'Salvar e próxima',
  cancel: 'Cancelar',
  close: 'Fechar',
  saving: 'Salvando…',
  saved: '{label} salva.',
  saveError: 'Não salvo: {message} Seus valores foram mantidos.',
  networkError: 'Não foi possível falar com o servidor.',
  checkField: 'Confira {field}: {problem}',
  savedNext: '{label} salva. Agora: {next}.',
  refusedValue: 'O servidor recusou este valor (a coluna pode ter mudado). Confira e tente de novo.',
  busy: 'Outra pessoa está salvando métricas aqui agora. Tente de novo em instantes.',
  slowServer: 'O servidor demorou demais para responder. Tente de novo em instantes.',
  serverFailed: 'Algo falhou no servidor; a falha foi registrada. Tente de novo em instantes.',
  readOnlyRow: 'Estas métricas passaram a ser somente leitura.',
  inactiveRow: 'Estas métricas foram inativadas; só podem ser alteradas depois de reativadas.',
  notInTree: 'Isto não está mais na árvore. Recarregue a página.',
  sourceSaved: 'Valor salvo',
  sourceValue: 'Padrão: valor fixo',
  sourceField: 'Padrão: da atividade',
  sourceTaskSheet: 'Padrão: da folha de tarefa',
  sourceNone: 'Sem valor salvo e sem padrão',
  chipSaved: 'salvo',
  chipDefault: 'padrão',
  notNumber: 'Digite um número, como 12,50.',
  notWhole: 'Digite um número inteiro.',
  ambiguousPoint:
    'Use vírgula nos decimais (1,5); escreva milhares sem ponto (1500) ou com a vírgula depois (1.500,00).',
  ambiguousComma:
    'Use ponto nos decimais (1.5); escreva milhares sem vírgula (1500) ou com o ponto depois (1,500.00).',
  notNegative: 'Digite zero ou mais.',
  tooManyDecimals: 'Use no máximo {scale} casas decimais.',
  tooManyDecimalsOne: 'Use no máximo 1 casa decimal.',
  tooManyDigits: 'Use no máximo {digits} dígitos antes da vírgula.',
  outOfRange: 'Digite um número de {min} a {max}.',
  required: 'Informe um valor.',
  tooLong: 'Use no máximo {max} caracteres.',
  empty_value: '—',
  sourceSavedEmpty: 'Salvo vazio',
  nothingChanged: 'Nada mudou em {label}: nada a salvar.',
  nothingChangedNext: 'Nada mudou em {label}. Agora: {next}.',
  lastChange: 'Última alteração: {user}, {at}.',
  neverSaved: 'Nada salvo ainda.',
  user: 'usuário {id}',
  conflictSummary:
    'Não salvo: outra pessoa alterou {fields} enquanto isso. Em cada campo, mantenha o seu valor ou use o salvo, e salve de novo.',
  conflictTitle: 'Alterado enquanto isso por {user}, {at}',
  conflictTitleUnknown: 'Alterado enquanto isso por outra pessoa',
  conflictTheirs: 'Salvo agora',
  conflictYours: 'O seu',
  conflictEmpty: 'vazio',
  conflictYoursRemove: 'remover o registro',
  keepMine: 'Manter o meu',
  keepMineFor: 'Manter o meu em {field}',
  useTheirs: 'Usar o salvo',
  useTheirsFor: 'Usar o salvo em {field}',
  keptMine: 'O seu substituirá {theirs} ao salvar.',
  conflictsResolved: 'Pressione Salvar para gravar suas escolhas.',
  chooseFirst: 'Escolha antes em {fields}: manter o seu ou usar o salvo.',
  removeConflict:
    'Não removido: outra pessoa alterou {fields} enquanto isso. O formulário mostra o que está salvo agora; remova de novo se ainda quiser.',
  conflictAway: '{label} não foi salva: outra pessoa a alterou enquanto isso. Abra de novo para ver.',
  remove: 'Remover registro',
  removeTitle: 'Remover o registro?',
  removeText: 'Os valores salvos de {label} serão removidos; os padrões voltam a valer.',
  removeConfirm: 'Remover',
  removeCancel: 'Manter',
  removing: 'Removendo…',
  removed: 'Registro de {label} removido: os padrões voltam a valer.',
  removeError: 'Não removido: {message}',
  entryGone: 'Este registro já tinha sido removido; valem os padrões.',
  history: 'Histórico',
  historyTitle: 'Alterações',
  historyLoading: 'Carregando as alterações…',
  historyEmpty: 'Nenhuma alteração registrada ainda.',
  historyError: 'Não foi possível carregar as alterações. Pressione Histórico para tentar de novo.',
  historyMore: 'Mostrando as {count} alterações mais recentes.',
  actionInsert: 'definido',
  actionUpdate: 'alterado',
  actionClear: 'apagado',
  actionRemove: 'registro removido',
  viaScreen: 'nesta tela',
  viaOther: 'via {source}',
};

export const DEFAULT_CHUNK_SIZE = 200;
export const DEFAULT_TIMEOUT_MS = 20_000;
const TYPE_AHEAD_MS = 600;
const SEARCH_DELAY_MS = 250;
const BLOCK = 'ta-screen';
const INTEGER_BITS = /** @type {Record<string, number>} */ ({
  tinyint: 8,
  smallint: 16,
  mediumint: 24,
  int: 32,
  bigint: 64,
});

let instances = 0;

/**
 * The built-in texts for a language: Brazilian Portuguese for any `pt`, English otherwise.
 * @param {string | null | undefined} lang
 * @returns {ScreenLabels}
 */
export function labelsFor(lang) {
  return (lang ?? '').toLowerCase().startsWith('pt') ? LABELS_PT_BR : LABELS_EN;
}

/**
 * Checks what a person typed against the metric column's database type, as the server does.
 * Returns the value to send (decimals as exact text, integers as numbers, empty as null) or the
 * label key and parameters of the problem.
 *
 * @param {MetricColumn} column
 * @param {string} typed
 * @param {string} lang decides the decimal separator accepted besides "."
 * @returns {{ ok: true, value: string | number | null } | { ok: false, problem: keyof ScreenLabels, params?: Record<string, string | number> }}
 */
export function checkTyped(column, typed, lang) {
  const text = typed.trim();
  if (text === '') return column.nullable ? { ok: true, value: null } : { ok: false, problem: 'required' };
  const bits = column.dataType === null ? undefined : INTEGER_BITS[column.dataType];
  const pt = lang.toLowerCase().startsWith('pt');
  // Thousands may be grouped as the language writes them ("1.500" in pt-BR, "1,500" in English) in
  // a column of whole numbers, a decimal of scale 0 included: it cannot mean 1.5, so the grouping is
  // unambiguous there. A first group of 0 ("0.750") is no grouping at all.
  const grouping = pt ? /^-?[1-9]\d{0,2}(\.\d{3})+$/ : /^-?[1-9]\d{0,2}(,\d{3})+$/;
  const ungrouped = grouping.test(text) ? text.replace(/[.,]/g, '') : text;
  if (bits !== undefined) {
    const whole = ungrouped;
    if (!/^-?\d+$/.test(whole)) return { ok: false, problem: 'notWhole' };
    const number = BigInt(whole);
    const min = column.unsigned ? 0n : -(2n ** BigInt(bits - 1));
    const max = column.unsigned ? 2n ** BigInt(bits) - 1n : 2n ** BigInt(bits - 1) - 1n;
    if (number < min || number > max) {
      return { ok: false, problem: 'outOfRange', params: { min: String(min), max: String(max) } };
    }
    return { ok: true, value: Number.isSafeInteger(Number(number)) ? Number(number) : whole };
  }
  if (column.dataType === 'decimal' || column.dataType === 'float' || column.dataType === 'double') {
    const precision = column.precision ?? 10;
    const scale = column.scale ?? 0;
    const wholeDecimal = column.dataType === 'decimal' && scale === 0 && ungrouped !== text;
    const read = wholeDecimal ? ungrouped : pt ? brazilianNumber(text) : englishNumber(text);
    if (typeof read !== 'string') return { ok: false, problem: read.problem };
    const normal = read;
    if (column.unsigned && normal.startsWith('-') && /[1-9]/.test(normal)) {
      if (column.dataType !== 'decimal') return { ok: false, problem: 'notNegative' };
      const largest = `${'9'.repeat(precision - scale)}${scale > 0 ? `.${'9'.repeat(scale)}` : ''}`;
      return {
        ok: false,
        problem: 'outOfRange',
        params: { min: 0, max: pt ? largest.replace('.', ',') : largest },
      };
    }
    if (column.dataType !== 'decimal') return { ok: true, value: Number(normal) };
    const [whole = '', fraction = ''] = normal.replace(/^-/, '').split('.');
    if (fraction.replace(/0+$/, '').length > scale) {
      return {
        ok: false,
        problem: scale === 0 ? 'notWhole' : scale === 1 ? 'tooManyDecimalsOne' : 'tooManyDecimals',
        params: { scale },
      };
    }
    if (whole.replace(/^0+/, '').length > precision - scale) {
      return { ok: false, problem: 'tooManyDigits', params: { digits: precision - scale } };
    }
    return { ok: true, value: normal };
  }
  if (column.maxLength !== null && [...text].length > column.maxLength) {
    return { ok: false, problem: 'tooLong', params: { max: column.maxLength } };
  }
  return { ok: true, value: text };
}

/**
 * A saved value as the page's language writes it, for the tree and the modal's preset: decimals get
 * pt-BR's comma (12.5 → "12,5"); text is shown as it is saved, since a point in "v1.2" is no decimal
 * point. What it returns, saved again unchanged, is the same value ({@link checkTyped} reads it back).
 *
 * @param {string | number} value
 * @param {MetricColumn} column
 * @param {string} lang
 */
export function formatValue(value, column, lang) {
  let text = String(value);
  // A default copied from a column of another type ("6.00" from a decimal into a whole-number
  // metric, "1.2500" into two decimals) is written as the metric's own column keeps it, where that
  // changes no digit: preset as it came, it could not be saved unchanged.
  if (column.dataType !== null && column.dataType in INTEGER_BITS) text = text.replace(/^(-?\d+)\.0+$/, '$1');
  if (column.dataType === 'decimal' && column.scale !== null) {
    const scale = column.scale;
    text = text.replace(/^(-?\d+)\.(\d+)$/, (whole, integer, fraction) => {
      const kept = fraction.replace(/0+$/, '');
      if (kept.length > scale || fraction.length <= scale) return whole;
      return scale === 0 ? integer : `${integer}.${kept.padEnd(scale, '0')}`;
    });
  }
  const decimal =
    column.dataType === 'decimal' || column.dataType === 'float' || column.dataType === 'double';
  return decimal && lang.toLowerCase().startsWith('pt') ? text.replace('.', ',') : text;
}

/**
 * A header value as the page's language writes it: in pt-BR a decimal with its comma ("12,50") and a
 * date day first ("20/11/2026"); English keeps the point and the ISO date. Text is shown as it is.
 *
 * @param {string} value
 * @param {string | null | undefined} dataType
 * @param {string} lang
 */
export function headerText(value, dataType, lang) {
  if (!lang.toLowerCase().startsWith('pt')) return value;
  if (dataType === 'decimal' || dataType === 'float' || dataType === 'double') return value.replace('.', ',');
  const day = dataType === 'date' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  return day === null ? value : `${day[3]}/${day[2]}/${day[1]}`;
}

/**
 * A value just saved as the database keeps it, so the tree shows what a reload would: a decimal
 * with its column's places ("12.5" in decimal(10,2) is "12.50"); anything else as it is.
 *
 * @param {string | number} value
 * @param {MetricColumn} column
 */
export function asStored(value, column) {
  if (typeof value !== 'string' || column.dataType !== 'decimal' || !column.scale) return value;
  const [whole = '', fraction = ''] = value.split('.');
  return `${whole}.${fraction.padEnd(column.scale, '0')}`;
}

/**
 * Whether two values of a metric column are the same value: what {@link checkTyped} read from the
 * input against what the form was preset with (as the server sent it). Numbers by value ("20",
 * "20.00" and 20 are one value in a decimal column; "6.00" and 6 in a whole-number one), text as
 * typed, trimmed; empty only equals empty.
 *
 * @param {MetricColumn} column
 * @param {string | number | null | undefined} a
 * @param {string | number | null | undefined} b
 */
export function sameValue(column, a, b) {
  if (a === null || a === undefined || b === null || b === undefined) {
    return (a ?? null) === (b ?? null);
  }
  const numeric =
    (column.dataType !== null && column.dataType in INTEGER_BITS) ||
    column.dataType === 'decimal' ||
    column.dataType === 'float' ||
    column.dataType === 'double';
  if (!numeric) return String(a).trim() === String(b).trim();
  const x = plainNumber(String(a));
  const y = plainNumber(String(b));
  return x !== undefined && y !== undefined ? x === y : String(a) === String(b);
}

/**
 * A number's digits in one spelling ("-012.500" → "-12.5", "-0.0" → "0"), compared as text so no
 * decimal passes through a float; undefined for anything else (an exponent, say).
 * @param {string} text
 */
function plainNumber(text) {
  const parts = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (parts === null || (parts[2] === '' && (parts[3] ?? '') === '')) return undefined;
  const whole = (parts[2] ?? '').replace(/^0+/, '') || '0';
  const fraction = (parts[3] ?? '').replace(/0+$/, '');
  const digits = fraction === '' ? whole : `${whole}.${fraction}`;
  return parts[1] === '-' && digits !== '0' ? `-${digits}` : digits;
}

/**
 * A save's request id: the same for a retry of the same save (the server then answers the first
 * one's outcome instead of applying it twice). `crypto.randomUUID` exists only in secure contexts
 * (https, localhost); a host serving the screen over plain http on its network gets the same kind
 * of id from `getRandomValues`, which every context has.
 */
function newRequestId() {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A decimal as pt-BR writes it, in plain digits with "." as the point: "12,50" and "1.500,25" (points
 * group thousands, a comma starts the decimals). A point without a comma is refused rather than
 * guessed: pt-BR reads "1.500" as fifteen hundred, and a person used to the point as the decimal mark
 * means one and a half; one group or more with a comma ("1.500,00"), or two groups ("1.500.000"), can
 * only be thousands.
 * @param {string} text trimmed
 * @returns {string | { problem: 'notNumber' | 'ambiguousPoint' }}
 */
function brazilianNumber(text) {
  if (/^-?\d+(,\d+)?$/.test(text)) return text.replace(',', '.');
  const grouped = /^-?[1-9]\d{0,2}((\.\d{3})+)(,\d+)?$/.exec(text);
  if (grouped !== null && (grouped[3] !== undefined || (grouped[1] ?? '').length > 4)) {
    return text.replace(/\./g, '').replace(',', '.');
  }
  return text.includes('.') && /^[-\d.,]+$/.test(text)
    ? { problem: 'ambiguousPoint' }
    : { problem: 'notNumber' };
}

/**
 * A decimal as English writes it, in plain digits: "12.50" and "1,500.25" (commas group thousands).
 * A comma without a point is refused rather than guessed, as pt-BR's lone point is: English reads
 * "1,500" as fifteen hundred, and a person used to the comma as the decimal mark (our users, often
 * on English browsers) means one and a half; "0,750" is no English number at all. Two groups
 * ("1,500,000"), or a group with a point ("1,500.00"), can only be thousands.
 * @param {string} text trimmed
 * @returns {string | { problem: 'notNumber' | 'ambiguousComma' }}
 */
function englishNumber(text) {
  if (/^-?\d+(\.\d+)?$/.test(text)) return text;
  if (/^-?[1-9]\d{0,2}((,\d{3}){2,}|(,\d{3})+\.\d+)$/.test(text)) return text.replace(/,/g, '');
  return /^-?\d+,\d+$/.test(text) ? { problem: 'ambiguousComma' } : { problem: 'notNumber' };
}

/**
 * What a metric is called on screen: its TREE_VIEW label, else (the server then sends the column's
 * name as its label) the column's name made readable, as headers are.
 * @param {MetricColumn} column
 */
function metricLabel(column) {
  return column.label === column.field ? humanize(column.field) : column.label;
}

/**
 * A column name as a heading when the installation gives no label: "QTD_PESSOAS" → "Qtd pessoas".
 * @param {string} name
 */
function humanize(name) {
  const words = name.replace(/_/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * @param {string} template
 * @param {Record<string, string | number>} [params]
 */
function fill(template, params = {}) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** An error answer of the handler: `{ error: { code, message, path? } }`. */
class RequestError extends Error {
  /**
   * @param {number} status 0 when no answer came
   * @param {string} message
   * @param {string | undefined} code
   * @param {string | undefined} path
   * @param {MetricConflict[]} [conflicts] a 409 `METRIC_CONFLICT`'s fields
   */
  constructor(status, message, code, path, conflicts = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.path = path;
    this.conflicts = conflicts;
  }
}

/**
 * One node of the tree as the screen holds it.
 * @typedef {object} TreeNode
 * @property {ScreenNode} data
 * @property {TreeNode | null} parent
 * @property {string} key unique along its path: the same activity under two groups is two nodes
 * @property {TreeNode[] | undefined} children undefined until loaded
 * @property {Promise<void> | undefined} loading
 * @property {boolean} expanded
 * @property {HTMLLIElement} item
 * @property {HTMLUListElement | undefined} group
 * @property {number} rendered how many children have their element
 * @property {number} [saves] how many saves of this activity answered, so a slower read never undoes a later one
 */

/**
 * Turns the element into the association screen of one task sheet.
 *
 * @param {HTMLElement} element the host element; its children are replaced
 * @param {ScreenOptions} options
 * @returns {ScreenController}
 */
export function mountAssociationScreen(element, options) {
  if (!(element instanceof HTMLElement)) {
    throw new TypeError(
      'mountAssociationScreen: the first argument must be an HTML element, such as a <div>',
    );
  }
  if (typeof options?.endpoint !== 'string' || options.endpoint === '') {
    throw new TypeError(
      `mountAssociationScreen: endpoint must be the association handler's URL, got ${JSON.stringify(options?.endpoint)}`,
    );
  }
  const taskSheet = options.taskSheet;
  if (!Number.isSafeInteger(taskSheet) || taskSheet <= 0) {
    throw new RangeError(
      `mountAssociationScreen: taskSheet must be a task sheet SEQ_DB (a positive whole number), got ${String(taskSheet)}`,
    );
  }
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isSafeInteger(chunkSize) || chunkSize < 1) {
    throw new RangeError(
      `mountAssociationScreen: chunkSize must be a whole number >= 1, got ${String(chunkSize)}`,
    );
  }
  const lang =
    options.lang ??
    element.closest('[lang]')?.getAttribute('lang') ??
    element.ownerDocument.documentElement.lang;
  /** @type {ScreenLabels} */
  const labels = { ...labelsFor(lang), ...options.labels };
  const doc = element.ownerDocument;
  const win = doc.defaultView ?? window;
  const uid = `ta-${++instances}`;
  const base = new URL(options.endpoint, doc.baseURI);
  const reducedMotion = win.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

  /** @type {ScreenState} */
  let state = 'loading';
  let destroyed = false;
  /** Aborted by destroy(): every request listens to it. */
  const lifetime = new AbortController();
  /** @type {Set<ReturnType<typeof setTimeout>>} */
  const timers = new Set();
  /** @type {MetricColumn[]} */
  let metricColumns = [];
  /** @type {TreeNode[]} */
  let roots = [];
  let rootsRendered = 0;
  /** @type {Map<HTMLElement, TreeNode>} */
  const nodeOf = new Map();
  /** @type {TreeNode | undefined} */
  let modalNode;
  let typeAhead = '';
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let typeAheadTimer;
  /** @type {AbortController | undefined} */
  let searchRequest;

  // destroy() gives the element back as it was: without a class attribute if it had none.
  const hadClass = element.hasAttribute('class');
  element.classList.add(BLOCK);
  element.replaceChildren();

  // The parts that stay for the screen's lifetime: header, search, body (states or tree), modal, live region.
  const header = create('header', `${BLOCK}__header`);
  const body = create('div', `${BLOCK}__body`);
  const status = create('p', `${BLOCK}__status`);
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  const searchBox = buildSearch();
  const modal = buildModal();
  element.append(header, searchBox.root, body, status, modal.dialog);
  /** @type {IntersectionObserver | undefined} */
  const moreObserver =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver(
          (entries) => {
            for (const entry of entries) {
              if (!entry.isIntersecting) continue;
              const target = /** @type {HTMLElement} */ (entry.target);
              const owner = target.dataset.owner === 'root' ? null : findByKey(target.dataset.owner ?? '');
              renderMore(owner ?? null);
            }
          },
          { rootMargin: '400px' },
        )
      : undefined;
  const tree = create('ul', `${BLOCK}__tree`);
  tree.setAttribute('role', 'tree');
  tree.setAttribute('aria-label', labels.tree);
  tree.addEventListener('keydown', onTreeKey);
  tree.addEventListener('click', onTreeClick);
  const rootSentinel = create('div', `${BLOCK}__more`);
  rootSentinel.dataset.owner = 'root';
  rootSentinel.setAttribute('aria-hidden', 'true');

  void start();

  /**
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {string} className
   * @param {string} [text] set as text, never parsed as HTML: labels come from data
   */
  function create(tag, className, text) {
    const node = doc.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** @param {ScreenState} next */
  function setState(next) {
    state = next;
    element.dataset.state = next;
    element.setAttribute('aria-busy', String(next === 'loading'));
    // Searching needs a tree to open: the field shows only when there is one.
    searchBox.root.hidden = next !== 'ready';
  }

  /** @param {() => void} callback @param {number} ms */
  function later(callback, ms) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!destroyed) callback();
    }, ms);
    timers.add(timer);
    return timer;
  }

  /** @param {string} message */
  function announce(message) {
    // While the modal is open the rest of the page is inert, its live region too: the modal has its own.
    const region = modal.dialog.open ? modal.status : status;
    // Emptied first, so the same message twice is announced twice.
    region.textContent = '';
    later(() => (region.textContent = message), 30);
  }

  /**
   * A request to the handler: bounded by `timeoutMs`, aborted by destroy() (and by `signal`).
   * @param {Record<string, string | number>} params
   * @param {RequestInit & { signal?: AbortSignal }} [init]
   */
  async function call(params, init = {}) {
    const url = new URL(base);
    url.searchParams.set('taskSheet', String(taskSheet));
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, String(value));
    const signals = [lifetime.signal, AbortSignal.timeout(timeoutMs)];
    if (init.signal) signals.push(init.signal);
    /** @type {Response} */
    let response;
    try {
      response = await fetch(url, {
        ...init,
        credentials: 'same-origin',
        headers: { accept: 'application/json', ...(init.headers ?? {}) },
        signal: AbortSignal.any(signals),
      });
    } catch (error) {
      if (lifetime.signal.aborted || init.signal?.aborted) throw error;
      throw new RequestError(0, labels.networkError, undefined, undefined);
    }
    /** @type {any} */
    let answer = null;
    try {
      answer = await response.json();
    } catch {
      // A proxy's HTML error page: the status says enough.
    }
    if (!response.ok) {
      const error = answer?.error;
      throw new RequestError(
        response.status,
        typeof error?.message === 'string' ? error.message : `HTTP ${response.status}`,
        typeof error?.code === 'string' ? error.code : undefined,
        typeof error?.path === 'string' ? error.path : undefined,
        Array.isArray(error?.conflicts) ? error.conflicts : [],
      );
    }
    return answer;
  }

  /**
   * A failed request as a RequestError: the server's answer, or a network failure.
   * @param {unknown} error
   */
  function failureOf(error) {
    return error instanceof RequestError
      ? error
      : new RequestError(0, labels.networkError, undefined, undefined);
  }

  /**
   * What to tell a person about a failed request, in the page's language: the known codes by their
   * label, anything else by the server's own sentence.
   * @param {unknown} error
   */
  function problemOf(error) {
    if (!(error instanceof RequestError)) return String(error);
    switch (error.code) {
      case 'INVALID_METRIC_VALUE':
        return fill(labels.refusedValue, { detail: error.message });
      case 'METRICS_BUSY':
        return labels.busy;
      case 'DATABASE_TIMEOUT':
        return labels.slowServer;
      // A 500 says nothing a person can act on beyond trying again (the host's operators hear of it).
      case 'INTERNAL_ERROR':
        return labels.serverFailed;
      case 'READ_ONLY_ROW':
        return labels.readOnlyRow;
      case 'INACTIVE_ROW':
        return labels.inactiveRow;
      case 'NOT_IN_TREE':
      case 'NODE_NOT_FOUND':
        return labels.notInTree;
      case 'TASK_SHEET_NOT_FOUND':
        return fill(labels.notFound, { id: taskSheet });
      case 'ENTRY_NOT_FOUND':
        return labels.entryGone;
      default:
        return error.message;
    }
  }

  async function start() {
    setState('loading');
    header.replaceChildren();
    body.replaceChildren(spinnerBlock(labels.loading));
    try {
      /** @type {ScreenStart} */
      const data = await call({ part: 'start' });
      if (destroyed) return;
      metricColumns = data.metrics;
      renderHeader(data);
      modal.setColumns(metricColumns);
      roots = data.nodes.map((node) => makeNode(node, null));
      rootsRendered = 0;
      if (roots.length === 0) {
        setState('empty');
        body.replaceChildren(message(labels.empty, 'empty'));
        return;
      }
      tree.replaceChildren();
      body.replaceChildren(tree, rootSentinel);
      renderMore(null);
      const first = roots[0];
      if (first) first.item.tabIndex = 0;
      setState('ready');
    } catch (error) {
      if (destroyed) return;
      if (error instanceof RequestError && error.status === 404) {
        setState('not-found');
        renderHeader(undefined);
        body.replaceChildren(message(fill(labels.notFound, { id: taskSheet }), 'not-found'));
        return;
      }
      setState('error');
      // The page keeps its heading (the task sheet) when what failed is its data.
      renderHeader(undefined);
      const block = message(labels.error, 'error', problemOf(error));
      const retry = create('button', `${BLOCK}__button ${BLOCK}__button--primary`, labels.retry);
      retry.type = 'button';
      retry.addEventListener('click', () => void start());
      block.append(retry);
      body.replaceChildren(block);
      retry.focus();
    }
  }

  /** @param {ScreenStart | undefined} data */
  function renderHeader(data) {
    const eyebrow = create('p', `${BLOCK}__eyebrow`, labels.eyebrow);
    const title = create('h1', `${BLOCK}__title`, fill(labels.title, { id: taskSheet }));
    header.replaceChildren(eyebrow, title);
    if (data === undefined) return;
    const facts = create('dl', `${BLOCK}__facts`);
    for (const column of data.taskSheet.columns) {
      if (column.name === 'SEQ_DB') continue;
      const fact = create('div', `${BLOCK}__fact`);
      fact.append(
        create('dt', '', column.label ?? humanize(column.name)),
        create(
          'dd',
          '',
          column.value === null ? labels.empty_value : headerText(column.value, column.dataType, lang),
        ),
      );
      facts.append(fact);
    }
    if (facts.childElementCount > 0) header.append(facts);
  }

  /** @param {string} text */
  function spinnerBlock(text) {
    const block = create('div', `${BLOCK}__message ${BLOCK}__message--loading`);
    block.append(create('span', `${BLOCK}__spinner`), create('p', '', text));
    return block;
  }

  /** @param {string} text @param {string} kind @param {string} [detail] */
  function message(text, kind, detail) {
    const block = create('div', `${BLOCK}__message ${BLOCK}__message--${kind}`);
    block.append(create('p', `${BLOCK}__message-text`, text));
    if (detail) block.append(create('p', `${BLOCK}__message-detail`, detail));
    return block;
  }

  // ---- the tree ------------------------------------------------------------------------------

  /** @param {ScreenNode} data @param {TreeNode | null} parent @returns {TreeNode} */
  function makeNode(data, parent) {
    const key = `${parent ? `${parent.key}/` : ''}${data.level}:${data.id}`;
    const item = /** @type {HTMLLIElement} */ (create('li', `${BLOCK}__item`));
    /** @type {TreeNode} */
    const node = {
      data,
      parent,
      key,
      children: undefined,
      loading: undefined,
      expanded: false,
      item,
      group: undefined,
      rendered: 0,
    };
    item.setAttribute('role', 'treeitem');
    item.tabIndex = -1;
    item.dataset.key = key;
    item.setAttribute('aria-level', String(depthOf(node)));
    const row = create('div', `${BLOCK}__row`);
    const twisty = create('span', `${BLOCK}__twisty`);
    twisty.setAttribute('aria-hidden', 'true');
    // Named from its row's text (the label, and an activity's values): browsers leave the nested
    // group out of a tree item's name, so a branch is named by its label alone.
    const label = create('span', `${BLOCK}__label`, data.label);
    row.append(twisty, label);
    if (data.kind === 'branch') {
      item.classList.add(`${BLOCK}__item--branch`);
      if (data.hasChildren) item.setAttribute('aria-expanded', 'false');
      else item.classList.add(`${BLOCK}__item--leaf`);
    } else {
      item.classList.add(`${BLOCK}__item--task`);
      item.setAttribute('aria-haspopup', 'dialog');
      const details = create('span', `${BLOCK}__metrics`);
      row.append(details);
      renderChips(node, details);
    }
    item.append(row);
    nodeOf.set(item, node);
    return node;
  }

  /** @param {TreeNode} node */
  function depthOf(node) {
    let depth = 1;
    for (let up = node.parent; up; up = up.parent) depth++;
    return depth;
  }

  /** The metric values beside an activity's label, each with its source. @param {TreeNode} node @param {HTMLElement} into */
  function renderChips(node, into) {
    into.replaceChildren();
    for (const column of metricColumns) {
      const metric = node.data.metrics?.[column.field];
      const chip = create(
        'span',
        `${BLOCK}__chip ${BLOCK}__chip--${(metric?.source ?? 'none').replace(':', '-')}`,
      );
      const value =
        metric?.value === null || metric?.value === undefined
          ? labels.empty_value
          : formatValue(metric.value, column, lang);
      chip.append(
        create('span', `${BLOCK}__chip-name`, metricLabel(column)),
        create('span', `${BLOCK}__chip-value`, value),
      );
      const source =
        metric?.source === 'saved'
          ? labels.chipSaved
          : metric?.source?.startsWith('default')
            ? labels.chipDefault
            : '';
      if (source) chip.append(create('span', `${BLOCK}__chip-source`, source));
      into.append(chip);
    }
    if (node.data.editable === false) {
      into.append(create('span', `${BLOCK}__lock`, labels.readOnly));
      node.item.classList.add(`${BLOCK}__item--read-only`);
    }
  }

  /** The children of `owner` (null: the roots) and how many have their element. @param {TreeNode | null} owner */
  function childrenOf(owner) {
    return owner === null ? roots : (owner.children ?? []);
  }

  /**
   * Renders the next chunk of `owner`'s children (null: the roots): a branch of thousands never
   * builds thousands of elements at once. Called when the chunk's end comes into view, or when the
   * keyboard walks past the last rendered child.
   * @param {TreeNode | null} owner
   */
  function renderMore(owner) {
    const list = childrenOf(owner);
    const container = owner === null ? tree : owner.group;
    if (container === undefined) return false;
    const from = owner === null ? rootsRendered : owner.rendered;
    if (from >= list.length) return false;
    const to = Math.min(list.length, from + chunkSize);
    const fragment = doc.createDocumentFragment();
    for (let index = from; index < to; index++) {
      const child = /** @type {TreeNode} */ (list[index]);
      child.item.setAttribute('aria-setsize', String(list.length));
      child.item.setAttribute('aria-posinset', String(index + 1));
      fragment.append(child.item);
    }
    container.append(fragment);
    if (owner === null) rootsRendered = to;
    else owner.rendered = to;
    const sentinel = owner === null ? rootSentinel : owner.item.querySelector(`:scope > .${BLOCK}__more`);
    if (sentinel instanceof HTMLElement) {
      if (to < list.length) {
        moreObserver?.unobserve(sentinel);
        moreObserver?.observe(sentinel);
      } else {
        moreObserver?.unobserve(sentinel);
        sentinel.remove();
      }
    }
    return true;
  }

  /** @param {string} key */
  function findByKey(key) {
    const item = element.querySelector(`[data-key="${CSS.escape(key)}"]`);
    return item instanceof HTMLElement ? nodeOf.get(item) : undefined;
  }

  /**
   * Opens a branch, loading its children on the first time (one request, shared by every caller).
   * @param {TreeNode} node
   */
  async function expand(node) {
    if (node.data.kind !== 'branch' || !node.data.hasChildren) return;
    node.expanded = true;
    node.item.setAttribute('aria-expanded', 'true');
    if (node.group) {
      node.group.hidden = false;
      return;
    }
    if (!node.loading) node.loading = loadChildren(node);
    await node.loading;
  }

  /**
   * Reads an activity's metrics again: after a remove its defaults apply, which only the server
   * knows, and after a refused save the tree shows what others stored meanwhile. One request (the
   * activity's branch); on failure the chips keep what they showed.
   * @param {TreeNode} node
   */
  async function refreshMetrics(node) {
    const parent = node.parent;
    const saves = node.saves;
    try {
      /** @type {{ nodes: ScreenNode[] }} */
      const data = await call(
        parent ? { part: 'children', level: parent.data.level, node: parent.data.id } : { part: 'children' },
      );
      const fresh = data.nodes.find((child) => child.kind === 'task' && child.id === node.data.id);
      // A save made meanwhile is newer than this read: its values stay.
      if (fresh === undefined || destroyed || node.saves !== saves) return;
      node.data = fresh;
      const details = node.item.querySelector(`.${BLOCK}__metrics`);
      if (details instanceof HTMLElement) renderChips(node, details);
    } catch {
      // What was saved stays shown; the next load of the screen shows the default.
    }
  }

  /** @param {TreeNode} node */
  async function loadChildren(node) {
    // A failure said before is over once the branch is asked again.
    for (const stale of node.item.querySelectorAll(`:scope > .${BLOCK}__row > .${BLOCK}__branch-error`))
      stale.remove();
    node.item.setAttribute('aria-busy', 'true');
    const pending = create('span', `${BLOCK}__pending`, labels.branchLoading);
    node.item.querySelector(`.${BLOCK}__row`)?.append(pending);
    try {
      /** @type {{ nodes: ScreenNode[] }} */
      const data = await call({ part: 'children', level: node.data.level, node: node.data.id });
      node.children = data.nodes.map((child) => makeNode(child, node));
      const group = /** @type {HTMLUListElement} */ (create('ul', `${BLOCK}__group`));
      group.setAttribute('role', 'group');
      node.group = group;
      node.item.append(group);
      if (node.children.length > chunkSize) {
        const sentinel = create('div', `${BLOCK}__more`);
        sentinel.dataset.owner = node.key;
        sentinel.setAttribute('aria-hidden', 'true');
        node.item.append(sentinel);
      }
      renderMore(node);
      group.hidden = !node.expanded;
      if (node.children.length === 0) {
        node.item.removeAttribute('aria-expanded');
        node.item.classList.add(`${BLOCK}__item--leaf`);
      }
    } catch (error) {
      node.loading = undefined;
      node.expanded = false;
      node.item.setAttribute('aria-expanded', 'false');
      if (destroyed) return;
      announce(`${labels.branchError} ${problemOf(error)}`);
      const failed = create('span', `${BLOCK}__branch-error`, labels.branchError);
      node.item.querySelector(`.${BLOCK}__row`)?.append(failed);
      later(() => failed.remove(), 6000);
      throw error;
    } finally {
      pending.remove();
      node.item.removeAttribute('aria-busy');
    }
  }

  /** @param {TreeNode} node */
  function collapse(node) {
    if (!node.expanded) return;
    node.expanded = false;
    node.item.setAttribute('aria-expanded', 'false');
    if (node.group) node.group.hidden = true;
  }

  /** The tree items a person can reach now: rendered, and not inside a closed branch, in order. */
  function visibleItems() {
    /** @type {HTMLElement[]} */
    const items = [];
    for (const item of tree.querySelectorAll('[role="treeitem"]')) {
      if (item instanceof HTMLElement && !item.closest('[role="group"][hidden]')) items.push(item);
    }
    return items;
  }

  /** @param {TreeNode} node @param {{ scroll?: boolean }} [how] */
  function focusNode(node, how = {}) {
    for (const item of tree.querySelectorAll('[role="treeitem"][tabindex="0"]')) {
      if (item instanceof HTMLElement) item.tabIndex = -1;
    }
    node.item.tabIndex = 0;
    node.item.focus({ preventScroll: true });
    if (how.scroll !== false) {
      node.item.scrollIntoView({ block: 'nearest', behavior: reducedMotion ? 'auto' : 'smooth' });
    }
  }

  /** The node of the focused item, or of the item with the roving tab stop. */
  function currentNode() {
    const active = doc.activeElement;
    if (active instanceof HTMLElement && nodeOf.has(active)) return nodeOf.get(active);
    const stop = tree.querySelector('[role="treeitem"][tabindex="0"]');
    return stop instanceof HTMLElement ? nodeOf.get(stop) : undefined;
  }

  /**
   * The visible item after `node`. When that item belongs to a long branch whose next chunk is not
   * rendered yet (the walk reached the last rendered child), the chunk is rendered first.
   * @param {TreeNode} node
   */
  function nextVisible(node) {
    if (!(node.expanded && node.children && node.children.length > 0)) {
      for (let current = /** @type {TreeNode | null} */ (node); current; current = current.parent) {
        const owner = current.parent;
        const list = childrenOf(owner);
        const index = list.indexOf(current);
        if (index < list.length - 1) {
          if (index + 1 >= (owner === null ? rootsRendered : owner.rendered)) renderMore(owner);
          break;
        }
      }
    }
    const items = visibleItems();
    const next = items[items.indexOf(node.item) + 1];
    return next ? nodeOf.get(next) : undefined;
  }

  /** The last node a person can reach: the last root, then the last child of each open branch, rendered. */
  function lastVisible() {
    /** @type {TreeNode | null} */
    let owner = null;
    for (;;) {
      while (renderMore(owner)) {}
      const last = childrenOf(owner).at(-1);
      if (!last || !(last.expanded && last.children && last.children.length > 0)) return last ?? owner;
      owner = last;
    }
  }

  /** @param {KeyboardEvent} event */
  function onTreeKey(event) {
    const node = currentNode();
    if (!node || event.altKey || event.ctrlKey || event.metaKey) return;
    const items = visibleItems();
    const index = items.indexOf(node.item);
    /** @param {HTMLElement | undefined} item */
    const go = (item) => {
      const target = item ? nodeOf.get(item) : undefined;
      if (target) focusNode(target);
    };
    switch (event.key) {
      case 'ArrowDown': {
        const next = nextVisible(node);
        if (next) focusNode(next);
        break;
      }
      case 'ArrowUp':
        go(items[index - 1]);
        break;
      case 'ArrowRight':
        if (node.data.kind !== 'branch' || !node.item.hasAttribute('aria-expanded')) break;
        if (!node.expanded) void expand(node).catch(() => undefined);
        else if (node.children?.[0]) focusNode(node.children[0]);
        break;
      case 'ArrowLeft':
        if (node.expanded) collapse(node);
        else if (node.parent) focusNode(node.parent);
        break;
      case 'Home':
        go(items[0]);
        break;
      case 'End': {
        const last = lastVisible();
        if (last) focusNode(last);
        break;
      }
      case 'Enter':
      case ' ':
        if (node.data.kind === 'task') openModal(node);
        else if (node.expanded) collapse(node);
        else void expand(node).catch(() => undefined);
        break;
      default:
        if (event.key.length === 1 && event.key !== ' ') {
          typeAheadTo(node, event.key);
          break;
        }
        return;
    }
    event.preventDefault();
  }

  /**
   * Type-ahead: focus the next visible item whose label starts with what was typed in the last
   * moment (one letter repeated cycles through the items starting with it).
   * @param {TreeNode} from @param {string} key
   */
  function typeAheadTo(from, key) {
    typeAhead += key.toLowerCase();
    // One timer for the word: each key restarts it, so a word typed at a steady pace is kept whole.
    if (typeAheadTimer !== undefined) {
      clearTimeout(typeAheadTimer);
      timers.delete(typeAheadTimer);
    }
    typeAheadTimer = later(() => {
      typeAhead = '';
      typeAheadTimer = undefined;
    }, TYPE_AHEAD_MS);
    const items = visibleItems();
    const start = items.indexOf(from.item);
    const repeated = typeAhead.length > 1 && [...typeAhead].every((c) => c === typeAhead[0]);
    const prefix = repeated ? (typeAhead[0] ?? '') : typeAhead;
    const offset = typeAhead.length === 1 || repeated ? 1 : 0;
    for (let step = 0; step < items.length; step++) {
      const item = items[(start + offset + step) % items.length];
      const node = item ? nodeOf.get(item) : undefined;
      if (node?.data.label.toLowerCase().startsWith(prefix)) {
        focusNode(node);
        return;
      }
    }
  }

  /** @param {MouseEvent} event */
  function onTreeClick(event) {
    const target = /** @type {HTMLElement} */ (event.target);
    const row = target.closest(`.${BLOCK}__row`);
    const item = row?.parentElement;
    const node = item ? nodeOf.get(item) : undefined;
    if (!node) return;
    focusNode(node, { scroll: false });
    if (node.data.kind === 'task') openModal(node);
    else if (node.expanded) collapse(node);
    else void expand(node).catch(() => undefined);
  }

  // ---- search --------------------------------------------------------------------------------

  function buildSearch() {
    const root = create('div', `${BLOCK}__search`);
    root.setAttribute('role', 'search');
    const label = create('label', `${BLOCK}__search-label`, labels.search);
    const input = /** @type {HTMLInputElement} */ (create('input', `${BLOCK}__search-input`));
    input.type = 'search';
    input.id = `${uid}-search`;
    input.placeholder = labels.searchPlaceholder;
    input.autocomplete = 'off';
    input.spellcheck = false;
    label.htmlFor = input.id;
    const results = create('ul', `${BLOCK}__results`);
    results.setAttribute('aria-label', labels.searchResults);
    results.hidden = true;
    const note = create('p', `${BLOCK}__results-note`);
    note.hidden = true;
    root.append(label, input, note, results);
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    input.addEventListener('input', () => {
      if (timer) clearTimeout(timer);
      timers.delete(/** @type {any} */ (timer));
      timer = later(() => void runSearch(input.value), SEARCH_DELAY_MS);
    });
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        if (timer) clearTimeout(timer);
        void runSearch(input.value);
      } else if (event.key === 'Escape' && input.value !== '') {
        event.preventDefault();
        input.value = '';
        void runSearch('');
      } else if (event.key === 'ArrowDown') {
        const first = results.querySelector('button');
        if (first) {
          event.preventDefault();
          first.focus();
        }
      }
    });
    results.addEventListener('keydown', (event) => {
      const buttons = [...results.querySelectorAll('button')];
      const at = buttons.indexOf(/** @type {HTMLButtonElement} */ (doc.activeElement));
      if (event.key === 'ArrowDown') buttons[at + 1]?.focus();
      else if (event.key === 'ArrowUp') (at <= 0 ? input : buttons[at - 1])?.focus();
      else return;
      event.preventDefault();
    });
    return { root, input, results, note };
  }

  /** @param {string} text */
  async function runSearch(text) {
    const { results, note } = searchBox;
    searchRequest?.abort();
    const q = text.trim();
    if (q === '') {
      results.replaceChildren();
      results.hidden = true;
      note.hidden = true;
      return;
    }
    const request = new AbortController();
    searchRequest = request;
    try {
      /** @type {{ matches: { path: { level: number, id: number, label: string }[] }[], more: boolean }} */
      const data = await call({ part: 'search', q }, { signal: request.signal });
      if (request.signal.aborted || destroyed) return;
      results.replaceChildren();
      for (const match of data.matches) {
        const last = match.path.at(-1);
        if (!last) continue;
        const item = create('li', '');
        const button = create('button', `${BLOCK}__result`);
        button.type = 'button';
        button.append(create('span', `${BLOCK}__result-label`, last.label));
        const trail = match.path
          .slice(0, -1)
          .map((step) => step.label)
          .join(' › ');
        if (trail) button.append(create('span', `${BLOCK}__result-path`, trail));
        // A branch on the way that fails to load says so itself (see loadChildren).
        button.addEventListener('click', () => void openPath(match.path).catch(() => undefined));
        item.append(button);
        results.append(item);
      }
      results.hidden = data.matches.length === 0;
      note.hidden = !(data.matches.length === 0 || data.more);
      note.textContent = data.matches.length === 0 ? fill(labels.searchNone, { q }) : labels.searchMore;
      announce(
        data.matches.length === 0
          ? fill(labels.searchNone, { q })
          : fill(data.matches.length === 1 ? labels.searchCountOne : labels.searchCount, {
              count: data.matches.length,
            }),
      );
    } catch (error) {
      if (request.signal.aborted || destroyed) return;
      results.replaceChildren();
      results.hidden = true;
      note.hidden = false;
      note.textContent = labels.searchError;
      announce(labels.searchError);
      void error;
    }
  }

  /**
   * Opens the tree down to a search match (each closed branch on the way loads once) and focuses it.
   * @param {{ level: number, id: number }[]} path
   */
  async function openPath(path) {
    /** @type {TreeNode | null} */
    let owner = null;
    /** @type {TreeNode | undefined} */
    let found;
    for (const [index, step] of path.entries()) {
      if (owner !== null) await expand(owner);
      const list = childrenOf(owner);
      const position = list.findIndex((node) => node.data.level === step.level && node.data.id === step.id);
      found = list[position];
      if (!found) return;
      // A match deep in a long branch: render the chunks up to it.
      while ((owner === null ? rootsRendered : owner.rendered) <= position && renderMore(owner)) {}
      if (index < path.length - 1) owner = found;
    }
    if (found) focusNode(found);
  }

  // ---- the modal -----------------------------------------------------------------------------

  function buildModal() {
    const dialog = /** @type {HTMLDialogElement} */ (create('dialog', `${BLOCK}__modal`));
    const form = /** @type {HTMLFormElement} */ (create('form', `${BLOCK}__form`));
    form.method = 'dialog';
    form.noValidate = true;
    const title = create('h2', `${BLOCK}__modal-title`);
    title.id = `${uid}-modal-title`;
    dialog.setAttribute('aria-labelledby', title.id);
    const trail = create('p', `${BLOCK}__modal-path`);
    // Who wrote the entry last, and when: a person about to change it knows whose values these are.
    const lastChangeLine = create('p', `${BLOCK}__last-change`);
    const notice = create('p', `${BLOCK}__notice`, labels.readOnlyNotice);
    notice.hidden = true;
    const fields = create('div', `${BLOCK}__fields`);
    const tools = create('div', `${BLOCK}__tools`);
    const historyButton = create('button', `${BLOCK}__button ${BLOCK}__button--quiet`, labels.history);
    historyButton.type = 'button';
    const removeButton = create('button', `${BLOCK}__button ${BLOCK}__button--danger`, labels.remove);
    removeButton.type = 'button';
    tools.append(historyButton, removeButton);
    // The changes, read when asked for (one request per opening of the section).
    const history = create('section', `${BLOCK}__history`);
    history.id = `${uid}-history`;
    history.hidden = true;
    const historyTitle = create('h3', `${BLOCK}__history-title`, labels.historyTitle);
    historyTitle.id = `${uid}-history-title`;
    history.setAttribute('aria-labelledby', historyTitle.id);
    const historyState = create('p', `${BLOCK}__history-state`);
    const historyList = create('ol', `${BLOCK}__changes`);
    history.append(historyTitle, historyState, historyList);
    historyButton.setAttribute('aria-expanded', 'false');
    historyButton.setAttribute('aria-controls', history.id);
    const formError = create('p', `${BLOCK}__form-error`);
    formError.setAttribute('role', 'alert');
    formError.hidden = true;
    // Visible as well as spoken: after "Save and next" it is the only sign, for a sighted person,
    // that the previous activity was saved (the tree behind the dialog is dimmed).
    const dialogStatus = create('p', `${BLOCK}__dialog-status`);
    dialogStatus.setAttribute('role', 'status');
    dialogStatus.setAttribute('aria-live', 'polite');
    const actions = create('div', `${BLOCK}__actions`);
    const cancel = create('button', `${BLOCK}__button`, labels.cancel);
    cancel.type = 'button';
    const saveNext = create('button', `${BLOCK}__button`, labels.saveNext);
    saveNext.type = 'button';
    const save = create('button', `${BLOCK}__button ${BLOCK}__button--primary`, labels.save);
    save.type = 'submit';
    actions.append(cancel, saveNext, save);
    form.append(
      title,
      trail,
      lastChangeLine,
      notice,
      fields,
      tools,
      history,
      formError,
      actions,
      dialogStatus,
    );
    // The remove's confirmation: a modal dialog of its own above this one (the platform's focus trap;
    // Esc keeps the entry), never window.confirm, which a host page may have silenced.
    const confirm = /** @type {HTMLDialogElement} */ (create('dialog', `${BLOCK}__confirm`));
    confirm.setAttribute('role', 'alertdialog');
    const confirmTitle = create('h3', `${BLOCK}__confirm-title`, labels.removeTitle);
    confirmTitle.id = `${uid}-confirm-title`;
    const confirmText = create('p', `${BLOCK}__confirm-text`);
    confirmText.id = `${uid}-confirm-text`;
    confirm.setAttribute('aria-labelledby', confirmTitle.id);
    confirm.setAttribute('aria-describedby', confirmText.id);
    const confirmActions = create('div', `${BLOCK}__confirm-actions`);
    const keepEntry = create('button', `${BLOCK}__button`, labels.removeCancel);
    keepEntry.type = 'button';
    const confirmRemove = create(
      'button',
      `${BLOCK}__button ${BLOCK}__button--danger-primary`,
      labels.removeConfirm,
    );
    confirmRemove.type = 'button';
    confirmActions.append(keepEntry, confirmRemove);
    confirm.append(confirmTitle, confirmText, confirmActions);
    dialog.append(form, confirm);
    /** @type {Map<string, { input: HTMLInputElement, label: HTMLElement, source: HTMLElement, error: HTMLElement, conflict: HTMLElement, column: MetricColumn }>} */
    const inputs = new Map();
    /** What each input was preset with (the server's value): a field is changed when its typed value differs. */
    /** @type {Map<string, string | number | null>} */
    const presets = new Map();
    /** What each field's save starts from: the stored value when the key has a row, else null. */
    /** @type {Map<string, string | number | null>} */
    const bases = new Map();
    /**
     * Fields a save or a remove was refused at, with the person's choice once made. A save's
     * conflict waits for "Keep mine" or "Use theirs"; a remove's is said, and the form takes theirs.
     * @type {Map<string, MetricConflict & { kind: 'save' | 'remove', choice: 'mine' | 'theirs' | undefined }>}
     */
    const conflicts = new Map();
    /** Whether the activity's key has a live row: without one, Save stores every value the form shows. */
    let hasRow = false;
    /** The last save or remove sent without an answer (or with a server failure): its retry keeps its id. */
    /** @type {{ key: string, id: string } | undefined} */
    let attempt;
    /** Counts history reads: a slow one never lands on a later opening. */
    let historyReads = 0;

    /** Counts the dialog's openings: a save's answer belongs to the opening it was sent from. */
    let session = 0;
    let busy = false;
    cancel.addEventListener('click', () => dialog.close());
    // Esc while a save is on its way would leave its answer to land on whatever opens next.
    dialog.addEventListener('cancel', (event) => {
      if (busy) event.preventDefault();
    });
    saveNext.addEventListener('click', () => void submit(true));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void submit(false);
    });
    dialog.addEventListener('close', () => {
      if (confirm.open) confirm.close();
      const node = modalNode;
      modalNode = undefined;
      if (node && !destroyed && node.item.isConnected) focusNode(node, { scroll: false });
    });
    historyButton.addEventListener('click', () => {
      // Shown with a failure, it is asked again (the failure says "press History to try again").
      if (history.hidden || history.dataset.failed === 'true') void showHistory();
      else {
        history.hidden = true;
        historyButton.setAttribute('aria-expanded', 'false');
      }
    });
    removeButton.addEventListener('click', () => {
      const node = modalNode;
      if (!node || busy) return;
      confirmText.textContent = fill(labels.removeText, { label: node.data.label });
      confirm.showModal();
      // The answer that changes nothing has the focus: Enter pressed at once keeps the entry.
      keepEntry.focus();
    });
    keepEntry.addEventListener('click', () => {
      confirm.close();
      removeButton.focus();
    });
    confirmRemove.addEventListener('click', () => {
      confirm.close();
      void removeEntry();
    });

    /** @param {MetricColumn[]} columns */
    function setColumns(columns) {
      fields.replaceChildren();
      inputs.clear();
      for (const column of columns) {
        const field = create('div', `${BLOCK}__field`);
        const id = `${uid}-metric-${column.field}`;
        const label = create('label', `${BLOCK}__field-label`, metricLabel(column));
        label.htmlFor = id;
        label.id = `${id}-label`;
        const input = /** @type {HTMLInputElement} */ (create('input', `${BLOCK}__input`));
        input.id = id;
        input.name = column.field;
        input.type = 'text';
        input.autocomplete = 'off';
        const whole = column.dataType !== null && column.dataType in INTEGER_BITS;
        const numeric = ['decimal', 'float', 'double'].includes(column.dataType ?? '');
        input.inputMode = whole ? 'numeric' : numeric ? 'decimal' : 'text';
        // A NOT NULL column: said before the person tries to save, not only when a save is refused.
        if (!column.nullable) input.setAttribute('aria-required', 'true');
        const source = create('p', `${BLOCK}__source`);
        source.id = `${id}-source`;
        const error = create('p', `${BLOCK}__field-error`);
        error.id = `${id}-error`;
        error.hidden = true;
        // Where a refused save says, at the field, what is stored now and by whom.
        const conflict = create('div', `${BLOCK}__conflict`);
        conflict.id = `${id}-conflict`;
        conflict.hidden = true;
        input.setAttribute('aria-describedby', source.id);
        input.addEventListener('input', () => showFieldError(column.field, undefined));
        field.append(label, input, source, error, conflict);
        fields.append(field);
        inputs.set(column.field, { input, label, source, error, conflict, column });
      }
    }

    /** The input's description: its problem, what a conflict says of it, where its preset came from. @param {string} field */
    function describe(field) {
      const entry = inputs.get(field);
      if (!entry) return;
      const ids = [];
      if (!entry.error.hidden) ids.push(entry.error.id);
      if (!entry.conflict.hidden) ids.push(`${entry.conflict.id}-title`);
      ids.push(entry.source.id);
      entry.input.setAttribute('aria-describedby', ids.join(' '));
    }

    /** @param {string} field @param {string | undefined} text */
    function showFieldError(field, text) {
      const entry = inputs.get(field);
      if (!entry) return;
      entry.error.textContent = text ?? '';
      entry.error.hidden = text === undefined;
      entry.input.setAttribute('aria-invalid', String(text !== undefined));
      describe(field);
    }

    /** @param {string} field @param {string | undefined} source @param {string | number | null | undefined} value */
    function showSource(field, source, value) {
      const entry = inputs.get(field);
      if (!entry) return;
      entry.source.textContent = sourceText(source, value);
      entry.source.dataset.source = source ?? 'none';
    }

    /** A value as the conflict view and the history show it. @param {string | number | null} value @param {MetricColumn | undefined} column */
    function shown(value, column) {
      if (value === null) return labels.conflictEmpty;
      return column === undefined ? String(value) : formatValue(value, column, lang);
    }

    /** Draws a field's conflict as it stands: waiting for a choice, "Keep mine" chosen, or none. @param {string} field */
    function renderConflict(field) {
      const entry = inputs.get(field);
      if (!entry) return;
      const found = conflicts.get(field);
      const box = entry.conflict;
      box.replaceChildren();
      box.removeAttribute('role');
      box.removeAttribute('aria-labelledby');
      box.removeAttribute('tabindex');
      box.classList.remove(`${BLOCK}__conflict--resolved`);
      box.hidden = found === undefined || found.choice === 'theirs';
      if (found === undefined || found.choice === 'theirs') {
        describe(field);
        return;
      }
      const titleId = `${box.id}-title`;
      if (found.choice === 'mine') {
        box.classList.add(`${BLOCK}__conflict--resolved`);
        const note = create(
          'p',
          `${BLOCK}__conflict-note`,
          fill(labels.keptMine, { theirs: shown(found.theirs, entry.column) }),
        );
        note.id = titleId;
        box.append(note);
        describe(field);
        return;
      }
      const heading = create(
        'p',
        `${BLOCK}__conflict-title`,
        found.changedBy === null || found.changedBy === undefined
          ? labels.conflictTitleUnknown
          : fill(labels.conflictTitle, {
              user: userText(found.changedBy),
              at: found.changedAt ? whenText(found.changedAt) : '',
            }),
      );
      heading.id = titleId;
      // A group named by the field and what happened to it: a screen reader says both on entering.
      box.setAttribute('role', 'group');
      box.setAttribute('aria-labelledby', `${entry.label.id} ${titleId}`);
      box.tabIndex = -1;
      const values = create('dl', `${BLOCK}__conflict-values`);
      /** @param {string} term @param {string} value @param {string} kind */
      const pair = (term, value, kind) => {
        const row = create('div', `${BLOCK}__conflict-value ${BLOCK}__conflict-value--${kind}`);
        row.append(create('dt', '', term), create('dd', '', value));
        return row;
      };
      values.append(
        pair(labels.conflictTheirs, shown(found.theirs, entry.column), 'theirs'),
        pair(
          labels.conflictYours,
          found.kind === 'remove'
            ? labels.conflictYoursRemove
            : // As the column will store it, beside theirs: "32.00", not the "32" sent.
              shown(found.yours === null ? null : asStored(found.yours, entry.column), entry.column),
          'yours',
        ),
      );
      box.append(heading, values);
      if (found.kind === 'save') {
        const choices = create('div', `${BLOCK}__conflict-actions`);
        const name = entry.label.textContent ?? field;
        const keep = create('button', `${BLOCK}__button ${BLOCK}__button--small`, labels.keepMine);
        keep.type = 'button';
        keep.setAttribute('aria-label', fill(labels.keepMineFor, { field: name }));
        keep.addEventListener('click', () => choose(field, 'mine'));
        const take = create('button', `${BLOCK}__button ${BLOCK}__button--small`, labels.useTheirs);
        take.type = 'button';
        take.setAttribute('aria-label', fill(labels.useTheirsFor, { field: name }));
        take.addEventListener('click', () => choose(field, 'theirs'));
        choices.append(keep, take);
        box.append(choices);
      }
      describe(field);
    }

    /** The fields whose save conflict still waits for a choice, in the form's order. */
    function waitingConflicts() {
      return [...inputs.keys()].filter((field) => {
        const found = conflicts.get(field);
        return found?.kind === 'save' && found.choice === undefined;
      });
    }

    /** @param {string[]} names */
    function fieldNames(names) {
      return listText(names.map((field) => inputs.get(field)?.label.textContent ?? field));
    }

    /**
     * "Keep mine": the input keeps the person's value, to replace theirs. "Use theirs": the input
     * takes the stored value. Either way the field now starts from what is stored (its base), so the
     * next Save, which the person presses, is checked against it.
     * @param {string} field @param {'mine' | 'theirs'} choice
     */
    function choose(field, choice) {
      const found = conflicts.get(field);
      const entry = inputs.get(field);
      if (!found || !entry || busy) return;
      found.choice = choice;
      presets.set(field, found.theirs);
      bases.set(field, found.theirs);
      if (choice === 'theirs') {
        entry.input.value = found.theirs === null ? '' : formatValue(found.theirs, entry.column, lang);
        showFieldError(field, undefined);
        showSource(field, 'saved', found.theirs);
      }
      renderConflict(field);
      const next = waitingConflicts()[0];
      if (next !== undefined) {
        inputs.get(next)?.conflict.focus();
        return;
      }
      formError.hidden = true;
      save.focus();
      announce(labels.conflictsResolved);
    }

    /**
     * Shows a refused batch's conflicts at their fields, focuses the first and says them in the alert.
     * @param {MetricConflict[]} list @param {'save' | 'remove'} kind
     * @returns {boolean} false when none of them is a field of this form
     */
    function showConflicts(list, kind) {
      conflicts.clear();
      for (const conflict of list) {
        const entry = inputs.get(conflict.field);
        if (!entry || conflict.entry !== 0) continue;
        conflicts.set(conflict.field, { ...conflict, kind, choice: undefined });
        // Someone saved the key meanwhile: it has a row now, and the next save sends changes only.
        if (conflict.theirs !== null) hasRow = true;
        if (kind === 'remove') {
          // The entry stays as they left it: the form shows it, and a second remove starts from it.
          presets.set(conflict.field, conflict.theirs);
          bases.set(conflict.field, conflict.theirs);
          entry.input.value =
            conflict.theirs === null ? '' : formatValue(conflict.theirs, entry.column, lang);
          showFieldError(conflict.field, undefined);
          showSource(conflict.field, 'saved', conflict.theirs);
        }
      }
      for (const field of inputs.keys()) renderConflict(field);
      // The line under the title follows: whoever changed a field last is who last changed the entry.
      let latest = /** @type {{ user: number, at: string } | undefined} */ (undefined);
      for (const found of conflicts.values()) {
        if (found.changedBy === null || found.changedBy === undefined || !found.changedAt) continue;
        if (latest === undefined || found.changedAt > latest.at)
          latest = { user: found.changedBy, at: found.changedAt };
      }
      if (latest !== undefined) {
        lastChangeLine.textContent = fill(labels.lastChange, {
          user: userText(latest.user),
          at: whenText(latest.at),
        });
        lastChangeLine.hidden = false;
      }
      const named = [...inputs.keys()].filter((field) => conflicts.has(field));
      if (named.length === 0) return false;
      formError.classList.remove(`${BLOCK}__form-error--spoken`);
      formError.textContent = fill(kind === 'save' ? labels.conflictSummary : labels.removeConflict, {
        fields: fieldNames(named),
      });
      formError.hidden = false;
      const first = named[0];
      if (first !== undefined) inputs.get(first)?.conflict.focus();
      return true;
    }

    /** Forgets the conflicts of `kind` (all without one): what they said no longer stands. @param {'save' | 'remove'} [kind] */
    function dropConflicts(kind) {
      for (const [field, found] of conflicts) {
        if (kind !== undefined && found.kind !== kind) continue;
        conflicts.delete(field);
        renderConflict(field);
      }
    }

    /** @param {TreeNode} node */
    function open(node) {
      // What was said of another activity does not stay under this one ("Save and next" says its
      // part after opening the next).
      dialogStatus.textContent = '';
      title.textContent = node.data.label;
      const ancestors = [];
      for (let up = node.parent; up; up = up.parent) ancestors.unshift(up.data.label);
      trail.textContent = ancestors.join(' › ');
      trail.hidden = ancestors.length === 0;
      const editable = node.data.editable !== false;
      notice.hidden = editable;
      formError.hidden = true;
      formError.textContent = '';
      save.hidden = !editable;
      saveNext.hidden = !editable;
      cancel.textContent = editable ? labels.cancel : labels.close;
      conflicts.clear();
      attempt = undefined;
      hasRow =
        (node.data.lastChange ?? null) !== null ||
        [...inputs.keys()].some((field) => node.data.metrics?.[field]?.source === 'saved');
      const last = node.data.lastChange ?? null;
      lastChangeLine.textContent =
        last !== null
          ? fill(labels.lastChange, { user: userText(last.user), at: whenText(last.at) })
          : hasRow
            ? ''
            : labels.neverSaved;
      lastChangeLine.hidden = lastChangeLine.textContent === '';
      removeButton.hidden = !(editable && hasRow);
      history.hidden = true;
      historyButton.setAttribute('aria-expanded', 'false');
      historyList.replaceChildren();
      // A read still on its way belongs to the previous opening: it lands nowhere, and says nothing.
      historyReads++;
      history.removeAttribute('aria-busy');
      delete history.dataset.failed;
      if (confirm.open) confirm.close();
      for (const [field, entry] of inputs) {
        const metric = node.data.metrics?.[field];
        const preset = metric?.value ?? null;
        presets.set(field, preset);
        // A default is no stored value: a save of a key without a row starts from nothing.
        bases.set(field, metric?.source === 'saved' ? preset : null);
        entry.input.value = preset === null ? '' : formatValue(preset, entry.column, lang);
        entry.input.readOnly = !editable;
        showSource(field, metric?.source, preset);
        showFieldError(field, undefined);
        renderConflict(field);
      }
      session++;
      setBusy(false);
      if (!dialog.open) dialog.showModal();
      const first = editable ? inputs.values().next().value?.input : cancel;
      first?.focus();
      first instanceof HTMLInputElement && first.select();
    }

    /** @param {boolean} value @param {'save' | 'remove'} [what] */
    function setBusy(value, what = 'save') {
      busy = value;
      form.setAttribute('aria-busy', String(value));
      save.disabled = value;
      saveNext.disabled = value;
      cancel.disabled = value;
      removeButton.disabled = value;
      save.textContent = value && what === 'save' ? labels.saving : labels.save;
      removeButton.textContent = value && what === 'remove' ? labels.removing : labels.remove;
    }

    /**
     * PUTs one entry. A retry of the same entry after no answer (or a server failure) carries the
     * same request id, so a save that did get through is answered, not applied twice; anything else
     * is a new save with a new id.
     * @param {Record<string, unknown>} entry
     */
    async function put(entry) {
      const key = JSON.stringify(entry);
      const requestId = attempt?.key === key ? attempt.id : newRequestId();
      attempt = { key, id: requestId };
      try {
        const answer = await call(
          {},
          {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ requestId, source: 'screen', entries: [entry] }),
          },
        );
        attempt = undefined;
        return answer;
      } catch (error) {
        if (!(error instanceof RequestError && (error.status === 0 || error.status >= 500))) {
          attempt = undefined;
        }
        throw error;
      }
    }

    /** @param {boolean} andNext */
    async function submit(andNext) {
      const node = modalNode;
      if (!node || node.data.editable === false || save.disabled) return;
      // A refused remove's view has done its work once the person saves instead.
      dropConflicts('remove');
      const waiting = waitingConflicts();
      if (waiting.length > 0) {
        formError.classList.remove(`${BLOCK}__form-error--spoken`);
        formError.textContent = fill(labels.chooseFirst, { fields: fieldNames(waiting) });
        formError.hidden = false;
        inputs.get(/** @type {string} */ (waiting[0]))?.conflict.focus();
        return;
      }
      /** @type {Record<string, string | number | null>} */
      const values = {};
      /** @type {Record<string, string | number | null>} */
      const base = {};
      /** @type {HTMLInputElement | undefined} */
      let firstBad;
      for (const [field, entry] of inputs) {
        const checked = checkTyped(entry.column, entry.input.value, lang);
        if (checked.ok) {
          showFieldError(field, undefined);
          // Only what the person changed is sent, with what it was changed from: a field left alone
          // never overwrites what someone else saved meanwhile. A key without a row stores every
          // value the form shows (the defaults the person saw and kept included).
          if (hasRow && sameValue(entry.column, checked.value, presets.get(field))) continue;
          values[field] = checked.value;
          base[field] = bases.get(field) ?? null;
        } else {
          showFieldError(field, fill(labels[checked.problem], checked.params));
          firstBad ??= entry.input;
        }
      }
      if (firstBad) {
        firstBad.focus();
        // Focus that stays on the field (Enter pressed in it) says nothing new: the alert says it.
        formError.textContent = fill(labels.checkField, {
          field: firstBad.labels?.[0]?.textContent ?? firstBad.name,
          problem: inputs.get(firstBad.name)?.error.textContent ?? '',
        });
        // Shown at the field already: the summary is for screen readers only, not a second box.
        formError.classList.add(`${BLOCK}__form-error--spoken`);
        formError.hidden = false;
        return;
      }
      formError.classList.remove(`${BLOCK}__form-error--spoken`);
      formError.hidden = true;
      if (Object.keys(values).length === 0) {
        // Nothing to send: a request would only write the same values again.
        const next = andNext ? nextTask(node) : undefined;
        if (next) {
          modalNode = next;
          focusNode(next, { scroll: true });
          open(next);
          announce(fill(labels.nothingChangedNext, { label: node.data.label, next: next.data.label }));
          return;
        }
        dialog.close();
        announce(fill(labels.nothingChanged, { label: node.data.label }));
        return;
      }
      setBusy(true);
      const mine = session;
      // Whether the dialog still shows this save's activity when its answer comes (a browser may
      // close a dialog on a second Esc even while its cancel is refused).
      const current = () => session === mine && dialog.open;
      /** @type {unknown} */
      let answer;
      try {
        answer = await put({ activity: node.data.id, group: node.data.group ?? null, values, base });
      } catch (error) {
        if (destroyed) return;
        const failure = failureOf(error);
        const conflicted = failure.code === 'METRIC_CONFLICT' && failure.conflicts.length > 0;
        // The tree shows what is stored now.
        if (conflicted) for (const twin of twinsOf(node)) void refreshMetrics(twin);
        if (!current()) {
          // Its dialog is gone: say so aloud rather than on another activity's form.
          announce(
            conflicted
              ? fill(labels.conflictAway, { label: node.data.label })
              : `${node.data.label}: ${fill(labels.saveError, { message: problemOf(failure) })}`,
          );
          return;
        }
        setBusy(false);
        if (conflicted && showConflicts(failure.conflicts, 'save')) return;
        // A field's own problem goes to that field: the path ends in the metric's column.
        const field = failure.path?.match(/^entries\.\d+\.(?:values|base)\.(.+)$/)?.[1];
        if (field !== undefined && inputs.has(field)) {
          showFieldError(field, problemOf(failure));
          inputs.get(field)?.input.focus();
        } else {
          formError.textContent = fill(labels.saveError, { message: problemOf(failure) });
          formError.hidden = false;
        }
        return;
      }
      if (destroyed) return;
      const stillOpen = current();
      if (stillOpen) setBusy(false);
      applySaved(node, answer);
      const next = stillOpen && andNext ? nextTask(node) : undefined;
      if (next) {
        modalNode = next;
        focusNode(next, { scroll: true });
        open(next);
        // Said inside the dialog, which now shows the next activity: both are named.
        announce(fill(labels.savedNext, { label: node.data.label, next: next.data.label }));
        return;
      }
      if (stillOpen) dialog.close();
      announce(fill(labels.saved, { label: node.data.label }));
    }

    /** Removes the activity's saved entry (confirmed first): the defaults apply again. */
    async function removeEntry() {
      const node = modalNode;
      if (!node || node.data.editable === false || busy) return;
      dropConflicts();
      formError.hidden = true;
      /** @type {Record<string, string | number | null>} */
      const base = {};
      for (const field of inputs.keys()) base[field] = bases.get(field) ?? null;
      setBusy(true, 'remove');
      const mine = session;
      const current = () => session === mine && dialog.open;
      /** @type {unknown} */
      let answer;
      try {
        answer = await put({ activity: node.data.id, group: node.data.group ?? null, remove: true, base });
      } catch (error) {
        if (destroyed) return;
        const failure = failureOf(error);
        const conflicted = failure.code === 'METRIC_CONFLICT' && failure.conflicts.length > 0;
        // Removed by someone else already: what the person asked for is so.
        const gone = failure.code === 'ENTRY_NOT_FOUND';
        if (gone) {
          applySaved(node, {
            entries: [
              { activity: node.data.id, group: node.data.group ?? null, stored: null, lastChange: null },
            ],
          });
        } else if (conflicted) {
          for (const twin of twinsOf(node)) void refreshMetrics(twin);
        }
        if (!current()) {
          announce(
            `${node.data.label}: ${gone ? labels.entryGone : fill(labels.removeError, { message: problemOf(failure) })}`,
          );
          return;
        }
        setBusy(false);
        if (gone) {
          dialog.close();
          announce(`${node.data.label}: ${labels.entryGone}`);
          return;
        }
        if (conflicted && showConflicts(failure.conflicts, 'remove')) return;
        formError.textContent = fill(labels.removeError, { message: problemOf(failure) });
        formError.hidden = false;
        removeButton.focus();
        return;
      }
      if (destroyed) return;
      if (current()) {
        setBusy(false);
        dialog.close();
      }
      applySaved(node, answer);
      announce(fill(labels.removed, { label: node.data.label }));
    }

    /** Reads and shows the activity's changes, newest first. */
    async function showHistory() {
      const node = modalNode;
      if (!node) return;
      history.hidden = false;
      historyButton.setAttribute('aria-expanded', 'true');
      historyList.replaceChildren();
      historyState.hidden = false;
      historyState.textContent = labels.historyLoading;
      history.setAttribute('aria-busy', 'true');
      delete history.dataset.failed;
      const read = ++historyReads;
      /** @type {Record<string, string | number>} */
      const params = { part: 'history', activity: node.data.id };
      // A one-level tree keys its rows without a group: the server is asked without one.
      if (node.data.group !== null && node.data.group !== undefined) params.group = node.data.group;
      try {
        /** @type {{ changes: MetricChange[] }} */
        const data = await call(params);
        if (destroyed || read !== historyReads) return;
        for (const change of data.changes) historyList.append(changeItem(change));
        historyState.textContent =
          data.changes.length === 0
            ? labels.historyEmpty
            : data.changes.length >= 100
              ? fill(labels.historyMore, { count: data.changes.length })
              : '';
        historyState.hidden = historyState.textContent === '';
      } catch (error) {
        if (destroyed || read !== historyReads) return;
        historyState.textContent = `${labels.historyError} ${problemOf(error)}`;
        history.dataset.failed = 'true';
      } finally {
        if (read === historyReads) history.removeAttribute('aria-busy');
      }
    }

    /** One line of the history: the field, old → new; when, who, what, from where. @param {MetricChange} change */
    function changeItem(change) {
      const column = metricColumns.find((found) => found.field === change.field);
      const item = create('li', `${BLOCK}__change`);
      const what = create('p', `${BLOCK}__change-what`);
      /** @param {string | null} value */
      const value = (value) =>
        value === null ? labels.empty_value : column === undefined ? value : formatValue(value, column, lang);
      what.append(
        create(
          'span',
          `${BLOCK}__change-field`,
          column === undefined ? humanize(change.field) : metricLabel(column),
        ),
        ' ',
        create('span', `${BLOCK}__change-values`, `${value(change.oldValue)} → ${value(change.newValue)}`),
      );
      const meta = create('p', `${BLOCK}__change-meta`);
      const time = /** @type {HTMLTimeElement} */ (create('time', '', whenText(change.at)));
      time.dateTime = change.at;
      const action =
        change.action === 'insert'
          ? labels.actionInsert
          : change.action === 'update'
            ? labels.actionUpdate
            : change.action === 'clear'
              ? labels.actionClear
              : change.action === 'remove'
                ? labels.actionRemove
                : String(change.action);
      const via =
        change.source === 'screen' ? labels.viaScreen : fill(labels.viaOther, { source: change.source });
      meta.append(time, ` · ${userText(change.user)} · ${action} · ${via}`);
      item.append(what, meta);
      return item;
    }

    return { dialog, status: dialogStatus, setColumns, open };
  }

  /**
   * Takes a save's answer into the tree: every copy of the activity shows the row as stored (and
   * starts its next save from it), with who changed it; an entry without a row any more (removed)
   * is read again, since only the server knows its defaults.
   * @param {TreeNode} node
   * @param {unknown} answer
   */
  function applySaved(node, answer) {
    const entries = /** @type {{ entries?: unknown } | null | undefined} */ (answer)?.entries;
    /** @type {SavedEntry | undefined} */
    const saved = Array.isArray(entries)
      ? entries.find(
          (/** @type {SavedEntry} */ entry) =>
            entry.activity === node.data.id && (entry.group ?? null) === (node.data.group ?? null),
        )
      : undefined;
    for (const twin of twinsOf(node)) {
      twin.saves = (twin.saves ?? 0) + 1;
      if (saved?.stored) {
        const stored = saved.stored;
        /** @type {Record<string, { value: string | number | null, source: string }>} */
        const metrics = { ...twin.data.metrics };
        for (const column of metricColumns) {
          if (column.field in stored)
            metrics[column.field] = { value: stored[column.field] ?? null, source: 'saved' };
        }
        twin.data = { ...twin.data, metrics, lastChange: saved.lastChange ?? null };
      } else if (saved) {
        // Until the re-read answers, nothing is shown as saved: a save started meanwhile starts from no row.
        /** @type {Record<string, { value: string | number | null, source: string }>} */
        const metrics = {};
        for (const column of metricColumns) metrics[column.field] = { value: null, source: 'none' };
        twin.data = { ...twin.data, metrics, lastChange: null };
      }
      const details = twin.item.querySelector(`.${BLOCK}__metrics`);
      if (details instanceof HTMLElement) renderChips(twin, details);
      if (!saved?.stored) void refreshMetrics(twin);
    }
  }

  /** @param {number} id */
  function userText(id) {
    return fill(labels.user, { id });
  }

  /** @type {Intl.DateTimeFormat | undefined} */
  let dateFormat;
  /** A server time in the page's language and the browser's time zone. @param {string} iso */
  function whenText(iso) {
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return iso;
    try {
      dateFormat ??= new Intl.DateTimeFormat(lang || undefined, { dateStyle: 'medium', timeStyle: 'short' });
    } catch {
      // A lang the browser cannot format in: its own language.
      dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    }
    return dateFormat.format(date);
  }

  /** "A, B and C" in the page's language. @param {string[]} items */
  function listText(items) {
    try {
      return new Intl.ListFormat(lang || undefined, { type: 'conjunction' }).format(items);
    } catch {
      return items.join(', ');
    }
  }

  /** @param {string | undefined} source @param {string | number | null | undefined} [value] */
  function sourceText(source, value) {
    switch (source) {
      case 'saved':
        // The server says `saved` for every field of a row: an empty one was saved empty, on purpose.
        return value === null || value === undefined ? labels.sourceSavedEmpty : labels.sourceSaved;
      case 'default:value':
        return labels.sourceValue;
      case 'default:field':
        return labels.sourceField;
      case 'default:taskSheet':
        return labels.sourceTaskSheet;
      default:
        return labels.sourceNone;
    }
  }

  /** The next activity after `node` among the items a person can reach now. @param {TreeNode} node */
  function nextTask(node) {
    // A read-only activity has nothing to enter: the chain goes on past it.
    for (let next = nextVisible(node); next; next = nextVisible(next)) {
      if (next.data.kind === 'task' && next.data.editable !== false) return next;
    }
    return undefined;
  }

  /**
   * Every node showing the same metric row as `node` (same activity, same parent group), itself
   * included: the tree shows an activity under each node its group hangs from.
   * @param {TreeNode} node
   */
  function twinsOf(node) {
    const twins = [...nodeOf.values()].filter(
      (other) =>
        other.data.kind === 'task' && other.data.id === node.data.id && other.data.group === node.data.group,
    );
    return twins.includes(node) ? twins : [node, ...twins];
  }

  /** @param {TreeNode} node */
  function openModal(node) {
    modalNode = node;
    modal.open(node);
  }

  return {
    state: () => state,
    destroy() {
      if (destroyed) return;
      destroyed = true;
      lifetime.abort();
      searchRequest?.abort();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      moreObserver?.disconnect();
      if (modal.dialog.open) modal.dialog.close();
      nodeOf.clear();
      element.replaceChildren();
      element.classList.remove(BLOCK);
      if (!hadClass) element.removeAttribute('class');
      delete element.dataset.state;
      element.removeAttribute('aria-busy');
    },
  };
}

/**
 * Registers `<association-screen endpoint="/associationtask" task-sheet="42">`, which mounts the
 * screen when connected and destroys it when removed. Safe to call twice.
 * @param {string} [name]
 */
export function defineAssociationScreen(name = 'association-screen') {
  if (typeof customElements === 'undefined' || customElements.get(name)) return;
  customElements.define(
    name,
    class extends HTMLElement {
      /** @type {ScreenController | undefined} */
      #screen;

      connectedCallback() {
        const taskSheet = this.getAttribute('task-sheet') ?? '';
        // Strict digits: `Number('')` is 0 and `Number(' 1e3 ')` is 1000, neither meant by markup.
        if (!/^[1-9]\d{0,15}$/.test(taskSheet)) {
          throw new RangeError(
            `<${name}>: task-sheet must be a task sheet SEQ_DB, got ${JSON.stringify(taskSheet)}`,
          );
        }
        this.#screen = mountAssociationScreen(this, {
          endpoint: this.getAttribute('endpoint') || this.ownerDocument.location.pathname,
          taskSheet: Number(taskSheet),
        });
      }

      disconnectedCallback() {
        this.#screen?.destroy();
        this.#screen = undefined;
      }
    },
  );
}

defineAssociationScreen();
