// @ts-check
/**
 * The metric modal: the native `<dialog>` opened with `showModal()` (focus kept inside, Esc closes,
 * focus back on the activity after), one input per metric, Save / Save and next / Cancel, Remove
 * entry and History. A save sends only what the person changed, each field with the value it started
 * from; its answer always lands on its own activity (Esc and Cancel wait for it).
 */

import { problemOf } from './api.js';
import { createConfirm } from './confirm.js';
import { createConflicts } from './conflicts.js';
import { BLOCK } from './dom.js';
import { createFields } from './fields.js';
import { createHistory } from './history.js';
import { fill } from './labels.js';
import { createModalDraft } from './modal-draft.js';
import { createPresets } from './modal-presets.js';
import { sendEntry } from './modal-send.js';
import { createModalSight } from './modal-sight.js';
import { createModalView } from './modal-view.js';
import { entryFor } from './saved-answer.js';
import { sameValue } from './values.js';

/** @typedef {import('./tree.js').TreeNode} TreeNode */
/** @typedef {import('./api.js').MetricEntry} MetricEntry */
/** @typedef {import('./api.js').MetricConflict} MetricConflict */
/** @typedef {import('./api.js').MetricValue} MetricValue */
/** @typedef {import('./outbox.js').OutboxRecord} OutboxRecord */

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {import('./tree.js').Tree} tree
 * @param {import('./tree-metrics.js').TreeMetrics} treeMetrics
 */
export function createModal(ctx, tree, treeMetrics) {
  const { labels } = ctx;
  const fields = createFields(ctx);
  const { inputs } = fields;
  const presets = createPresets(ctx, fields, (node) => treeMetrics.isUnread(node));
  const history = createHistory(
    ctx,
    () => current,
    (section) => sight.reveal(section),
  );
  const view = createModalView(ctx, fields, history);
  const sight = createModalSight(view.dialog, view.actions, ctx.timers);
  const { dialog, form, title, trail, lastChangeLine, notice, stoppedNotice, removeButton, formError } = view;
  const { dialogStatus, cancel, saveNext, save } = view;
  const confirm = createConfirm(ctx);
  dialog.append(confirm.dialog);
  const conflicts = createConflicts(ctx, fields, {
    alert: showAlert,
    lastChangeLine,
    save,
    busy: () => busy,
    rowIs: (row) => {
      hasRow = row;
    },
    applies: (field) => {
      const node = current;
      if (!node || treeMetrics.isUnread(node)) return undefined;
      // Read again without an entry: each field shows its default (else the read did not answer).
      const data = presets.dataOf(node);
      if (presets.rowIn(data)) return undefined;
      const metric = data.metrics?.[field];
      return { value: metric?.value ?? null, source: metric?.source };
    },
    readApplies: () => (current ? readWhatApplies(current) : Promise.resolve(false)),
  });

  /** The activity the modal shows. @type {TreeNode | undefined} */
  let current;
  /** Whether it was opened from the tree, not by Decide (which is the decision itself). */
  let fromTree = true;
  /** Whether the activity's key has a live row: without one, Save stores every value the form shows. */
  let hasRow = false;
  /** Counts the dialog's openings: a save's answer belongs to the opening it was sent from. */
  let session = 0;
  let busy = false;
  /**
   * What keeps the modal busy: a save or a remove holds the dialog open; the walk and a read of
   * what applies do not. @type {'save' | 'remove' | 'next' | 'read'}
   */
  let busyWith = 'save';
  /** Whether the activity shown may be changed (a read-only row shows its fields read-only). */
  let editable = true;
  /** Whether the form waits for its entry's remove to leave the outbox (`holdForRemove`). */
  let heldForRemove = false;
  /** The outbox entry this opening decides (a conflict met while sending it), if any. @type {OutboxRecord | undefined} */
  let deciding;
  /** What waited in the outbox for the activity when the form last started from it ({@link waitingOf}). */
  let waitingSeen = '';
  const draft = createModalDraft(ctx, {
    fields,
    dialog,
    after: lastChangeLine,
    current: () => current,
    hasRow: () => hasRow,
    stored: (field) => presets.stored(field),
    storedRow: () => presets.storedRow(),
    fresh: () =>
      editable &&
      !busy &&
      deciding === undefined &&
      [...inputs.keys()].every((field) => fields.untouched(field)),
    restored: (row) => {
      hasRow = row;
    },
    editing: () => editable && !busy && deciding === undefined,
    deciding: () => deciding !== undefined,
  });

  // Cancel is the person's decision to drop what they typed (its draft goes), asked first when
  // there is typing to lose (a tap meant as "close" would lose it for good); Esc, the backdrop and
  // a phone's Back only close the dialog, and the draft stays for the next opening.
  cancel.addEventListener('click', () => {
    // A read of what applies is no save: Cancel during it still drops what was typed.
    const node = current && (!busy || busyWith === 'read') ? current : undefined;
    const discard = () => {
      if (node && current === node) draft.settled(node);
      dialog.close();
    };
    // Pressed while Save reads what applies (Save was pressed: the question would stay up over the
    // save that follows the read), Cancel discards at once, as it always did: only a form at rest asks.
    if (node === undefined || busy || !draft.hasTyping()) {
      discard();
      return;
    }
    const question = {
      title: labels.cancelTitle,
      text: fill(labels.cancelText, { label: node.data.label }),
      keep: labels.cancelKeep,
      yes: labels.cancelDiscard,
    };
    confirm.ask(question, cancel, discard);
  });

  // Esc while a save or a remove is on its way would leave its answer to land on whatever opens
  // next. The walk of "Save and next" comes after its save is stored: Esc closes the dialog then
  // (the walk's answer counts only while its opening shows), or a slow branch would hold the person
  // in the dialog until the read gave up.
  dialog.addEventListener('cancel', (event) => {
    if (busy && busyWith !== 'next' && busyWith !== 'read') event.preventDefault();
  });
  saveNext.addEventListener('click', () => void submit(true));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit(false);
  });
  dialog.addEventListener('close', () => {
    confirm.close();
    const node = current;
    current = undefined;
    if (node && !ctx.destroyed() && node.item.isConnected) tree.focusNode(node, { scroll: false });
  });
  removeButton.addEventListener('click', () => {
    if (!current || busy) return;
    const question = {
      title: labels.removeTitle,
      text: fill(labels.removeText, { label: current.data.label }),
      keep: labels.removeCancel,
      yes: labels.removeConfirm,
    };
    confirm.ask(question, removeButton, () => void removeEntry());
  });

  /**
   * The form's alert: `text` shown and said, or (undefined) hidden. `spoken`: said only, the
   * problem being shown at its field already.
   * @param {string | undefined} text @param {{ spoken?: boolean }} [how]
   */
  function showAlert(text, how = {}) {
    formError.hidden = text === undefined;
    if (text === undefined) return;
    formError.classList.toggle(`${BLOCK}__form-error--spoken`, how.spoken === true);
    formError.textContent = text;
  }

  /**
   * Shows `node`'s metrics, opening the dialog when it is closed, with what the person typed in it
   * and did not send (its draft), unless `withDraft` is false (an outbox entry being decided).
   * @param {TreeNode} node @param {boolean} [withDraft]
   */
  function open(node, withDraft = true) {
    current = node;
    deciding = undefined;
    heldForRemove = false;
    // What waits in the outbox for it is what its next save starts from.
    const data = presets.dataOf(node);
    // What was said of another activity does not stay under this one ("Save and next" says its
    // part after opening the next).
    dialogStatus.textContent = '';
    title.textContent = node.data.label;
    const ancestors = [];
    for (let up = node.parent; up; up = up.parent) ancestors.unshift(up.data.label);
    trail.textContent = ancestors.join(' › ');
    trail.hidden = ancestors.length === 0;
    editable = node.data.editable !== false;
    notice.hidden = editable;
    // Opened from the tree while an entry of it waits in the outbox for a decision: said, as the
    // list of waiting entries (where it is decided) is hidden until asked for. Opened with Decide,
    // the form is that decision.
    fromTree = withDraft;
    showStopped(node);
    showAlert(undefined);
    formError.textContent = '';
    save.hidden = !editable;
    saveNext.hidden = !editable;
    cancel.textContent = editable ? labels.cancel : labels.close;
    conflicts.clear();
    ctx.api.forgetAttempt();
    hasRow = presets.rowIn(data);
    waitingSeen = waitingOf(node);
    showEntry(data);
    history.reset();
    confirm.close();
    presets.fill(node, data, () => true);
    if (withDraft) draft.restore(node);
    else draft.reset();
    for (const field of inputs.keys()) conflicts.render(field);
    session++;
    setBusy(false);
    if (!dialog.open) dialog.showModal();
    const first = editable ? inputs.values().next().value?.input : cancel;
    first?.focus();
    if (first instanceof HTMLInputElement || first instanceof HTMLTextAreaElement) first.select();
    if (editable && treeMetrics.isUnread(node)) awaitDefaults(node);
    else if (editable && removeWaits(node)) holdForRemove();
  }

  /**
   * Whether a remove of the activity's entry waits in the outbox (kept offline): the form shows no
   * values, and what applies without the entry, its defaults, only the server knows.
   * @param {TreeNode} node
   */
  const removeWaits = (node) =>
    ctx.offline?.removeKept({ activity: node.data.id, group: node.data.group }) === true;

  /**
   * A form whose entry's remove waits in the outbox: a save from it would store every field left
   * alone empty, for good, where the defaults apply once the remove is sent. Its fields wait
   * read-only, Save off, saying why, until the remove leaves the outbox (`outboxChanged` opens it
   * again then, as stored or as read).
   */
  function holdForRemove() {
    heldForRemove = true;
    holdFields();
    showAlert(labels.removeWaits);
    // Below the fields, which take nothing now: on a phone it would sit under the buttons, unseen.
    formError.scrollIntoView({ block: 'center' });
  }

  /** The form takes nothing while it waits for what applies: fields read-only, Save off. */
  function holdFields() {
    for (const entry of inputs.values()) entry.input.readOnly = true;
    save.disabled = true;
    saveNext.disabled = true;
  }

  /**
   * Who changed the entry last (or that it was never saved), and Remove entry while it has one.
   * @param {import('./api.js').ScreenNode} data
   */
  function showEntry(data) {
    const last = data.lastChange ?? null;
    lastChangeLine.textContent =
      last !== null
        ? fill(labels.lastChange, { user: ctx.say.user(last.user), at: ctx.say.when(last.at) })
        : hasRow
          ? ''
          : labels.neverSaved;
    lastChangeLine.hidden = lastChangeLine.textContent === '';
    removeButton.hidden = !(editable && hasRow);
  }

  /**
   * The table's save stored activities (the tree has taken its answer): a form open on one of them
   * starts from what it stored, as an opening now would, what the person typed in it kept as typed
   * (modal-presets.js `afterStored`), and its draft keeps only what is still not stored. Without
   * this, the form opened while that save was out would go on from what it read before: its next
   * save sent as if the activity had no entry, refused as a change by "someone else" (the person's
   * own save), and the values stored would come back as a draft. A form that is busy (its own save
   * out), decides an outbox entry or waits for a choice at a conflict keeps what it shows: the
   * server checks its next save against the bases it holds, and shows what differs as a conflict.
   * So does a replayed answer, which says what was stored back then (the tree reads the activity
   * again).
   * @param {import('./saved-answer.js').Answer} answer
   */
  function storedElsewhere(answer) {
    const node = current;
    if (!node || !dialog.open || !editable || busy || deciding !== undefined) return;
    const saved = entryFor(answer, { activity: node.data.id, group: node.data.group });
    if (!saved?.stored || answer.replayed === true || conflicts.waiting().length > 0) return;
    // Waiting, read-only, for what applies after a remove: nothing typed; it opens again as stored.
    if (save.disabled) {
      open(node);
      return;
    }
    startFromNow(node);
  }

  /**
   * The open form starts from what applies now (`presets.afterStored`), what the person typed kept
   * typed, and its draft follows. @param {TreeNode} node
   */
  function startFromNow(node) {
    waitingSeen = waitingOf(node);
    hasRow = presets.afterStored(node);
    showEntry(presets.dataOf(node));
    draft.typed();
  }

  /**
   * An activity whose entry was just removed shows no values until the server says what applies
   * now (its defaults): a save meanwhile would store every field left alone empty, for good. Its
   * fields wait read-only, Save off, until the activity is read again, then show it; unread (no
   * signal), Save stays off and the dialog says why.
   * @param {TreeNode} node
   */
  function awaitDefaults(node) {
    const mine = session;
    holdFields();
    dialogStatus.textContent = labels.readingDefaults;
    void treeMetrics.refresh(node).then((read) => {
      if (mine !== session || current !== node || ctx.destroyed()) return;
      if (read && !treeMetrics.isUnread(node)) {
        open(node);
        return;
      }
      dialogStatus.textContent = '';
      showAlert(labels.defaultsUnread);
    });
  }

  /**
   * Reads the activity again after a conflict said its entry was removed and the read after the
   * refusal got no answer (`treeMetrics.removedUnread`): until then the fields left alone show no
   * value, a Save would send them as a new entry's, and "Use theirs" would take an empty value
   * where a default applies, which only the server knows. Read, the fields left alone show what
   * applies now, the defaults, and the conflicts say it; what the person typed and chose stays.
   * Unread, the alert says so. Resolves whether it was read while this opening still shows.
   * @param {TreeNode} node
   */
  async function readWhatApplies(node) {
    const mine = session;
    setBusy(true, 'read');
    dialogStatus.textContent = labels.readingDefaults;
    const read = await treeMetrics.refresh(node);
    if (mine !== session || current !== node || ctx.destroyed()) return false;
    setBusy(false);
    dialogStatus.textContent = '';
    // Still unread after it: a remove's answer came meanwhile, newer than the read.
    if (!read || treeMetrics.isUnread(node)) {
      showAlert(labels.conflictDefaultsUnread);
      return false;
    }
    const data = presets.dataOf(node);
    presets.fill(node, data, (field) => fields.untouched(field));
    hasRow = presets.rowIn(data);
    showEntry(data);
    if (hasRow) {
      // Made again meanwhile: what was chosen over its removal no longer holds. Each conflict is
      // shown again against what is stored now, to be decided afresh; nothing is sent meanwhile.
      const again = conflicts
        .all()
        .map((found) => presets.readConflict(node, found.field, found.base, found.yours));
      conflicts.show(again, 'save');
      draft.typed();
      return false;
    }
    conflicts.redraw();
    draft.typed();
    return true;
  }

  /**
   * While a save, a remove or the walk to the next activity is out, the buttons are disabled and
   * the fields read-only: what would be typed meanwhile is in no save, and the answer would close
   * the dialog over it (or a refusal refill the field).
   * @param {boolean} value @param {'save' | 'remove' | 'next' | 'read'} [what]
   */
  function setBusy(value, what = 'save') {
    busy = value;
    busyWith = what;
    // A button disabled with the focus on it (Save pressed, or Remove entry, which the confirmation
    // gives the focus back to) drops it to the page: a screen reader leaves the dialog. It waits on
    // the dialog's title, which says whose entry is on its way.
    const cancelOff = value && what !== 'next' && what !== 'read';
    const disabled = value ? [save, saveNext, removeButton, ...(cancelOff ? [cancel] : [])] : [];
    // Without scrolling: on a phone the form would jump to its top for the whole save.
    if (disabled.some((button) => button === ctx.doc.activeElement)) title.focus({ preventScroll: true });
    for (const entry of inputs.values()) entry.input.readOnly = value || !editable;
    form.setAttribute('aria-busy', String(value));
    save.disabled = value;
    saveNext.disabled = value;
    cancel.disabled = cancelOff;
    removeButton.disabled = value;
    save.textContent = value && what === 'save' ? labels.saving : labels.save;
    removeButton.textContent = value && what === 'remove' ? labels.removing : labels.remove;
  }

  /**
   * Sends one entry of `node`, the modal busy meanwhile. Its answer belongs to the opening it was
   * sent from: `stillOpen` says whether the dialog still shows it (a browser may close a dialog on a
   * second Esc even while its cancel is refused). A save refused for a conflict has the tree read
   * the activity again, so it shows what is stored now. Undefined once the screen is destroyed.
   * A save carrying a value copied from another sheet (`copied`) is sent as a copy.
   * @param {TreeNode} node @param {MetricEntry} entry @param {'save' | 'remove'} what
   * @param {boolean} [copied]
   */
  async function send(node, entry, what, copied = false) {
    setBusy(true, what);
    const mine = session;
    return sendEntry(ctx, node, entry, {
      deciding,
      copied,
      stillOpen: () => {
        const open = session === mine && dialog.open;
        if (open) setBusy(false);
        return open;
      },
      conflicted: (stale) => treeMetrics.refresh(stale),
    });
  }

  /**
   * After a save (or a save with nothing to send): "Save and next" shows the next activity, said
   * inside the dialog with both named; else the dialog closes (if it still shows this save) and the
   * page says `done`.
   * @param {TreeNode | undefined} next @param {string} nextText @param {string} done @param {boolean} stillOpen
   */
  function moveOn(next, nextText, done, stillOpen) {
    if (next) {
      tree.focusNode(next, { scroll: true });
      open(next);
      ctx.announce(nextText);
      return;
    }
    if (stillOpen) dialog.close();
    ctx.announce(done);
  }

  /** What a save of this opening sends (see `fields.changes`). */
  const changes = () => fields.changes(hasRow);

  /** @param {boolean} andNext */
  async function submit(andNext) {
    const node = current;
    if (!node || node.data.editable === false || save.disabled) return;
    // Whether the dialog still shows this opening: a save's end closes nothing opened since.
    const opening = session;
    const stillHere = () => session === opening && dialog.open;
    // A refused remove's view has done its work once the person saves instead.
    conflicts.drop('remove');
    const waiting = conflicts.waiting();
    if (waiting.length > 0) {
      showAlert(fill(labels.chooseFirst, { fields: fields.names(waiting) }));
      conflicts.focus(waiting[0]);
      return;
    }
    // A field left alone showing nothing read would be sent empty, for good: what applies is read
    // first. The tree's mark alone is not enough: a read made elsewhere clears it, and the form
    // goes on showing what it filled.
    const unread =
      treeMetrics.isUnread(node) ||
      [...inputs.keys()].some((field) => fields.untouched(field) && fields.startsUnread(field));
    if (unread && !(await readWhatApplies(node))) return;
    const { values, base, firstBad, copied } = changes();
    if (firstBad) {
      firstBad.focus();
      // Focus that stays on the field (Enter pressed in it) says nothing new: the alert says it.
      // Shown at the field already: the summary is for screen readers only, not a second box.
      showAlert(
        fill(labels.checkField, {
          field: firstBad.labels?.[0]?.textContent ?? firstBad.name,
          problem: inputs.get(firstBad.name)?.error.textContent ?? '',
        }),
        { spoken: true },
      );
      return;
    }
    showAlert(undefined);
    formError.classList.remove(`${BLOCK}__form-error--spoken`);
    // The next activity of the whole sheet: closed branches are opened on the way. Its answer
    // counts only while this opening still shows (Esc may close the dialog while a branch loads).
    // Meanwhile the form stays as it was sent, read-only: what was typed now would not be saved.
    let walkFailed = false;
    const nextOf = async () => {
      if (!andNext) return undefined;
      const mine = session;
      setBusy(true, 'next');
      try {
        const next = await tree.nextTaskInSheet(node);
        return session === mine && dialog.open ? next : undefined;
      } catch {
        walkFailed = true;
        return undefined;
      } finally {
        if (session === mine) setBusy(false);
      }
    };
    // Where "Save and next" stopped because a branch could not be read, the person hears why.
    /** @param {string} text */
    const done = (text) => (walkFailed ? `${text} ${labels.nextUnreadable}` : text);
    if (Object.keys(values).length === 0) {
      // Nothing to send: a request would only write the same values again. An outbox entry being
      // decided is settled so (theirs taken at every field): it leaves the outbox.
      if (deciding) await ctx.offline?.resolved(deciding);
      // What is typed is what is stored: nothing is left to keep.
      draft.settled(node);
      const next = await nextOf();
      moveOn(
        next,
        fill(labels.nothingChangedNext, { label: node.data.label, next: next?.data.label ?? '' }),
        done(fill(labels.nothingChanged, { label: node.data.label })),
        stillHere(),
      );
      return;
    }
    const sent = await send(
      node,
      // Whether it read a row: a base of null alone cannot say "no row" from "a row holding NULL".
      { activity: node.data.id, group: node.data.group ?? null, values, base, row: hasRow },
      'save',
      copied,
    );
    if (sent === undefined) return;
    if ('queued' in sent) {
      // Kept in the outbox, which sends it: the draft is done with.
      draft.settled(node);
      const next = sent.stillOpen ? await nextOf() : undefined;
      moveOn(
        next,
        fill(labels.queuedNext, { label: node.data.label, next: next?.data.label ?? '' }),
        done(fill(labels.queued, { label: node.data.label })),
        sent.stillOpen && stillHere(),
      );
      return;
    }
    if ('failure' in sent) {
      const { failure } = sent;
      if (sent.maybeStored) {
        // Sent without an answer, and not kept to be sent again: never said "not saved".
        if (!sent.stillOpen) ctx.announce(`${node.data.label}: ${labels.answerLost}`);
        else {
          showAlert(labels.answerLost);
          (andNext ? saveNext : save).focus();
        }
        return;
      }
      const removed =
        failure.conflicted && failure.conflicts.some((found) => found.entry === 0 && found.row === false);
      // Its entry removed meanwhile and the activity not read since: shown as after a remove (in the
      // tree too, the dialog closed meanwhile or not).
      if (removed && sent.read === false && presets.rowIn(node.data)) treeMetrics.removedUnread(node);
      if (!sent.stillOpen) {
        // Its dialog is gone: say so aloud rather than on another activity's form.
        ctx.announce(
          failure.conflicted
            ? fill(labels.conflictAway, { label: node.data.label })
            : `${node.data.label}: ${fill(labels.saveError, { message: problem(failure) })}`,
        );
        return;
      }
      if (failure.conflicted) {
        // The read after the refusal may hold values stored since: shown beside the refused ones.
        const after = presets.afterConflict(node, failure.conflicts, { values, base });
        hasRow = after.hasRow;
        showEntry(presets.dataOf(node));
        // The draft follows the fields' bases and the row as the refusal left them.
        draft.typed();
        // Read, with its entry made again since the refusal: each conflict is shown against what is
        // stored now (the removal it was refused for is over).
        const again = removed && presets.rowIn(presets.dataOf(node));
        const shown = [...failure.conflicts, ...after.conflicts].map((found) =>
          again && found.row === false
            ? presets.readConflict(node, found.field, found.base, found.yours)
            : found,
        );
        if (conflicts.show(shown, 'save')) return;
      }
      // A field's own problem goes to that field: the path ends in the metric's column.
      const field = failure.path?.match(/^entries\.\d+\.(?:values|base)\.(.+)$/)?.[1];
      if (field !== undefined && inputs.has(field)) {
        fields.showError(field, problem(failure));
        inputs.get(field)?.input.focus();
        return;
      }
      showAlert(fill(labels.saveError, { message: problem(failure) }));
      // The button pressed was disabled while the save ran, which dropped the focus to the page.
      (andNext ? saveNext : save).focus();
      return;
    }
    treeMetrics.applySaved(node, sent.answer);
    draft.settled(node);
    const next = sent.stillOpen ? await nextOf() : undefined;
    moveOn(
      next,
      fill(labels.savedNext, { label: node.data.label, next: next?.data.label ?? '' }),
      done(fill(labels.saved, { label: node.data.label })),
      sent.stillOpen && stillHere(),
    );
  }

  /** Removes the activity's saved entry (confirmed first): the defaults apply again. */
  async function removeEntry() {
    const node = current;
    if (!node || node.data.editable === false || busy) return;
    conflicts.drop();
    showAlert(undefined);
    /** @type {Record<string, MetricValue>} */
    const base = {};
    for (const field of inputs.keys()) base[field] = fields.bases.get(field) ?? null;
    const group = node.data.group ?? null;
    const sent = await send(node, { activity: node.data.id, group, remove: true, base }, 'remove');
    if (sent === undefined) return;
    if ('queued' in sent) {
      // The entry goes: nothing typed over it is left to keep.
      draft.settled(node);
      if (sent.stillOpen) dialog.close();
      ctx.announce(fill(labels.queued, { label: node.data.label }));
      return;
    }
    if ('failure' in sent) {
      const { failure } = sent;
      if (sent.maybeStored) {
        // Sent without an answer, and not kept to be sent again: never said "not removed".
        if (!sent.stillOpen) ctx.announce(`${node.data.label}: ${labels.removeAnswerLost}`);
        else {
          showAlert(labels.removeAnswerLost);
          removeButton.focus();
        }
        return;
      }
      // Removed by someone else already: what the person asked for is so.
      const gone = failure.code === 'ENTRY_NOT_FOUND';
      if (gone) {
        draft.settled(node);
        treeMetrics.applySaved(node, {
          entries: [{ activity: node.data.id, group, stored: null, lastChange: null }],
        });
      }
      if (gone || !sent.stillOpen) {
        if (sent.stillOpen) dialog.close();
        ctx.announce(
          `${node.data.label}: ${gone ? labels.entryGone : fill(labels.removeError, { message: problem(failure) })}`,
        );
        return;
      }
      if (failure.conflicted && conflicts.show(failure.conflicts, 'remove')) return;
      showAlert(fill(labels.removeError, { message: problem(failure) }));
      removeButton.focus();
      return;
    }
    draft.settled(node);
    if (sent.stillOpen) dialog.close();
    treeMetrics.applySaved(node, sent.answer);
    ctx.announce(fill(labels.removed, { label: node.data.label }));
  }

  /**
   * Whether the notice that the activity's entry waits for a decision shows: opened from the tree,
   * while the outbox holds such an entry (told again whenever what waits changes).
   * @param {TreeNode} node
   */
  function showStopped(node) {
    stoppedNotice.hidden =
      !fromTree || ctx.offline?.isStopped({ activity: node.data.id, group: node.data.group }) !== true;
  }

  /**
   * What waits in the outbox for an activity, laid over what was read, as one string (empty when
   * nothing waits): the form follows the outbox only when this changed. @param {TreeNode} node
   */
  function waitingOf(node) {
    const offline = ctx.offline;
    const waits = offline?.pendingFields({ activity: node.data.id, group: node.data.group ?? null });
    return offline === undefined || waits === undefined
      ? ''
      : JSON.stringify(offline.overlay(node.data).metrics);
  }

  /** @param {unknown} error */
  function problem(error) {
    return problemOf(error, labels, ctx.taskSheet);
  }

  /**
   * Opens an outbox entry the server refused for a conflict: the activity as stored now, the
   * person's values in the inputs, and the conflict view at each field that changed meanwhile.
   * Once saved (or kept again), the entry leaves the outbox.
   * @param {TreeNode} node @param {OutboxRecord} record
   * @param {boolean} read whether the activity was just read again (else it shows an older read)
   */
  async function decide(node, record, read) {
    // Decide waited for the tree to open: a form the person opened meanwhile is not replaced.
    if (dialog.open) {
      ctx.announce(fill(labels.closeFirst, { label: record.label }));
      return;
    }
    // Its entry removed and what applies unread (the read before Decide got no answer): the fields
    // the entry leaves alone would be saved empty, for good, where the defaults apply.
    if (treeMetrics.isUnread(node)) {
      ctx.announce(fill(labels.decideUnread, { label: record.label }));
      return;
    }
    // A remove whose entry someone else removed since: what the person asked for is so. A form of
    // a key without a row would store every value it shows, which nobody asked for.
    if (read && record.entry.remove && !presets.rowIn(node.data)) {
      await ctx.offline?.resolved(record);
      ctx.announce(`${record.label}: ${labels.entryGone}`);
      return;
    }
    open(node, false);
    deciding = record;
    const stopped = new Set((record.conflicts ?? []).map((conflict) => conflict.field));
    for (const [field, value] of Object.entries(record.entry.values ?? {})) {
      if (!inputs.has(field)) continue;
      fields.showMine(field, value);
      // A field that met no conflict when the entry stopped keeps the base it was entered from:
      // changed by someone since, the server refuses it and this form shows it, not overwrites it.
      const base = record.entry.base;
      if (!stopped.has(field) && base && Object.hasOwn(base, field))
        fields.bases.set(field, base[field] ?? null);
    }
    // A remove that met a change shows what is stored now, to be removed again (or kept) knowingly.
    conflicts.show(
      read ? storedNow(node, record) : (record.conflicts ?? []),
      record.entry.remove ? 'remove' : 'save',
    );
  }

  /**
   * A stopped entry's conflicts as the activity was just read: it stopped against what was stored
   * then, maybe hours ago, and "Use theirs" would take that. A field stored since as the person's
   * own value has nothing to decide: it starts from it, and a save leaves it out. A field still
   * stored as when it stopped keeps who changed it and when, as the server said then (the read
   * knows only who changed the entry last).
   * @param {TreeNode} node @param {OutboxRecord} record @returns {MetricConflict[]}
   */
  function storedNow(node, record) {
    /** @type {MetricConflict[]} */
    const found = [];
    for (const then of record.conflicts ?? []) {
      const column = inputs.get(then.field)?.column;
      if (column === undefined) continue;
      const now = presets.readConflict(node, then.field, then.base, then.yours);
      // Stored since as the person's own value: nothing left to decide. Not so without an entry
      // now: no value there means its default applies, not the empty value the person sent.
      if (!record.entry.remove && now.row !== false && sameValue(column, now.theirs, then.yours)) {
        fields.keepMine(then.field, now.theirs);
        continue;
      }
      // Who changed it and when are the stopped conflict's while the value is the same; whether the
      // entry exists is the read's (an empty value says nothing of it: the entry may be gone since).
      found.push(sameValue(column, now.theirs, then.theirs) ? { ...then, row: now.row } : now);
    }
    return found;
  }

  return {
    dialog,
    decide,
    /** The modal's own live region: while it is open the rest of the page is inert. */
    status: dialogStatus,
    /** @param {readonly import('./api.js').MetricColumn[]} columns */
    setColumns: (columns) => fields.setColumns(columns),
    /** @param {TreeNode} node */
    open: (node) => open(node),
    /** The drafts were read: an opening that shows nothing typed yet shows its activity's. */
    draftsLoaded: () => draft.loaded(),
    /** The device cannot keep drafts: said once, in `text`'s words. @param {string} text */
    draftProblem: (text) => draft.problem(text),
    /** Someone else signed in on this browser: an open form, the previous person's, closes (kept as theirs). */
    ownerChanged: () => draft.ownerChanged(),
    /** The table's save stored activities: an open form of one of them starts from it. */
    storedElsewhere,
    /**
     * What waits in the outbox changed (here, in another tab): the open form's notice follows, and
     * so does what it starts from. A value kept for the activity, discarded in another tab, is no
     * longer the base of what the person types over it: kept, their next save would be refused as
     * a change of the field meanwhile. A form that is busy, decides an outbox entry, waits for a
     * choice at a conflict or for the defaults after a remove keeps what it shows (as after the
     * table's save, `storedElsewhere`).
     */
    outboxChanged() {
      const node = current;
      if (!dialog.open || !node) return;
      showStopped(node);
      // The remove it waited for was sent (or found done already, or discarded): it opens again
      // from what applies now, read first. The tree may not have read it yet: a remove found done
      // already, or sent by another tab or the service worker, leaves the outbox before that read,
      // and the form would show the removed entry's values as saved.
      if (heldForRemove && !busy && !removeWaits(node)) {
        heldForRemove = false;
        showAlert(undefined);
        // Offline, nothing was sent: the remove was discarded (in another tab), and the entry it
        // would have removed is what the tree read.
        if (ctx.doc.defaultView?.navigator.onLine === false) open(node);
        else awaitDefaults(node);
        return;
      }
      if (!editable || busy || deciding !== undefined || save.disabled || conflicts.waiting().length > 0)
        return;
      // A remove of its entry kept meanwhile (in another tab): it waits for it, as an opening would.
      if (removeWaits(node)) {
        open(node);
        return;
      }
      // Only what changed for this activity: an outbox change of another one rewrites nothing here.
      if (waitingOf(node) !== waitingSeen) startFromNow(node);
    },
    destroy: () => draft.destroy(),
  };
}
