// @ts-check
/**
 * Every text the association screen shows, in English and Brazilian Portuguese: a host replaces any
 * of them through `labels` (see `ScreenLabels` for what each says and which `{name}` parts it fills).
 */

import { LABELS_EN } from './labels-en.js';
import { LABELS_PT_BR } from './labels-pt-br.js';

export { LABELS_EN, LABELS_PT_BR };

/**
 * Every text the screen shows but the offline parts' (offline-labels.js) and the drafts' (draft-labels.js). `{name}` parts are
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
 * @property {string} searchError the search failed (no answer, or the server's failure): worth trying again
 * @property {string} searchOffline the search got no answer and the device says it is offline
 * @property {string} searchRefused the server refused the text searched for (too many words or characters)
 * @property {string} readOnly a read-only activity, in the tree and in the modal
 * @property {string} readOnlyNotice the modal's explanation of a read-only row
 * @property {string} save
 * @property {string} saveNext "Save and next"
 * @property {string} cancel
 * @property {string} close the read-only modal's close button
 * @property {string} saving while a save is under way
 * @property {string} saved announced after a save, `{label}`
 * @property {string} answerLost the modal's save was sent and got no answer (and could not be kept in
 *   the outbox to be sent again): it may be stored, the values stay, and Save sends it again
 * @property {string} saveError a save failed; the typed values are kept, `{message}`
 * @property {string} networkError a request never got an answer
 * @property {string} checkField a typed value the browser refused, said aloud: `{field}` `{problem}`
 * @property {string} nextUnreadable "Save and next" could not read the branch the next activity is in
 * @property {string} closeFirst Decide of an outbox entry `{label}` reached the modal while another activity was open in it
 * @property {string} savedNext "Save and next" saved `{label}` and now shows `{next}`
 * @property {string} refusedValue the server refused a value the browser let through (the column
 *   changed meanwhile, say); `{detail}` is the server's own sentence, in English
 * @property {string} busy another save of this task sheet's scope held the server too long (METRICS_BUSY)
 * @property {string} slowServer the database did not answer in time (DATABASE_TIMEOUT)
 * @property {string} serverFailed the server failed (a 500): its operators were told
 * @property {string} signedOut the host refused a request as from no one signed in (a 401 or 403 not
 *   the handler's own): the person's session ended (a save's words add that the values are kept)
 * @property {string} signedInElsewhere why a save was refused for its owner (OWNER_CHANGED): someone
 *   else signed in on this browser since the page was opened (the page's notice says it too)
 * @property {string} crossSite the handler refused a save as from another site (CROSS_SITE_REQUEST):
 *   the host is set up so that its own pages' saves look cross-site; no try of the person's changes
 *   it, their administrator must
 * @property {string} readOnlyRow the saved row became read-only (READ_ONLY_ROW)
 * @property {string} inactiveRow the saved row was made inactive (INACTIVE_ROW)
 * @property {string} notInTree the activity or node left the tree since the page read it
 * @property {string} sourceSaved where a preset came from: a saved value
 * @property {string} sourceValue a fixed default
 * @property {string} sourceField a default from the activity's column
 * @property {string} sourceTaskSheet a default from the task sheet's column
 * @property {string} sourceUnread its entry was removed, and what applies now is not read yet
 * @property {string} sourceNone no preset
 * @property {string} chipSaved short source in the tree: saved
 * @property {string} chipDefault short source in the tree: default
 * @property {string} notNumber value is no number
 * @property {string} notWhole value is no whole number
 * @property {string} ambiguousPoint pt-BR: a point without a decimal comma ("1.5", "1.500"), read two ways
 * @property {string} ambiguousComma English: a comma without a decimal point ("1,5", "1,500"), read two ways
 * @property {string} ambiguousThousands a group of three ending in zero after the other language's thousands mark ("12.500" in English, "1,000" in pt-BR), which reads as decimals only by dropping its zeros
 * @property {string} floatDigits a FLOAT would round what is typed to its single-precision number
 * @property {string} doubleDigits more significant digits than a DOUBLE keeps
 * @property {string} notNegative a negative number in a column that keeps none (unsigned floating point)
 * @property {string} tooManyDecimals more decimals than the column keeps, `{scale}`
 * @property {string} tooManyDecimalsOne more decimals than a column of one decimal place keeps
 * @property {string} tooManyDigits more digits before the point than the column keeps, `{digits}`
 * @property {string} outOfRange outside the column's range, `{min}` `{max}`
 * @property {string} required the column is NOT NULL
 * @property {string} tooLong longer than the column, `{max}`
 * @property {string} brokenCharacter half of a UTF-16 pair alone (a broken paste), which no column holds,
 *   `{at}` its place in characters
 * @property {string} foreignCharacter a character the column's character set cannot hold (an emoji in a
 *   utf8mb3 column), `{character}`
 * @property {string} tooManyBytes longer than a TEXT column's bytes (or the history's 64 KB), `{bytes}`, `{max}`
 * @property {string} empty_value what the tree shows for a metric without value
 * @property {string} sourceSavedEmpty where a preset came from: a value saved empty (cleared)
 * @property {string} nothingChanged Save pressed with nothing changed: nothing is sent, `{label}`
 * @property {string} nothingChangedNext the same from "Save and next", `{label}` `{next}`
 * @property {string} lastChange who last changed the activity's metrics, `{user}` `{at}`
 * @property {string} neverSaved the activity has no saved entry (what the form shows are defaults)
 * @property {string} user a user, `{id}` the user's SEQ_DB
 * @property {string} userYou the page's own user, where a user is named (last change, history)
 * @property {string} userYouElsewhere the page's own user, where a conflict names who changed a value
 *   meanwhile (another of their tabs or devices)
 * @property {string} conflictSummary a save refused because fields changed meanwhile (by anyone: who is said at each), `{fields}`
 * @property {string} conflictTitle at a field: who changed it meanwhile and when, `{user}` `{at}`
 * @property {string} conflictTitleUnknown at a field: changed meanwhile, by whom not known (yet)
 * @property {string} conflictTheirs the value stored now
 * @property {string} conflictYours the value this save asked for
 * @property {string} conflictEmpty a value that is empty (cleared)
 * @property {string} conflictRemoved what applies now at a field whose entry was removed meanwhile:
 *   its default, `{value}`
 * @property {string} conflictRemovedUnread the same, before the activity is read again (its
 *   default not known yet)
 * @property {string} conflictYoursRemove what a refused remove asked for
 * @property {string} keepMine button: keep the typed value over the stored one
 * @property {string} keepMineFor its accessible name, `{field}`
 * @property {string} useTheirs button: take the stored value
 * @property {string} useTheirsFor its accessible name, `{field}`
 * @property {string} keptMine at a field after "Keep mine", `{theirs}` the value it will replace
 * @property {string} conflictsResolved every conflict has its choice: save again
 * @property {string} chooseFirst Save pressed while conflicts wait for a choice, `{fields}`
 * @property {string} removeConflict a remove refused because fields changed meanwhile, `{fields}`
 * @property {string} conflictAway a save refused for a conflict after its dialog moved on, `{label}`
 * @property {string} remove the button that removes the activity's saved entry
 * @property {string} cancelTitle the question's title when Cancel would drop what was typed
 * @property {string} cancelText its text, `{label}`
 * @property {string} cancelKeep its answer that keeps the typing (and the dialog) open
 * @property {string} cancelDiscard its answer that drops the typing and closes
 * @property {string} removeTitle the confirmation's title
 * @property {string} removeText the confirmation's text, `{label}`
 * @property {string} removeConfirm the confirmation's button that removes
 * @property {string} removeCancel the confirmation's button that keeps the entry
 * @property {string} removing while a remove is under way
 * @property {string} removed announced after a remove, `{label}`
 * @property {string} removeAnswerLost the modal's remove was sent and got no answer (and could not be
 *   kept in the outbox to be sent again): the entry may be removed, and Remove entry sends it again
 * @property {string} removeError a remove failed, `{message}`
 * @property {string} savedEarlier an outbox entry an earlier sending of its batch stored (its answer lost)
 * @property {string} entryGone the entry was removed meanwhile (ENTRY_NOT_FOUND)
 * @property {string} readingDefaults an activity whose entry was removed is read again before it can be saved
 * @property {string} defaultsUnread that read failed: Save stays off
 * @property {string} removeWaits a form whose entry's remove waits in the outbox: nothing can be saved
 *   until it is sent, when the form opens again by itself
 * @property {string} decideUnread Decide on an activity whose entry was removed and what applies is unread ({label})
 * @property {string} conflictDefaultsUnread a conflict said the entry was removed meanwhile and what
 *   applies now could not be read: nothing is sent, and "Use theirs" takes nothing, until it is
 * @property {string} tooLarge an entry too large for one request (413 BODY_TOO_LARGE, or a proxy's
 *   413), with the values it replaces
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
 * @property {string} viaApi a history line's source: a program, through the HTTP API or the library
 * @property {string} viaOffline a history line's source: kept on the device without signal, sent later
 * @property {string} viaCopy a history line's source: values copied from a previous task sheet
 * @property {string} viaOther a history line's source the page has no words for, `{source}` as written
 * @property {string} viewSwitch the control that switches between the tree and the table
 * @property {string} viewTree the tree view's button
 * @property {string} viewTable the table view's button
 * @property {string} table accessible name of the table (grid) of the sheet's activities
 * @property {string} tableActivity the table's first column header
 * @property {string} tableLoading while the table's first rows load
 * @property {string} tableLoadingMore while the rest loads, `{count}` of `{total}`
 * @property {string} tableError the table could not be loaded
 * @property {string} tableRetry reads the table's rows again, from the page that could not be read
 * @property {string} tableEmpty the table (or its filter) has no row
 * @property {string} tableSave the table's save button
 * @property {string} tableChanged how many cells are changed and not saved, `{count}`
 * @property {string} tableChangedOne one cell changed and not saved
 * @property {string} tableNothing Save pressed with nothing changed
 * @property {string} tableSaved after a table save, `{count}` activities
 * @property {string} tableSavedOne after a table save of one activity
 * @property {string} tableQueued a table save kept on this device to be sent later, `{count}` activities
 * @property {string} tableQueuedOne the same, for one activity
 * @property {string} tableCheck a table save stopped by cells the browser refused, `{count}`
 * @property {string} tableCheckOne the same, for one cell
 * @property {string} tableConflicts a table save refused because cells changed meanwhile, `{count}`
 * @property {string} tableConflictsOne the same, for one cell
 * @property {string} tableConflictCell at a cell: who changed it meanwhile, `{user}` `{at}` `{theirs}`
 * @property {string} tableConflictCellUnknown at a cell: changed meanwhile, `{theirs}`
 * @property {string} tableRowNotInTree at each cell of a row a save was refused for: the activity left the sheet's tree (NOT_IN_TREE)
 * @property {string} tableRowReadOnly the same: its metrics became read-only (READ_ONLY_ROW)
 * @property {string} tableRowInactive the same: its metrics were made inactive (INACTIVE_ROW)
 * @property {string} tableRowRefused a table save refused for one row itself, `{label}` (its values are not sent again)
 * @property {string} tableRowUnread at each changed cell of a row whose entry was removed meanwhile and whose values now could not be read: not sent
 * @property {string} tableRowRemoveWaits the same at a row whose own remove waits in the outbox (this device's): not sent
 * @property {string} tableRowRemoveStopped the same at a row whose own remove stopped in the outbox (a decision waits): not sent
 * @property {string} tableRowsUnread a table save that left such rows out (either kind), `{count}`
 * @property {string} tableRowsUnreadOne the same, for one row
 * @property {string} tableRowOthers after it, when other changes wait: Save again saves them
 * @property {string} tablePartly a save split in batches stopped after some were written, `{saved}` `{message}`
 * @property {string} tableAnswerLost a save's batch got no answer and is too large for the room left in
 *   the outbox: it may have been stored, its changes are kept, and Save changes sends it again (applied once)
 * @property {string} tableFilterEmpty the filter for activities still without values
 * @property {string} tableFilterOff said after a save's alert when the filter was turned off to show
 *   the cell it marked, in a row the filter hid
 * @property {string} sourceCopied where a cell's value came from: copied from sheet `{id}`, not saved yet
 * @property {string} sourceConfirmed a cell of an activity without an entry the person typed its
 *   preset into, to record it, not saved yet
 * @property {string} sourceEdited a cell changed and not saved yet
 * @property {string} sourcePending a cell's value kept in the outbox, not sent yet
 * @property {string} sourceStopped a cell's value kept in the outbox and stopped there (a conflict, a
 *   refusal): not sent until the person decides in the list of waiting entries
 * @property {string} markSaved a cell's source in one word, where the screen is narrow (a phone): saved
 * @property {string} markDefault the same: a default
 * @property {string} markCopied the same: copied, not saved
 * @property {string} markEdited the same: changed, not saved
 * @property {string} markEntered the same: a default typed again to record it, not saved
 * @property {string} markPending the same: kept on this device, not sent
 * @property {string} markStopped the same: stopped in the outbox, waiting for a decision
 * @property {string} markConflict the same: refused for a conflict
 * @property {string} markError the same: a value to check
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
 * @property {string} copyDoneOne the same, for one activity, from sheet `{id}`
 * @property {string} copyKept after a copy: activities already saved here were left, `{count}`
 * @property {string} copyKeptOne the same, for one activity
 * @property {string} copyNothing the sheet copied from has no values for these activities, `{id}`
 * @property {string} copyError a copy failed, `{message}`
 * @property {string} copyBadSheet the sheet to copy from is no number
 * @property {string} copyReading the copy (or a paste reaching past the rows read) waits for the table to
 *   read the rest of the sheet
 * @property {string} copyUnread a page of the sheet could not be read: nothing was copied
 * @property {string} pasted after a paste, `{count}` cells filled
 * @property {string} pastedOne after a paste, one cell filled
 * @property {string} pastedSkipped after a paste: cells left (read-only or past the table), `{count}`
 * @property {string} pastedSkippedOne the same, one cell
 * @property {string} pastedUnread after a paste: cells left in rows the sheet's later pages hold,
 *   which could not be read, `{count}`
 * @property {string} pastedUnreadOne the same, one cell
 * @property {string} pastedKept after a paste that waited for the sheet's later pages: cells typed in
 *   meanwhile, which keep what was typed, `{count}`
 * @property {string} pastedKeptOne the same, one cell
 */

/** Every text the screen shows. @typedef {CoreLabels & OfflineLabels & DraftLabels} ScreenLabels */
/** @typedef {import('./offline-labels.js').OfflineLabels} OfflineLabels */
/** @typedef {import('./draft-labels.js').DraftLabels} DraftLabels */

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

/**
 * What a value the person changed says of itself, with its kind (the table cell's colour and word,
 * the modal field's `data-source`): copied from a sheet, entered (a default typed again in an
 * activity without an entry, to record it: table-cells.js `confirmed`), or changed. The table and
 * the modal say it alike.
 * @param {ScreenLabels} labels
 * @param {{ copied: number | undefined, entered: boolean }} how
 * @returns {{ kind: 'copied' | 'entered' | 'edited', text: string }}
 */
export function changedNote(labels, { copied, entered }) {
  if (copied !== undefined) return { kind: 'copied', text: fill(labels.sourceCopied, { id: copied }) };
  return entered
    ? { kind: 'entered', text: labels.sourceConfirmed }
    : { kind: 'edited', text: labels.sourceEdited };
}
