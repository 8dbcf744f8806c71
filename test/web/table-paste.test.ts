import { describe, expect, it } from 'vitest';
import { LABELS_EN, LABELS_PT_BR } from '../../web/association-screen/labels.js';
import { parseClipboard, pasteSaid } from '../../web/association-screen/table-paste.js';

describe('a block copied from a spreadsheet, as rows of cells', () => {
  it('splits cells on tabs and rows on line breaks, a line break at the end closing the last row', () => {
    expect(parseClipboard('a\tb\nc\td\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseClipboard('3\r\n4\r\n5\r\n')).toEqual([['3'], ['4'], ['5']]);
    expect(parseClipboard(' 7 \t\r\n')).toEqual([['7', '']]);
    expect(parseClipboard('a\n\nb')).toEqual([['a'], [''], ['b']]);
  });

  // Excel and Google Sheets quote a cell with a line break (Alt+Enter), its quotes doubled: it was
  // split into rows, and activity 2 got activity 1's Pessoas.
  it('keeps a quoted cell whole, its line break and tab in it, its doubled quotes read as one', () => {
    expect(parseClipboard('"Solo úmido\nrefazer"\t5\r\nOK\t6\r\n')).toEqual([
      ['Solo úmido\nrefazer', '5'],
      ['OK', '6'],
    ]);
    expect(parseClipboard('"a\tb"\t"Disse ""sim"""\n')).toEqual([['a\tb', 'Disse "sim"']]);
    expect(parseClipboard('" dois\n"\n')).toEqual([[' dois\n']]);
  });

  it('reads a quote anywhere else as text', () => {
    expect(parseClipboard('5" cm\t2\n')).toEqual([['5" cm', '2']]);
    // Its quote closes before the cell does: no quoted cell.
    expect(parseClipboard('"5" cm\t2\n')).toEqual([['"5" cm', '2']]);
    // Never closed: text up to the tab.
    expect(parseClipboard('"abc\tdef\n')).toEqual([['"abc', 'def']]);
  });
});

// It said "Pasted 1 cells." and "1 cells were left".
describe('what a paste says', () => {
  it('says one cell as one, and many by their count, in both languages', () => {
    expect(pasteSaid(LABELS_EN, { pasted: 1, left: 1, unread: 1 })).toBe(
      'Pasted 1 cell. 1 cell was left (read-only or past the end). 1 cell was left: its activity could not be read yet (Load the activities again).',
    );
    expect(pasteSaid(LABELS_EN, { pasted: 4, left: 2, unread: 0 })).toBe(
      'Pasted 4 cells. 2 cells were left (read-only or past the end).',
    );
    expect(pasteSaid(LABELS_EN, { pasted: 5, left: 0, unread: 0, kept: 1 })).toBe(
      'Pasted 5 cells. 1 cell typed in while the paste waited keeps what was typed.',
    );
    expect(pasteSaid(LABELS_EN, { pasted: 0, left: 0, unread: 3 })).toBe(
      'Pasted 0 cells. 3 cells were left: their activities could not be read yet (Load the activities again).',
    );
    expect(pasteSaid(LABELS_PT_BR, { pasted: 1, left: 1, unread: 0 })).toBe(
      '1 célula colada. 1 célula ficou de fora (somente leitura ou além do fim).',
    );
    expect(pasteSaid(LABELS_PT_BR, { pasted: 6, left: 0, unread: 2 })).toBe(
      '6 células coladas. 2 células ficaram de fora: suas atividades ainda não puderam ser lidas (Carregar as atividades de novo).',
    );
  });
});
