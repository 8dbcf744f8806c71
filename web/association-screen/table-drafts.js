// @ts-check
/**
 * The table's drafts: what the person types in the table is kept on the device as they type, as
 * the activity's draft (drafts.js: one draft per activity, the modal's too), so a reload, a closed
 * page or a phone that drops the page loses none of it. A row's draft is its changed cells, each as
 * it shows with the base it was typed over (a conflicted cell: the base before the conflict, so the
 * next save meets the conflict again) and its preset; a row with no changed cell has none.
 *
 * Rows read (and drafts read after the rows) take their drafts: each drafted cell shows the typed
 * text over the draft's preset and base, and the row is presented anew against what the server
 * has now, so a value stored meanwhile shows as a conflict at its cell. A row remembers which draft
 * it last wrote or took (by identity): a change that does not come from the person never writes
 * over, nor drops, a draft the row does not hold (one the modal kept after the table read its rows),
 * and the rows whose draft changed while the table was hidden take it when the table shows again.
 * Read-only and refused rows neither take nor change a draft.
 */

import { BLOCK } from './dom.js';
import { asKept } from './drafts-fields.js';
import { sameFields } from './drafts-store.js';
import { fill } from './labels.js';
import { isLocked } from './table-cells.js';
import { laidOver } from './table-outbox.js';
import { sameValue } from './values.js';

/** @typedef {import('./table-cells.js').TableRow} TableRow */
/** @typedef {import('./drafts-store.js').Draft} Draft */
/** @typedef {import('./drafts-store.js').DraftField} DraftField */

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {import('./table-model.js').TableModel} model
 */
export function createTableDrafts(ctx, model) {
  const { labels } = ctx;
  /** Says that rows were restored from drafts, or that the device cannot keep them. */
  const line = ctx.create('p', `${BLOCK}__draft-line ${BLOCK}__table-drafts`);
  line.setAttribute('role', 'status');
  line.hidden = true;
  /** The draft each row last wrote or took, while it holds one. @type {WeakMap<TableRow, Draft>} */
  const held = new WeakMap();
  /** Rows whose changes the drafts refused (no owner known yet): kept nowhere but this page. @type {Set<TableRow>} */
  const unheld = new Set();
  /** Rows restored from drafts since the table was last read. */
  let restored = 0;
  /** Why the device cannot keep drafts, once it is known it cannot: said in the line from then on. @type {string | undefined} */
  let cannotKeep;
  /**
   * Whose the rows' changes are: the page's owner when the rows took their drafts. Someone else
   * signing in meanwhile does not make them theirs (drafts.js keeps them as the one who typed them).
   * @type {import('./drafts.js').Owner | undefined}
   */
  let typedAs;
  /** @returns {import('./drafts.js').Owner | undefined} */
  const owner = () => {
    typedAs ??= ctx.drafts?.owner();
    return typedAs;
  };

  /** @param {TableRow} row */
  const keyOf = (row) => ({ activity: row.data.activity, group: row.data.group ?? null });

  /** @param {TableRow} row */
  const hasChanges = (row) => row.cells.some((cell) => model.isChanged(cell));

  /** The row's changed cells, as its draft keeps them. @param {TableRow} row */
  function typedIn(row) {
    /** @type {Record<string, DraftField>} */
    const typed = {};
    for (const cell of row.cells) {
      if (!model.isChanged(cell)) continue;
      typed[cell.field] = {
        text: cell.text,
        // Keep mine is the person's decision at the conflict, seen on this page: a page opened
        // later sends the value over what it was typed over, and meets the conflict again.
        base: cell.conflict === undefined ? cell.base : cell.conflict.base,
        preset: cell.preset,
        ...(cell.copied === undefined ? {} : { copied: cell.copied }),
        ...(cell.confirmed ? { confirmed: true } : {}),
        // Typed over a value the outbox keeps: the server's, for the base to go back to once no
        // entry keeps it (discarded while this page was closed).
        ...(cell.conflict === undefined && !sameValue(cell.column, cell.stored, cell.base)
          ? { stored: cell.stored }
          : {}),
      };
    }
    return typed;
  }

  /**
   * A row's cells changed: its draft follows them, kept, or dropped once nothing is changed. A
   * change not made by the person (a save's answer, a row read again) touches only the draft the
   * row holds; one made by the person is the newest thing typed, and is kept whatever the draft.
   * @param {TableRow} row @param {boolean} byPerson
   */
  function follow(row, byPerson) {
    const drafts = ctx.drafts;
    if (!drafts || isLocked(row)) return;
    const key = keyOf(row);
    const current = drafts.get(key);
    const holds = current === held.get(row);
    if (!holds && !byPerson) return;
    const typed = typedIn(row);
    if (Object.keys(typed).length === 0) {
      unheld.delete(row);
      held.delete(row);
      if (holds && current) drafts.drop(key, owner());
      showLine();
      return;
    }
    if (holds && current && current.row === row.hasRow && sameFields(current.fields, typed)) return;
    if (drafts.keep(key, { row: row.hasRow, fields: typed }, owner(), held.get(row))) {
      unheld.delete(row);
      const kept = drafts.get(key);
      if (kept) held.set(row, kept);
    } else unheld.add(row);
  }

  /**
   * Shows `draft`'s `fields` in a row (its other cells as they are); `stored`: the draft was read
   * from the device, and the line counts the row. A row left with nothing changed (everything typed
   * is stored now) drops it.
   * @param {TableRow} row @param {Draft} draft @param {Readonly<Record<string, DraftField>>} fields
   * @param {boolean} stored
   */
  function take(row, draft, fields, stored) {
    // Presented anew against what the server has now: a change that `follow` ignores, not holding it yet.
    model.restore(row, fields, laidOver(ctx, row.served));
    if (!hasChanges(row)) {
      held.delete(row);
      ctx.drafts?.drop(keyOf(row), owner());
      return false;
    }
    held.set(row, draft);
    if (stored) restored++;
    return true;
  }

  /** The line: rows restored, or the device's trouble; hidden once nothing is changed. */
  function showLine() {
    if (cannotKeep !== undefined) {
      say(cannotKeep);
      line.hidden = false;
      return;
    }
    line.hidden = restored === 0 || model.changedCount() === 0;
    say(
      restored === 1 ? labels.tableDraftsRestoredOne : fill(labels.tableDraftsRestored, { count: restored }),
    );
  }

  /** The line's text, set only when it changes: a live region set again says it again. @param {string} text */
  function say(text) {
    if (line.textContent !== text) line.textContent = text;
  }

  /**
   * Someone else signed in (said by the page, or found as the drafts are read): every row changed
   * (the previous person's, kept as theirs) goes back to its presets at once, so what is typed from
   * then on, before the new person's drafts are read, is theirs and kept as theirs. Returns whether
   * some row did.
   */
  function ownerChanged() {
    const now = ctx.drafts?.owner();
    let reverted = false;
    if (typedAs !== undefined && now?.key !== typedAs.key) {
      for (const row of model.rows()) {
        if (isLocked(row) || !(hasChanges(row) || held.has(row))) continue;
        model.revert(row);
        held.delete(row);
        reverted = true;
      }
      unheld.clear();
      restored = 0;
    }
    typedAs = now;
    return reverted;
  }

  /** A draft this page may show in a row: the row takes changes, and its draft is the person's. @param {TableRow} row */
  const draftOf = (row) => (isLocked(row) ? undefined : ctx.drafts?.get(keyOf(row)));

  return {
    line,
    follow,
    ownerChanged,
    /**
     * Rows just read take their drafts (rows read are unchanged). @param {readonly TableRow[]} rows
     */
    read(rows) {
      const before = restored;
      for (const row of rows) {
        const draft = draftOf(row);
        if (draft) take(row, draft, draft.fields, true);
      }
      if (restored !== before) showLine();
    },
    /**
     * The drafts were read (after the rows, or read again for someone else signed in, or a write
     * lent a draft fields another tab typed): a row takes its draft. In a row the person changed
     * meanwhile, what they changed stays and the draft's other cells join it; the whole is kept.
     * Read for someone else signed in, every row changed (the previous person's, kept as theirs)
     * first goes back to its presets. Returns whether some did. The table hidden (`showing`
     * false), the rows wait for {@link shown}: the modal may have typed, saved or discarded a
     * draft since a row took it, and a row's cells, older, must not be kept over it; only rows whose
     * changes no draft holds yet (typed before anyone was known to keep them for) are kept.
     * @param {boolean} showing
     */
    loaded(showing) {
      const reverted = ownerChanged();
      if (!showing) {
        for (const row of [...unheld]) if (draftOf(row) === held.get(row)) follow(row, true);
        showLine();
        return reverted;
      }
      for (const row of model.rows()) {
        const current = draftOf(row);
        if (isLocked(row) || current === held.get(row)) continue;
        if (!hasChanges(row)) {
          if (current) take(row, current, current.fields, true);
          continue;
        }
        // A save out holds the row's cells: the draft waits for the save's end (table.js setSaving).
        if (model.isSaving()) continue;
        if (current) {
          // A cell changed since the row last wrote or took its draft is the person's, and stays;
          // one as the row wrote it takes the draft's state now (a join, field by field, may hold
          // a later typing of it in another tab or on a page opened offline: drafts-store.js).
          const was = held.get(row)?.fields;
          const now = typedIn(row);
          /** @type {Record<string, DraftField>} */
          const others = {};
          for (const cell of row.cells) {
            const typed = current.fields[cell.field];
            const mine = now[cell.field];
            if (typed !== undefined && (!mine || asKept(mine, was?.[cell.field]))) others[cell.field] = typed;
          }
          take(row, current, others, true);
        }
        follow(row, true);
      }
      showLine();
      return reverted;
    },
    /**
     * The table shows again: each row whose draft changed while it was hidden (the modal typed,
     * saved, queued or discarded it) shows the draft as it is now, or, the draft gone, its presets.
     * Returns those rows: what they show may be old (the modal stored some of it; what another tab
     * typed may be all that is left of the draft).
     */
    shown() {
      /** @type {TableRow[]} */
      const gone = [];
      if (!ctx.drafts || model.isSaving()) return gone;
      for (const row of model.rows()) {
        const current = draftOf(row);
        if (isLocked(row) || current === held.get(row)) continue;
        model.revert(row);
        held.delete(row);
        unheld.delete(row);
        // Typed on this page (in the modal): not said as come back.
        if (current) take(row, current, current.fields, false);
        gone.push(row);
      }
      showLine();
      return gone;
    },
    /** A new read of the sheet: nothing restored yet. */
    cleared() {
      restored = 0;
      unheld.clear();
      showLine();
    },
    /** The number of changed cells may have changed. */
    counted: showLine,
    /** Whether something typed in the table is kept nowhere but this page (leaving it asks first). */
    unkept() {
      if (model.changedCount() === 0) return false;
      if (!ctx.drafts || ctx.drafts.unkept()) return true;
      for (const row of unheld) if (!isLocked(row) && hasChanges(row)) return true;
      return false;
    },
    /** The device cannot keep drafts: said in the table in `text`'s words (and once aloud, by the screen). @param {string} text */
    problem(text) {
      cannotKeep = text;
      showLine();
    },
  };
}

/** @typedef {ReturnType<typeof createTableDrafts>} TableDrafts */
