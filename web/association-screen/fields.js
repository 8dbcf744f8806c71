// @ts-check
/**
 * The modal's inputs, one per metric column: typed from the column (the phone's number keyboard,
 * required when NOT NULL), each with where its preset came from, its problem and its conflict, and
 * what it started from (its preset, and the base a save sends with it).
 */

import { BLOCK } from './dom.js';
import { changedNote, fill } from './labels.js';
import {
  checkTyped,
  formatValue,
  holdsNotes,
  isCharacter,
  isFractional,
  isWholeNumber,
  metricLabel,
  sameValue,
} from './values.js';

/** @typedef {import('./api.js').MetricColumn} MetricColumn */
/** @typedef {import('./api.js').MetricValue} MetricValue */

/**
 * One metric's input and what is shown around it.
 * @typedef {object} Field
 * @property {HTMLInputElement | HTMLTextAreaElement} input a `<textarea>` while the field holds a
 *   text with a line break (an `<input>` would drop it), an `<input>` otherwise
 * @property {HTMLLabelElement} label
 * @property {HTMLElement} source where the preset came from
 * @property {HTMLElement} error the field's problem
 * @property {HTMLElement} conflict what a refused save says of the field
 * @property {MetricColumn} column
 */

/** @param {import('./dom.js').ScreenContext} ctx */
export function createFields(ctx) {
  const { create } = ctx;
  const root = create('div', `${BLOCK}__fields`);
  /** @type {Map<string, Field>} */
  const inputs = new Map();
  /** What each input was preset with (the server's value): a field is changed when its typed value differs. */
  /** @type {Map<string, MetricValue>} */
  const presets = new Map();
  /** What each field's save starts from: the stored value when the key has a row, else null. */
  /** @type {Map<string, MetricValue>} */
  const bases = new Map();
  /**
   * The fields the person typed in since they were preset: what they did, not what the input shows
   * now (an `<input>` shown a text with a line break shows it without, though nobody touched it).
   * @type {Set<string>}
   */
  const edited = new Set();
  /**
   * The fields holding a value the table copied from another sheet (by that sheet's SEQ_DB), not
   * typed: said so, and saved as a copy, until the person types in the field.
   * @type {Map<string, number>}
   */
  const copied = new Map();
  /**
   * The fields a draft of the table's row holds confirmed (table-cells.js `confirmed`): a default
   * typed again there to record it, counted as the person's change though it reads as its preset,
   * until the field is emptied. The modal's own typing confirms nothing: its Save of an activity
   * without an entry stores every value it shows anyway, and a value typed back to what the field
   * showed is no draft of its own.
   * @type {Set<string>}
   */
  const confirmed = new Set();
  /** Where each field's preset came from, and the preset: what its line says while it is not changed. */
  /** @type {Map<string, { source: string | undefined, value: MetricValue | undefined }>} */
  const sources = new Map();

  /** @param {readonly MetricColumn[]} columns */
  function setColumns(columns) {
    root.replaceChildren();
    inputs.clear();
    sources.clear();
    edited.clear();
    copied.clear();
    confirmed.clear();
    for (const column of columns) {
      const field = create('div', `${BLOCK}__field`);
      const id = `${ctx.uid}-metric-${column.field}`;
      const label = create('label', `${BLOCK}__field-label`, metricLabel(column));
      label.htmlFor = id;
      label.id = `${id}-label`;
      const input = control(column, id, holdsNotes(column.dataType));
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
      field.append(label, input, source, error, conflict);
      root.append(field);
      inputs.set(column.field, { input, label, source, error, conflict, column });
    }
  }

  /**
   * A field's control: a `<textarea>` (`multiline`) or an `<input>`, typed from its column. Typing
   * in it marks the field as changed by the person.
   * @param {MetricColumn} column @param {string} id @param {boolean} multiline
   */
  function control(column, id, multiline) {
    const input = multiline
      ? create('textarea', `${BLOCK}__input ${BLOCK}__input--lines`)
      : create('input', `${BLOCK}__input`);
    input.id = id;
    input.name = column.field;
    if (input instanceof HTMLInputElement) input.type = 'text';
    else input.rows = 3;
    input.autocomplete = 'off';
    input.inputMode = isWholeNumber(column.dataType)
      ? 'numeric'
      : isFractional(column.dataType)
        ? 'decimal'
        : 'text';
    // A NOT NULL column: said before the person tries to save, not only when a save is refused.
    if (!column.nullable) input.setAttribute('aria-required', 'true');
    input.addEventListener('input', () => {
      edited.add(column.field);
      copied.delete(column.field);
      typedNow(column.field, input.value);
      showError(column.field, undefined);
      sayWhere(column.field);
    });
    if (input instanceof HTMLInputElement && isCharacter(column.dataType)) {
      input.addEventListener('paste', (event) => pasteLines(column.field, input, event));
    }
    return input;
  }

  /**
   * Text of several lines pasted into a one-line field: an `<input>` would join the lines (Chromium
   * puts a space for each break), changing the text unseen. The field becomes a `<textarea>`
   * holding it as pasted, the caret after it.
   * @param {string} field @param {HTMLInputElement} input @param {ClipboardEvent} event
   */
  function pasteLines(field, input, event) {
    const pasted = event.clipboardData?.getData('text/plain') ?? '';
    const entry = inputs.get(field);
    if (!/[\r\n]/.test(pasted) || !entry || input.readOnly) return;
    event.preventDefault();
    const start = input.selectionStart ?? input.value.length;
    const end = input.selectionEnd ?? start;
    const lines = pasted.replace(/\r\n?/g, '\n');
    showText(entry, input.value.slice(0, start) + lines + input.value.slice(end));
    edited.add(field);
    copied.delete(field);
    typedNow(field, entry.input.value);
    showError(field, undefined);
    sayWhere(field);
    const caret = start + lines.length;
    entry.input.focus();
    entry.input.setSelectionRange(caret, caret);
  }

  /**
   * A field typed in (or pasted into) now holds `text`: a confirmation taken from the table stays
   * (the same default typed again keeps it), an emptied field's goes.
   * @param {string} field @param {string} text
   */
  function typedNow(field, text) {
    if (text.trim() === '') confirmed.delete(field);
  }

  /**
   * Shows `text` in a field's control, a `<textarea>` in place of the `<input>` while the text has
   * a line break (and back once it has none), so what is shown is what is kept and sent; a column
   * of notes keeps its `<textarea>`.
   * @param {Field} entry @param {string} text
   */
  function showText(entry, text) {
    const multiline = holdsNotes(entry.column.dataType) || /[\r\n]/.test(text);
    if (multiline !== entry.input instanceof HTMLTextAreaElement) {
      const old = entry.input;
      const input = control(entry.column, old.id, multiline);
      for (const name of ['aria-describedby', 'aria-invalid']) {
        const value = old.getAttribute(name);
        if (value !== null) input.setAttribute(name, value);
      }
      input.readOnly = old.readOnly;
      old.replaceWith(input);
      entry.input = input;
    }
    entry.input.value = text;
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

  /** @param {string} field @param {string | undefined} text undefined: no problem */
  function showError(field, text) {
    const entry = inputs.get(field);
    if (!entry) return;
    entry.error.textContent = text ?? '';
    entry.error.hidden = text === undefined;
    entry.input.setAttribute('aria-invalid', String(text !== undefined));
    describe(field);
  }

  /** @param {string} field @param {string | undefined} source @param {MetricValue | undefined} value */
  function showSource(field, source, value) {
    sources.set(field, { source, value });
    sayWhere(field);
  }

  /**
   * The field's line: where its preset came from, or, once the person changed what it holds, that
   * it is changed and not saved (as the table's cell says): a value typed over a saved one, or the
   * person's own value being decided, is never said to be saved.
   * @param {string} field
   */
  function sayWhere(field) {
    const entry = inputs.get(field);
    if (!entry) return;
    const { source, value } = sources.get(field) ?? { source: undefined, value: undefined };
    const note = holdsChange(entry, field)
      ? changedNote(ctx.labels, {
          copied: copied.get(field),
          entered: confirmed.has(field) && !differs(entry, field),
        })
      : undefined;
    entry.source.textContent = note?.text ?? ctx.say.source(source, value);
    entry.source.dataset.source = note?.kind ?? source ?? 'none';
  }

  /** Whether the input holds other than its preset (or what cannot be read as a value). @param {Field} entry @param {string} field */
  function differs(entry, field) {
    const checked = checkTyped(entry.column, entry.input.value, ctx.lang);
    return !checked.ok || !sameValue(entry.column, checked.value, presets.get(field) ?? null);
  }

  /**
   * Whether the field holds a change of the person's: typed and other than its preset, or copied
   * from another sheet or confirmed in the table, which count even when they equal the preset (they
   * are meant to be saved, as the table's cells are). @param {Field} entry @param {string} field
   */
  function holdsChange(entry, field) {
    return edited.has(field) && (copied.has(field) || confirmed.has(field) || differs(entry, field));
  }

  /**
   * Presets a field: the input shows `value` as the page's language writes it, the field starts from
   * it, and says where it came from.
   * @param {string} field @param {MetricValue} value @param {MetricValue} base @param {string | undefined} source
   */
  function preset(field, value, base, source) {
    const entry = inputs.get(field);
    if (!entry) return;
    presets.set(field, value);
    bases.set(field, base);
    edited.delete(field);
    copied.delete(field);
    confirmed.delete(field);
    showText(entry, value === null ? '' : formatValue(value, entry.column, ctx.lang));
    showSource(field, source, value);
    showError(field, undefined);
  }

  /**
   * A field the person changed starts from another stored value (the entry was made meanwhile): its
   * input keeps what they typed, and it is changed against what is stored now.
   * @param {string} field @param {MetricValue} value @param {MetricValue} base @param {string | undefined} source
   */
  function rebase(field, value, base, source) {
    if (!inputs.has(field)) return;
    presets.set(field, value);
    bases.set(field, base);
    showSource(field, source, value);
  }

  /**
   * Shows a value of the person's in a field (one kept in the outbox, being decided): it counts as
   * typed. @param {string} field @param {MetricValue} value
   */
  function showMine(field, value) {
    const entry = inputs.get(field);
    if (!entry) return;
    showText(entry, value === null ? '' : formatValue(value, entry.column, ctx.lang));
    edited.add(field);
    copied.delete(field);
    confirmed.delete(field);
    sayWhere(field);
  }

  /**
   * Shows what the person typed earlier and kept on the device (a draft) as they typed it, over the
   * preset and the base it was typed over: it counts as typed, and a save sends it from that base.
   * A value the table copied from sheet `from` stays said and saved as copied, and one it confirmed
   * (`kept`) stays confirmed.
   * @param {string} field @param {string} text @param {MetricValue} preset @param {MetricValue} base
   * @param {number} [from] @param {boolean} [kept]
   */
  function restoreTyped(field, text, preset, base, from, kept = false) {
    const entry = inputs.get(field);
    if (!entry) return;
    presets.set(field, preset);
    bases.set(field, base);
    showText(entry, text);
    edited.add(field);
    if (from === undefined) copied.delete(field);
    else copied.set(field, from);
    if (kept) confirmed.add(field);
    else confirmed.delete(field);
    sayWhere(field);
  }

  /**
   * Whether the person has not typed in the field since it was preset. Decided from what they did,
   * never from what the input shows: an `<input>` drops a text's line breaks, and a stored form the
   * inputs do not take back as typed (a text saved as '', a float in exponent form) would look typed.
   * @param {string} field
   */
  const untouched = (field) => inputs.has(field) && !edited.has(field);

  /**
   * The values a save sends and their bases, or the first bad input (each input's problem shown at
   * it). Only what the person changed is sent, with what it was changed from: a field left alone
   * never overwrites what someone else saved meanwhile. A key without a row (`hasRow` false) stores
   * every value the form shows, the defaults the person saw and kept included. `copied`: whether a
   * value sent was copied from another sheet (the save is then a copy, as the table's is).
   * @param {boolean} hasRow
   */
  function changes(hasRow) {
    /** @type {Record<string, MetricValue>} */
    const values = {};
    /** @type {Record<string, MetricValue>} */
    const base = {};
    /** @type {HTMLInputElement | HTMLTextAreaElement | undefined} */
    let firstBad;
    let anyCopied = false;
    for (const [field, entry] of inputs) {
      // Untouched (the person never typed in it): never sent, never checked, so a
      // stored form the inputs do not take back as typed (a text saved as '', a float in exponent
      // form) neither clears it nor stops the save.
      if (hasRow && untouched(field)) {
        showError(field, undefined);
        continue;
      }
      const checked = checkTyped(entry.column, entry.input.value, ctx.lang);
      if (checked.ok) {
        showError(field, undefined);
        if (hasRow && sameValue(entry.column, checked.value, presets.get(field))) continue;
        values[field] = checked.value;
        base[field] = bases.get(field) ?? null;
        anyCopied ||= copied.has(field);
      } else {
        showError(field, fill(ctx.labels[checked.problem], checked.params));
        firstBad ??= entry.input;
      }
    }
    return { values, base, firstBad, copied: anyCopied };
  }

  return {
    root,
    /** The inputs by metric column, in the form's order. */
    inputs,
    presets,
    bases,
    setColumns,
    changes,
    untouched,
    describe,
    showError,
    preset,
    rebase,
    showMine,
    restoreTyped,
    /**
     * Whether a field holds a change of the person's: other than what it showed, as a value (0.8
     * over 0.80 is the same; what cannot be read as a value differs), or copied from another sheet.
     * @param {string} field
     */
    changed: (field) => {
      const entry = inputs.get(field);
      return entry !== undefined && holdsChange(entry, field);
    },
    /** The sheet a field's value was copied from, while it holds that value. @param {string} field */
    copiedFrom: (field) => copied.get(field),
    /** Whether a field holds what the table confirmed, not typed in since. @param {string} field */
    isConfirmed: (field) => confirmed.has(field),
    /**
     * Whether the field was preset from nothing read: its entry removed, what applies now (its
     * default) not read yet. @param {string} field
     */
    startsUnread: (field) => sources.get(field)?.source === 'unread',
    /**
     * "Keep mine" at a conflict: the input keeps the person's value, which is theirs to send (even a
     * default they kept untyped), starting from the stored value.
     * @param {string} field @param {MetricValue} theirs
     */
    keepMine(field, theirs) {
      presets.set(field, theirs);
      bases.set(field, theirs);
      edited.add(field);
      sayWhere(field);
    },
    /** The stored value now: shown in the input, as the field's preset and base. @param {string} field @param {MetricValue} value */
    takeStored: (field, value) => preset(field, value, value, 'saved'),
    /** "A, B and C" of the fields' labels. @param {string[]} names */
    names: (names) => ctx.say.list(names.map((field) => inputs.get(field)?.label.textContent ?? field)),
  };
}

/** @typedef {ReturnType<typeof createFields>} Fields */
