// @ts-check
/**
 * A copy (or cut) from one of the screen's fields of a text holding a line break or a tab, such as
 * a note of two lines, is marked on the clipboard as one value. Unmarked, a paste of it into the
 * table was read as a spreadsheet's block (table-paste.js): its second line went into the next
 * row's cell, over what that row held. Spreadsheets quote such a cell on the clipboard; the mark is
 * a type of its own instead, so the text goes to other programs as it is, without quotes.
 */

/** The clipboard type holding a value copied from one field whole. */
export const ONE_VALUE = 'application/x-task-association-value';

/** @param {HTMLElement} root the screen's element, its table and its modal inside it */
export function markCopiedValues(root) {
  for (const kind of /** @type {const} */ (['copy', 'cut'])) {
    root.addEventListener(kind, (event) => {
      const target = event.target;
      if (!(target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)) return;
      const start = target.selectionStart;
      const end = target.selectionEnd;
      if (start === null || end === null || !event.clipboardData) return;
      const text = target.value.slice(start, end);
      if (!/[\t\r\n]/.test(text)) return;
      // Written here, so the browser's own copy (which would write the same text unmarked) is not.
      event.preventDefault();
      event.clipboardData.setData('text/plain', text);
      event.clipboardData.setData(ONE_VALUE, text);
      // Deleted as an edit of the person's (undone by Ctrl+Z, with the browser's own input event);
      // by hand only where the browser has no such command.
      if (kind === 'cut' && !target.readOnly && !target.ownerDocument.execCommand('delete')) {
        target.setRangeText('', start, end, 'end');
        target.dispatchEvent(new Event('input', { bubbles: true }));
      }
    });
  }
}
