import { describe, expect, it } from 'vitest';
import { ConfigError, type MenuRowsInput, menuRows } from '../../src/model.js';

const menus = {
  taskSheet: { withMetrics: true, father: 10, order: 5 },
  taskSheetReport: { father: 20, order: 1 },
  activities: { father: null, order: 7 },
};
const input: MenuRowsInput = { scope: { EMPRESA: 1, FILIAL: 2, LOCAL: 3 }, menus };
const withMenus = (changes: Record<string, unknown>) => ({ ...input, menus: { ...menus, ...changes } });

describe('menuRows', () => {
  it('builds the three menu entries with exact FILTER JSON', () => {
    expect(menuRows(input)).toMatchInlineSnapshot(`
      [
        {
          "key": "taskSheetWithMetrics",
          "row": {
            "ATIVO": 1,
            "DESCRICAO": "Task sheet (with metrics)",
            "EMPRESA": 1,
            "FATHER": 10,
            "FILIAL": 2,
            "FILTER": "{"allowed":["FOLHA_TAREFA","OPER_GRUPO_METRICA"]}",
            "ICON": "fa fa-list-alt",
            "LOCAL": 3,
            "MENUORDER": 5,
            "TYPE": "CRUD",
            "URL": null,
          },
        },
        {
          "key": "taskSheetReport",
          "row": {
            "ATIVO": 1,
            "DESCRICAO": "Task sheet report",
            "EMPRESA": 1,
            "FATHER": 20,
            "FILIAL": 2,
            "FILTER": null,
            "ICON": "fa fa-file-text-o",
            "LOCAL": 3,
            "MENUORDER": 1,
            "TYPE": "LINK",
            "URL": "reports/parte_diaria/filters",
          },
        },
        {
          "key": "activities",
          "row": {
            "ATIVO": 1,
            "DESCRICAO": "Activities",
            "EMPRESA": 1,
            "FATHER": null,
            "FILIAL": 2,
            "FILTER": "{"allowed":["OPER","UNIDADE_MEDIDA","OPER_GRUPO","OPER_OPER_GRUPO","ETAPA"]}",
            "ICON": "fa fa-cubes",
            "LOCAL": 3,
            "MENUORDER": 7,
            "TYPE": "CRUD",
            "URL": null,
          },
        },
      ]
    `);
  });

  it('builds the task sheet without metrics, with its own label and icon', () => {
    const [taskSheet] = menuRows(
      withMenus({
        taskSheet: { withMetrics: false, father: 10, order: 6, label: 'Folha de tarefa', icon: 'fa fa-file' },
      }),
    );
    expect(taskSheet).toEqual({
      key: 'taskSheetWithoutMetrics',
      row: expect.objectContaining({
        DESCRICAO: 'Folha de tarefa',
        ICON: 'fa fa-file',
        FILTER: '{"allowed":["FOLHA_TAREFA"]}',
      }),
    });
  });

  it('allows the report link and the task sheet both at the top level (father null)', () => {
    const rows = menuRows(
      withMenus({
        taskSheet: { withMetrics: true, father: null, order: 1 },
        taskSheetReport: { father: null, order: 2 },
      }),
    );
    expect(rows.map((entry) => entry.row.FATHER)).toEqual([null, null, null]);
  });

  it.each([
    ['no scope', { ...input, scope: undefined }, 'scope: "scope" is required'],
    ['no menus', { ...input, menus: undefined }, 'menus: "menus" is required'],
    ['a missing entry', withMenus({ activities: undefined }), 'menus.activities: "activities" is required'],
    ['no father', withMenus({ activities: { order: 1 } }), 'menus.activities.father: "father" is required'],
    ['no order', withMenus({ activities: { father: 1 } }), 'menus.activities.order: "order" is required'],
    ['a negative order', withMenus({ activities: { father: 1, order: -1 } }), 'menus.activities.order'],
    ['a fractional father', withMenus({ activities: { father: 1.5, order: 1 } }), 'menus.activities.father'],
    [
      'an empty label',
      withMenus({ activities: { father: 1, order: 1, label: ' ' } }),
      'menus.activities.label',
    ],
    ['no withMetrics', withMenus({ taskSheet: { father: 1, order: 1 } }), 'menus.taskSheet.withMetrics'],
    [
      'an unknown key',
      withMenus({ activities: { father: 1, order: 1, url: 'x' } }),
      'menus.activities.url: unknown key "url"',
    ],
    [
      'the report under the task sheet parent',
      withMenus({ taskSheetReport: { father: 10, order: 1 } }),
      "menus.taskSheetReport.father: the report link goes under a parent menu of its own, not the task sheet's (10)",
    ],
  ])('refuses %s', (_name, bad, message) => {
    expect(() => menuRows(bad as MenuRowsInput)).toThrowError(ConfigError);
    expect(() => menuRows(bad as MenuRowsInput)).toThrowError(message);
  });
});
