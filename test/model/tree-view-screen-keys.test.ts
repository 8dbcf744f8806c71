import { describe, expect, it } from 'vitest';
import { formatIssues, parseTreeView, treeViewLevels } from '../../src/model.js';

const layers = (labelColumns: unknown) => ({
  '1': { table: 'app_oper_grupo', associationTable: 'app_oper_n_oper_grupo', labelColumns },
  '2': { table: 'app_oper', isTask: true },
});

describe('the screen keys of a TREE_VIEW: labelColumns per layer, taskSheetColumns', () => {
  it('accepts them and passes each layer’s label columns on to its level', () => {
    const result = parseTreeView({
      layers: layers(['NOME', 'CODIGO']),
      taskSheetColumns: ['SEQ_DB', 'DATA'],
    });
    if (!result.success) throw new Error(formatIssues(result.issues));
    expect(result.data.taskSheetColumns).toEqual(['SEQ_DB', 'DATA']);
    expect(treeViewLevels(result.data).map((level) => level.labelColumns)).toEqual([
      ['NOME', 'CODIGO'],
      undefined,
    ]);
  });

  it.each([
    ['an empty label list', layers([]), 'layers.1.labelColumns'],
    ['a label column twice (any case)', layers(['NOME', 'nome']), 'layers.1.labelColumns'],
    ['a label column that is no identifier', layers(['NOME; DROP']), 'layers.1.labelColumns.0'],
    ['more than four label columns', layers(['A', 'B', 'C', 'D', 'E']), 'layers.1.labelColumns'],
  ])('refuses %s, at its path', (_, value, path) => {
    const result = parseTreeView({ layers: value });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.issues.map((issue) => issue.path)).toContain(path);
  });

  it('takes a header column as a name or as { column, label }', () => {
    const result = parseTreeView({
      layers: layers(undefined),
      taskSheetColumns: ['SEQ_DB', { column: 'TALHAO', label: 'Talhão' }],
    });
    expect(result).toMatchObject({
      success: true,
      data: { taskSheetColumns: ['SEQ_DB', { column: 'TALHAO', label: 'Talhão' }] },
    });
  });

  it('refuses an empty or non-identifier taskSheetColumns, an empty label and an unknown key', () => {
    for (const taskSheetColumns of [
      [],
      ['DATA', 'x y'],
      [{ column: 'DATA', label: ' ' }],
      [{ column: 'DATA', label: 'Data', width: 3 }],
    ]) {
      const result = parseTreeView({ layers: layers(undefined), taskSheetColumns });
      expect(result.success).toBe(false);
    }
  });
});
