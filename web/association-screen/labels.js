// @ts-check
/**
 * Every text the association screen shows, in English and Brazilian Portuguese: a host replaces any
 * of them through `labels` (see `ScreenLabels` for what each says and which `{name}` parts it fills).
 */

import { OFFLINE_LABELS_EN, OFFLINE_LABELS_PT_BR } from './offline-labels.js';

/**
 * Every text the screen shows but the offline parts' (offline-labels.js). `{name}` parts are
 * filled in; everything else is shown as written.
 * @typedef {object} CoreLabels
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
 * @property {string} viewSwitch the control that switches between the tree and the table
 * @property {string} viewTree the tree view's button
 * @property {string} viewTable the table view's button
 * @property {string} table accessible name of the table (grid) of the sheet's activities
 * @property {string} tableActivity the table's first column header
 * @property {string} tableLoading while the table's first rows load
 * @property {string} tableLoadingMore while the rest loads, `{count}` of `{total}`
 * @property {string} tableError the table could not be loaded
 * @property {string} tableEmpty the table (or its filter) has no row
 * @property {string} tableSave the table's save button
 * @property {string} tableChanged how many cells are changed and not saved, `{count}`
 * @property {string} tableChangedOne one cell changed and not saved
 * @property {string} tableNothing Save pressed with nothing changed
 * @property {string} tableSaved after a table save, `{count}` activities
 * @property {string} tableSavedOne after a table save of one activity
 * @property {string} tableCheck a table save stopped by cells the browser refused, `{count}`
 * @property {string} tableConflicts a table save refused because others changed cells meanwhile, `{count}`
 * @property {string} tableConflictCell at a cell: who changed it meanwhile, `{user}` `{at}` `{theirs}`
 * @property {string} tableConflictCellUnknown at a cell: changed meanwhile, `{theirs}`
 * @property {string} tablePartly a save split in batches stopped after some were written, `{saved}` `{message}`
 * @property {string} tableFilterEmpty the filter for activities still without values
 * @property {string} sourceCopied where a cell's value came from: copied from sheet `{id}`, not saved yet
 * @property {string} sourceEdited a cell changed and not saved yet
 * @property {string} chipCopied short source in the table: copied
 * @property {string} chipEdited short source in the table: changed
 * @property {string} progress how many activities have values, `{filled}` `{total}`
 * @property {string} progressShort a group's count, `{filled}` `{total}`
 * @property {string} progressGroups the disclosure of the counts per group
 * @property {string} copyPrevious the button (and dialog title) that fills the table from another sheet
 * @property {string} copyFrom the field naming another sheet to copy from
 * @property {string} copyLeaveEmpty the group of metrics to leave empty
 * @property {string} copyConfirm the copy dialog's button that copies
 * @property {string} copyNone there is no earlier sheet to copy from
 * @property {string} copyDone after a copy, `{count}` activities from sheet `{id}`
 * @property {string} copyKept after a copy: activities already saved here were left, `{count}`
 * @property {string} copyNothing the sheet copied from has no values for these activities, `{id}`
 * @property {string} copyError a copy failed, `{message}`
 * @property {string} copyBadSheet the sheet to copy from is no number
 * @property {string} pasted after a paste, `{count}` cells filled
 * @property {string} pastedSkipped after a paste: cells left (read-only or past the table), `{count}`
 */

/** Every text the screen shows. @typedef {CoreLabels & OfflineLabels} ScreenLabels */
/** @typedef {import('./offline-labels.js').OfflineLabels} OfflineLabels */

/** @type {ScreenLabels} */
export const LABELS_EN = {
  ...OFFLINE_LABELS_EN,
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
  viewSwitch: 'View',
  viewTree: 'Tree',
  viewTable: 'Table',
  table: 'Activities and metrics',
  tableActivity: 'Activity',
  tableLoading: 'Loading the activities…',
  tableLoadingMore: 'Loading the activities: {count} of {total}…',
  tableError: 'The activities could not be loaded.',
  tableEmpty: 'No activity to show.',
  tableSave: 'Save changes',
  tableChanged: '{count} unsaved changes',
  tableChangedOne: '1 unsaved change',
  tableNothing: 'Nothing changed: nothing to save.',
  tableSaved: 'Saved {count} activities.',
  tableSavedOne: 'Saved 1 activity.',
  tableCheck: 'Not saved: check the {count} marked cells.',
  tableConflicts:
    'Not saved: someone else changed {count} cells meanwhile (marked). Save again to keep yours, or press Escape in a cell to take the stored value.',
  tableConflictCell: 'Changed meanwhile by {user}, {at}: stored now {theirs}.',
  tableConflictCellUnknown: 'Changed meanwhile by someone else: stored now {theirs}.',
  tablePartly: 'Saved {saved} activities; the rest were not saved: {message} Their changes are kept.',
  tableFilterEmpty: 'Only activities without values',
  sourceCopied: 'Copied from sheet {id}, not saved yet',
  sourceEdited: 'Changed, not saved yet',
  chipCopied: 'copied',
  chipEdited: 'changed',
  progress: '{filled} of {total} activities have values',
  progressShort: '{filled} of {total}',
  progressGroups: 'Progress by group',
  copyPrevious: 'Copy from the previous sheet',
  copyFrom: 'Sheet to copy from (empty: the previous one)',
  copyLeaveEmpty: 'Leave these empty',
  copyConfirm: 'Copy',
  copyNone: 'There is no earlier task sheet to copy from.',
  copyDone: 'Copied {count} activities from sheet {id}. Check them, then press Save changes.',
  copyKept: '{count} with values already saved here were left as they are.',
  copyNothing: 'Sheet {id} has no saved values to copy here.',
  copyError: 'Could not copy: {message}',
  copyBadSheet: 'Enter a task sheet number, or leave it empty.',
  pasted: 'Pasted {count} cells.',
  pastedSkipped: '{count} cells were left (read-only or past the end).',
};

/** @type {ScreenLabels} */
export const LABELS_PT_BR = {
  ...OFFLINE_LABELS_PT_BR,
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
  viewSwitch: 'Visualização',
  viewTree: 'Árvore',
  viewTable: 'Tabela',
  table: 'Atividades e métricas',
  tableActivity: 'Atividade',
  tableLoading: 'Carregando as atividades…',
  tableLoadingMore: 'Carregando as atividades: {count} de {total}…',
  tableError: 'Não foi possível carregar as atividades.',
  tableEmpty: 'Nenhuma atividade para mostrar.',
  tableSave: 'Salvar alterações',
  tableChanged: '{count} alterações não salvas',
  tableChangedOne: '1 alteração não salva',
  tableNothing: 'Nada mudou: nada a salvar.',
  tableSaved: '{count} atividades salvas.',
  tableSavedOne: '1 atividade salva.',
  tableCheck: 'Não salvo: confira as {count} células marcadas.',
  tableConflicts:
    'Não salvo: outra pessoa alterou {count} células enquanto isso (marcadas). Salve de novo para manter os seus valores, ou pressione Esc numa célula para usar o valor salvo.',
  tableConflictCell: 'Alterado enquanto isso por {user}, {at}: salvo agora {theirs}.',
  tableConflictCellUnknown: 'Alterado enquanto isso por outra pessoa: salvo agora {theirs}.',
  tablePartly:
    '{saved} atividades salvas; as demais não foram salvas: {message} As alterações delas foram mantidas.',
  tableFilterEmpty: 'Só atividades sem valores',
  sourceCopied: 'Copiado da folha {id}, ainda não salvo',
  sourceEdited: 'Alterado, ainda não salvo',
  chipCopied: 'copiado',
  chipEdited: 'alterado',
  progress: '{filled} de {total} atividades com valores',
  progressShort: '{filled} de {total}',
  progressGroups: 'Progresso por grupo',
  copyPrevious: 'Copiar da folha anterior',
  copyFrom: 'Folha de origem (vazio: a anterior)',
  copyLeaveEmpty: 'Deixar estas vazias',
  copyConfirm: 'Copiar',
  copyNone: 'Não há folha de tarefa anterior para copiar.',
  copyDone: '{count} atividades copiadas da folha {id}. Confira e pressione Salvar alterações.',
  copyKept: '{count} com valores já salvos aqui ficaram como estavam.',
  copyNothing: 'A folha {id} não tem valores salvos para copiar aqui.',
  copyError: 'Não foi possível copiar: {message}',
  copyBadSheet: 'Digite o número de uma folha de tarefa, ou deixe vazio.',
  pasted: '{count} células coladas.',
  pastedSkipped: '{count} células ficaram de fora (somente leitura ou além do fim).',
};

/**
 * The built-in texts for a language: Brazilian Portuguese for any `pt`, English otherwise.
 * @param {string | null | undefined} lang
 * @returns {ScreenLabels}
 */
export function labelsFor(lang) {
  return isPortuguese(lang) ? LABELS_PT_BR : LABELS_EN;
}

/**
 * Whether a language is written as Brazilian Portuguese writes (any `pt`): decimal comma, day first.
 * @param {string | null | undefined} lang
 */
export function isPortuguese(lang) {
  return (lang ?? '').toLowerCase().startsWith('pt');
}

/**
 * A text with its `{name}` parts filled in; a part without a value stays as written.
 * @param {string} template
 * @param {Record<string, string | number>} [params]
 */
export function fill(template, params = {}) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}
