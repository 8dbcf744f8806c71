import { describe, expect, it } from 'vitest';
import { ConfigError, type MenuRowsInput, menuRows } from '../../src/config/index.js';

const input: MenuRowsInput = {
  scope: { EMPRESA: 1, FILIAL: 2, LOCAL: 3 },
  taskSheetWithMetrics: { father: 10, order: 5 },
  taskSheetWithoutMetrics: { father: 10, order: 6, label: 'Folha de tarefa', icon: 'fa fa-file' },
  taskSheetReport: { father: 20, order: 1 },
  activities: { father: null, order: 7 },
};

describe('menuRows', () => {
  it('builds the four entries of seed 2.7 with exact FILTER JSON', () => {
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
          "key": "taskSheetWithoutMetrics",
          "row": {
            "ATIVO": 1,
            "DESCRICAO": "Folha de tarefa",
            "EMPRESA": 1,
            "FATHER": 10,
            "FILIAL": 2,
            "FILTER": "{"allowed":["FOLHA_TAREFA"]}",
            "ICON": "fa fa-file",
            "LOCAL": 3,
            "MENUORDER": 6,
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

  it.each([
    ['no scope', { ...input, scope: undefined }, 'scope: "scope" is required'],
    ['a missing entry', { ...input, activities: undefined }, 'activities: "activities" is required'],
    ['no father', { ...input, activities: { order: 1 } }, 'activities.father: "father" is required'],
    ['no order', { ...input, activities: { father: 1 } }, 'activities.order: "order" is required'],
    ['a negative order', { ...input, activities: { father: 1, order: -1 } }, 'activities.order'],
    ['a fractional father', { ...input, activities: { father: 1.5, order: 1 } }, 'activities.father'],
    ['an empty label', { ...input, activities: { father: 1, order: 1, label: ' ' } }, 'activities.label'],
    [
      'an unknown key',
      { ...input, activities: { father: 1, order: 1, url: 'x' } },
      'activities.url: unknown key "url"',
    ],
    [
      'the report under the task sheet parent',
      { ...input, taskSheetReport: { father: 10, order: 1 } },
      'taskSheetReport.father: the report link goes under a separate parent menu (seed 2.7), not the one of taskSheetWithMetrics (10)',
    ],
  ])('refuses %s', (_name, bad, message) => {
    expect(() => menuRows(bad as MenuRowsInput)).toThrowError(ConfigError);
    expect(() => menuRows(bad as MenuRowsInput)).toThrowError(message);
  });
});
