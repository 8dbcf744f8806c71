// @ts-check
/**
 * The conflict view: a save or a remove the server refused because someone changed fields since the
 * form read them (409 `METRIC_CONFLICT`) is shown at each field: what is stored now, who changed it
 * and when, the person's own value, and for a save "Keep mine" / "Use theirs". Nothing is re-sent
 * behind the person's back: they decide, then press Save again.
 */

import { lastChangesOf } from './changed-by.js';
import { BLOCK, button } from './dom.js';
import { fill } from './labels.js';
import { asStored } from './values.js';

/** @typedef {import('./api.js').MetricConflict} MetricConflict */

/**
 * A field a save or a remove was refused at, with the person's choice once made. A save's conflict
 * waits for "Keep mine" or "Use theirs"; a remove's is said, and the form takes theirs.
 * @typedef {MetricConflict & { kind: 'save' | 'remove', choice: 'mine' | 'theirs' | undefined }} FieldConflict
 */

/**
 * @typedef {object} ConflictView what of the modal the conflict view speaks through
 * @property {(text: string | undefined) => void} alert says `text` in the form's alert; undefined hides it
 * @property {HTMLElement} lastChangeLine who last changed the entry
 * @property {HTMLButtonElement} save focused once every conflict has its choice
 * @property {() => boolean} busy a save is on its way: no choice is taken meanwhile
 * @property {(row: boolean) => void} rowIs whether the key has a live row now, as the conflict says
 *   (made or removed meanwhile): the next save says so
 * @property {(field: string) => { value: import('./api.js').MetricValue, source: string | undefined } | undefined} applies
 *   what a field shows without an entry (its default, and where it comes from) as the activity was
 *   read again after its entry was removed; undefined until it was
 * @property {() => Promise<boolean>} readApplies reads the activity again for `applies` (the read
 *   after the refusal did not answer); resolves whether it was read, the alert saying it if not
 */

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {import('./fields.js').Fields} fields
 * @param {ConflictView} view
 */
export function createConflicts(ctx, fields, view) {
  const { create, labels, say } = ctx;
  const { inputs } = fields;
  /** @type {Map<string, FieldConflict>} */
  const conflicts = new Map();

  /** Who changed a field meanwhile, as its conflict's heading says it. @param {FieldConflict} found */
  function titleOf(found) {
    return found.changedBy === null
      ? labels.conflictTitleUnknown
      : fill(labels.conflictTitle, {
          user: say.changer(found.changedBy),
          at: found.changedAt ? say.when(found.changedAt) : '',
        });
  }

  /**
   * Conflicts that do not say who stored their value (met in a read of the activity, which says
   * only who changed its entry last) are named from the activity's history once it answers: each
   * still shown and waiting for a choice says who in its heading, nothing else redrawn, so the
   * focus stays where the person has it. Until then, or without an answer, "changed meanwhile" alone.
   */
  async function nameUnknown() {
    const unknown = [...conflicts].filter(([, found]) => found.changedBy === null);
    const first = unknown[0]?.[1];
    if (first === undefined) return;
    const changes = await lastChangesOf(
      ctx,
      first,
      unknown.map(([field]) => field),
    );
    if (ctx.destroyed()) return;
    for (const [field, found] of unknown) {
      const last = changes.get(field);
      if (!last || conflicts.get(field) !== found || found.choice !== undefined) continue;
      const named = { ...found, changedBy: last.user, changedAt: last.at };
      conflicts.set(field, named);
      const heading = inputs.get(field)?.conflict.querySelector(`.${BLOCK}__conflict-title`);
      if (heading) heading.textContent = titleOf(named);
    }
  }

  /**
   * What is stored now at a conflict's field, as said: the value, or, the entry removed meanwhile,
   * the default that applies (as the table's cell says it).
   * @param {FieldConflict} found @param {import('./api.js').MetricColumn} column
   */
  function theirsText(found, column) {
    if (found.row !== false) return say.value(found.theirs, column);
    const applies = view.applies(found.field);
    return applies === undefined
      ? labels.conflictRemovedUnread
      : fill(labels.conflictRemoved, { value: say.value(applies.value, column) });
  }

  /** Draws a field's conflict as it stands: waiting for a choice, "Keep mine" chosen, or none. @param {string} field */
  function render(field) {
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
      fields.describe(field);
      return;
    }
    const titleId = `${box.id}-title`;
    if (found.choice === 'mine') {
      box.classList.add(`${BLOCK}__conflict--resolved`);
      const note = create(
        'p',
        `${BLOCK}__conflict-note`,
        fill(labels.keptMine, { theirs: theirsText(found, entry.column) }),
      );
      note.id = titleId;
      box.append(note);
      fields.describe(field);
      return;
    }
    const heading = create('p', `${BLOCK}__conflict-title`, titleOf(found));
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
      pair(labels.conflictTheirs, theirsText(found, entry.column), 'theirs'),
      pair(
        labels.conflictYours,
        found.kind === 'remove'
          ? labels.conflictYoursRemove
          : // As the column will store it, beside theirs: "32.00", not the "32" sent.
            say.value(found.yours === null ? null : asStored(found.yours, entry.column), entry.column),
        'yours',
      ),
    );
    box.append(heading, values);
    if (found.kind === 'save') {
      const choices = create('div', `${BLOCK}__conflict-actions`);
      const name = entry.label.textContent ?? field;
      const keep = button(create, `${BLOCK}__button ${BLOCK}__button--small`, labels.keepMine);
      keep.setAttribute('aria-label', fill(labels.keepMineFor, { field: name }));
      keep.addEventListener('click', () => choose(field, 'mine'));
      const take = button(create, `${BLOCK}__button ${BLOCK}__button--small`, labels.useTheirs);
      take.setAttribute('aria-label', fill(labels.useTheirsFor, { field: name }));
      take.addEventListener('click', () => choose(field, 'theirs'));
      choices.append(keep, take);
      box.append(choices);
    }
    fields.describe(field);
  }

  /** The fields whose save conflict still waits for a choice, in the form's order. */
  function waiting() {
    return [...inputs.keys()].filter((field) => {
      const found = conflicts.get(field);
      return found?.kind === 'save' && found.choice === undefined;
    });
  }

  /** Moves the focus to a field's conflict. @param {string | undefined} field */
  function focus(field) {
    if (field !== undefined) inputs.get(field)?.conflict.focus();
  }

  /**
   * "Keep mine": the input keeps the person's value, to replace theirs. "Use theirs": the input
   * takes the stored value, or, the entry removed meanwhile, what applies without one (its default,
   * read again: a new entry stores it, not an empty value). Either way the field now starts from
   * what is stored (its base), so the next Save, which the person presses, is checked against it.
   * @param {string} field @param {'mine' | 'theirs'} choice
   */
  function choose(field, choice) {
    const found = conflicts.get(field);
    if (!found || !inputs.has(field) || view.busy()) return;
    const applies = found.row === false ? view.applies(field) : undefined;
    if (choice === 'theirs' && found.row === false && applies === undefined) {
      // Theirs is a default only the server knows, not an empty value: read first, then take it.
      void view.readApplies().then((read) => {
        if (read && conflicts.get(field) === found && found.choice === undefined) choose(field, 'theirs');
      });
      return;
    }
    found.choice = choice;
    if (choice === 'theirs' && applies) fields.preset(field, applies.value, null, applies.source);
    else if (choice === 'theirs') fields.takeStored(field, found.theirs);
    else fields.keepMine(field, found.theirs);
    render(field);
    const next = waiting()[0];
    if (next !== undefined) {
      focus(next);
      return;
    }
    view.alert(undefined);
    view.save.focus();
    ctx.announce(labels.conflictsResolved);
  }

  /**
   * Shows a refused batch's conflicts at their fields, focuses the first and says them in the alert.
   * @param {readonly MetricConflict[]} list @param {'save' | 'remove'} kind
   * @returns {boolean} false when none of them is a field of this form
   */
  function show(list, kind) {
    conflicts.clear();
    for (const conflict of list) {
      if (!inputs.has(conflict.field) || conflict.entry !== 0) continue;
      conflicts.set(conflict.field, { ...conflict, kind, choice: undefined });
      // An outbox entry stopped before conflicts said `row` leaves the form as it was read.
      if (conflict.row !== undefined) view.rowIs(conflict.row);
      // A remove's entry stays as they left it: the form shows it, and a second remove starts from it.
      if (kind === 'remove') fields.takeStored(conflict.field, conflict.theirs);
    }
    for (const field of inputs.keys()) render(field);
    // The line under the title follows: whoever changed a field last is who last changed the entry.
    /** @type {{ user: number, at: string } | undefined} */
    let latest;
    for (const found of conflicts.values()) {
      if (found.changedBy === null || !found.changedAt) continue;
      if (latest === undefined || found.changedAt > latest.at)
        latest = { user: found.changedBy, at: found.changedAt };
    }
    if (latest !== undefined) {
      view.lastChangeLine.textContent = fill(labels.lastChange, {
        user: say.user(latest.user),
        at: say.when(latest.at),
      });
      view.lastChangeLine.hidden = false;
    }
    const named = [...inputs.keys()].filter((field) => conflicts.has(field));
    if (named.length === 0) return false;
    view.alert(
      fill(kind === 'save' ? labels.conflictSummary : labels.removeConflict, { fields: fields.names(named) }),
    );
    focus(named[0]);
    void nameUnknown();
    return true;
  }

  /** Forgets the conflicts of `kind` (all without one): what they said no longer stands. @param {'save' | 'remove'} [kind] */
  function drop(kind) {
    for (const [field, found] of conflicts) {
      if (kind !== undefined && found.kind !== kind) continue;
      conflicts.delete(field);
      render(field);
    }
  }

  return {
    show,
    drop,
    waiting,
    focus,
    render,
    /**
     * Draws every conflict again (what applies after a remove was read, so "theirs" can be said),
     * but the one holding the focus, which a redraw would drop.
     */
    redraw() {
      for (const [field, { conflict }] of inputs) {
        if (!conflict.contains(ctx.doc.activeElement)) render(field);
      }
    },
    /** The conflicts shown, decided or not, in the form's order. */
    all: () => [...inputs.keys()].flatMap((field) => conflicts.get(field) ?? []),
    /** Forgets them all without drawing (a new opening draws every field). */
    clear: () => conflicts.clear(),
  };
}

/** @typedef {ReturnType<typeof createConflicts>} Conflicts */
