import { describe, expect, it } from 'vitest';
import { parseIdentifier } from '../../src/model/identifier.js';
import { checkParts } from '../../src/store/save-checks.js';
import {
  childReads,
  labelMatches,
  liveParents,
  liveRow,
  parentGroupOf,
  rootReads,
  savedUnder,
  tableProbe,
} from '../../src/store/screen-reads.js';
import { sql } from '../../src/store/sql.js';
import {
  firstLevelRows,
  groupAncestors,
  levelRows,
  liveIds,
  liveLinks,
  previousTaskSheet,
  savedMetricRows,
  taskSheetRow,
} from '../../src/store/tree-reads.js';
import { DEFAULT_PLAN, THREE_LEVEL_PLAN } from '../tree/fixture.js';

// The exact text and parameters of every statement the tree, the screen and the save send, built
// without a database (as drizzle and kysely test theirs): a change to a statement shows here first,
// beside the integration tests that run them. The texts are the tuned ones; keep them unless a
// measurement says otherwise.

const scope = { EMPRESA: 1, FILIAL: 2, LOCAL: 3 };
const id = (name: string) => parseIdentifier(name, 'name');
const defaultPlan = DEFAULT_PLAN;
const [groups, activities] = defaultPlan.levels as [
  (typeof defaultPlan.levels)[number],
  (typeof defaultPlan.levels)[number],
];
const link = groups.association as NonNullable<typeof groups.association>;
const threeLevels = THREE_LEVEL_PLAN;
const labels = () => [id('SEQ_DB'), id('DESCRICAO')];

describe('the tree loader statements', () => {
  it('reads the first level, a lower level by join or by IN list, and the saved rows', () => {
    expect(firstLevelRows(scope, groups.table)).toMatchInlineSnapshot(`
      Sql {
        "params": [
          1,
          2,
          3,
        ],
        "sql": "SELECT c.* FROM \`app_oper_grupo\` c WHERE c.EMPRESA = ? AND c.FILIAL = ? AND c.LOCAL = ? AND IFNULL(c.DELETED, 0) = 0 AND IFNULL(c.ATIVO, 1) = 1",
      }
    `);
    expect(levelRows(scope, activities, link)).toMatchInlineSnapshot(`
      Sql {
        "params": [
          1,
          2,
          3,
          1,
          2,
          3,
        ],
        "sql": "SELECT c.*, a.\`OPER_GRUPO_SEQ_DB\` AS __ta_parent FROM \`app_oper_n_oper_grupo\` a JOIN \`app_oper\` c ON c.SEQ_DB = a.\`OPER_SEQ_DB\` WHERE a.EMPRESA = ? AND a.FILIAL = ? AND a.LOCAL = ? AND IFNULL(a.DELETED, 0) = 0 AND IFNULL(a.ATIVO, 1) = 1 AND c.EMPRESA = ? AND c.FILIAL = ? AND c.LOCAL = ? AND IFNULL(c.DELETED, 0) = 0 AND IFNULL(c.ATIVO, 1) = 1",
      }
    `);
    expect(levelRows(scope, activities, link, [7, 8])).toMatchInlineSnapshot(`
      Sql {
        "params": [
          1,
          2,
          3,
          1,
          2,
          3,
          7,
          8,
        ],
        "sql": "SELECT c.*, a.\`OPER_GRUPO_SEQ_DB\` AS __ta_parent FROM \`app_oper_n_oper_grupo\` a JOIN \`app_oper\` c ON c.SEQ_DB = a.\`OPER_SEQ_DB\` WHERE a.EMPRESA = ? AND a.FILIAL = ? AND a.LOCAL = ? AND IFNULL(a.DELETED, 0) = 0 AND IFNULL(a.ATIVO, 1) = 1 AND c.EMPRESA = ? AND c.FILIAL = ? AND c.LOCAL = ? AND IFNULL(c.DELETED, 0) = 0 AND IFNULL(c.ATIVO, 1) = 1 AND a.\`OPER_GRUPO_SEQ_DB\` IN (?, ?)",
      }
    `);
    expect(savedMetricRows(scope, defaultPlan.metricTable, 42)).toMatchInlineSnapshot(`
      Sql {
        "params": [
          1,
          2,
          3,
          42,
        ],
        "sql": "SELECT m.* FROM \`app_oper_grupo_metrica\` m WHERE m.EMPRESA = ? AND m.FILIAL = ? AND m.LOCAL = ? AND IFNULL(m.DELETED, 0) = 0 AND m.FOLHA_TAREFA_SEQ_DB = ?",
      }
    `);
    expect(taskSheetRow(42)).toMatchInlineSnapshot(`
      Sql {
        "params": [
          42,
        ],
        "sql": "SELECT t.* FROM \`app_folha_tarefa\` t WHERE t.SEQ_DB = ?",
      }
    `);
  });

  it('walks up: live ids, live links to live parents, and the nested groups chain', () => {
    expect(liveIds(scope, groups.table, [5, 6])).toMatchInlineSnapshot(`
      Sql {
        "params": [
          1,
          2,
          3,
          5,
          6,
        ],
        "sql": "SELECT t.SEQ_DB AS id FROM \`app_oper_grupo\` t WHERE t.EMPRESA = ? AND t.FILIAL = ? AND t.LOCAL = ? AND IFNULL(t.DELETED, 0) = 0 AND IFNULL(t.ATIVO, 1) = 1 AND t.SEQ_DB IN (?, ?)",
      }
    `);
    expect(liveLinks(scope, activities, groups, link, [9])).toMatchInlineSnapshot(`
      Sql {
        "params": [
          1,
          2,
          3,
          1,
          2,
          3,
          1,
          2,
          3,
          9,
        ],
        "sql": "SELECT STRAIGHT_JOIN a.\`OPER_SEQ_DB\` AS c, a.\`OPER_GRUPO_SEQ_DB\` AS p FROM \`app_oper_n_oper_grupo\` a JOIN \`app_oper\` c ON c.SEQ_DB = a.\`OPER_SEQ_DB\` JOIN \`app_oper_grupo\` p ON p.SEQ_DB = a.\`OPER_GRUPO_SEQ_DB\` WHERE a.EMPRESA = ? AND a.FILIAL = ? AND a.LOCAL = ? AND IFNULL(a.DELETED, 0) = 0 AND IFNULL(a.ATIVO, 1) = 1 AND c.EMPRESA = ? AND c.FILIAL = ? AND c.LOCAL = ? AND IFNULL(c.DELETED, 0) = 0 AND IFNULL(c.ATIVO, 1) = 1 AND p.EMPRESA = ? AND p.FILIAL = ? AND p.LOCAL = ? AND IFNULL(p.DELETED, 0) = 0 AND IFNULL(p.ATIVO, 1) = 1 AND a.\`OPER_SEQ_DB\` IN (?)",
      }
    `);
    expect(groupAncestors(scope, groups.table, id('OPER_GRUPO_SEQ_DB'), [5])).toMatchInlineSnapshot(`
      Sql {
        "params": [
          1,
          2,
          3,
          5,
          1,
          2,
          3,
        ],
        "sql": "WITH RECURSIVE chain (id, parent, step) AS (SELECT g.SEQ_DB, g.\`OPER_GRUPO_SEQ_DB\`, 1 FROM \`app_oper_grupo\` g WHERE g.EMPRESA = ? AND g.FILIAL = ? AND g.LOCAL = ? AND IFNULL(g.DELETED, 0) = 0 AND IFNULL(g.ATIVO, 1) = 1 AND g.SEQ_DB IN (?) UNION SELECT STRAIGHT_JOIN g.SEQ_DB, g.\`OPER_GRUPO_SEQ_DB\`, c.step + 1 FROM chain c JOIN \`app_oper_grupo\` g ON g.SEQ_DB = c.parent WHERE c.step < 100 AND g.EMPRESA = ? AND g.FILIAL = ? AND g.LOCAL = ? AND IFNULL(g.DELETED, 0) = 0 AND IFNULL(g.ATIVO, 1) = 1) SELECT DISTINCT id, parent FROM chain",
      }
    `);
  });
});

describe("the screen's statements", () => {
  it('lists roots and children, each with whether it has children, narrow and wide', () => {
    expect(rootReads(defaultPlan.levels, scope, labels)).toMatchInlineSnapshot(`
      [
        {
          "level": {
            "association": {
              "childColumn": "OPER_SEQ_DB",
              "parentColumn": "OPER_GRUPO_SEQ_DB",
              "table": "app_oper_n_oper_grupo",
            },
            "isTask": false,
            "level": 1,
            "nestedBy": "OPER_GRUPO_SEQ_DB",
            "table": "app_oper_grupo",
          },
          "narrow": Sql {
            "params": [
              1,
              2,
              3,
              1,
              2,
              3,
              1,
              2,
              3,
              1,
              2,
              3,
            ],
            "sql": "SELECT c.\`SEQ_DB\`, c.\`DESCRICAO\`, (EXISTS (SELECT 1 FROM \`app_oper_grupo\` n WHERE n.\`OPER_GRUPO_SEQ_DB\` = c.SEQ_DB AND n.EMPRESA = ? AND n.FILIAL = ? AND n.LOCAL = ? AND IFNULL(n.DELETED, 0) = 0 AND IFNULL(n.ATIVO, 1) = 1) OR EXISTS (SELECT 1 FROM \`app_oper_n_oper_grupo\` l JOIN \`app_oper\` n ON n.SEQ_DB = l.\`OPER_SEQ_DB\` WHERE l.\`OPER_GRUPO_SEQ_DB\` = c.SEQ_DB AND l.EMPRESA = ? AND l.FILIAL = ? AND l.LOCAL = ? AND IFNULL(l.DELETED, 0) = 0 AND IFNULL(l.ATIVO, 1) = 1 AND n.EMPRESA = ? AND n.FILIAL = ? AND n.LOCAL = ? AND IFNULL(n.DELETED, 0) = 0 AND IFNULL(n.ATIVO, 1) = 1)) AS __ta_has_children FROM \`app_oper_grupo\` c WHERE c.EMPRESA = ? AND c.FILIAL = ? AND c.LOCAL = ? AND IFNULL(c.DELETED, 0) = 0 AND IFNULL(c.ATIVO, 1) = 1 AND c.\`OPER_GRUPO_SEQ_DB\` IS NULL",
          },
          "wide": Sql {
            "params": [
              1,
              2,
              3,
              1,
              2,
              3,
              1,
              2,
              3,
              1,
              2,
              3,
            ],
            "sql": "SELECT c.*, (EXISTS (SELECT 1 FROM \`app_oper_grupo\` n WHERE n.\`OPER_GRUPO_SEQ_DB\` = c.SEQ_DB AND n.EMPRESA = ? AND n.FILIAL = ? AND n.LOCAL = ? AND IFNULL(n.DELETED, 0) = 0 AND IFNULL(n.ATIVO, 1) = 1) OR EXISTS (SELECT 1 FROM \`app_oper_n_oper_grupo\` l JOIN \`app_oper\` n ON n.SEQ_DB = l.\`OPER_SEQ_DB\` WHERE l.\`OPER_GRUPO_SEQ_DB\` = c.SEQ_DB AND l.EMPRESA = ? AND l.FILIAL = ? AND l.LOCAL = ? AND IFNULL(l.DELETED, 0) = 0 AND IFNULL(l.ATIVO, 1) = 1 AND n.EMPRESA = ? AND n.FILIAL = ? AND n.LOCAL = ? AND IFNULL(n.DELETED, 0) = 0 AND IFNULL(n.ATIVO, 1) = 1)) AS __ta_has_children FROM \`app_oper_grupo\` c WHERE c.EMPRESA = ? AND c.FILIAL = ? AND c.LOCAL = ? AND IFNULL(c.DELETED, 0) = 0 AND IFNULL(c.ATIVO, 1) = 1 AND c.\`OPER_GRUPO_SEQ_DB\` IS NULL",
          },
        },
      ]
    `);
    expect(childReads(defaultPlan.levels, 0, 7, scope, labels)).toMatchInlineSnapshot(`
      [
        {
          "level": {
            "association": {
              "childColumn": "OPER_SEQ_DB",
              "parentColumn": "OPER_GRUPO_SEQ_DB",
              "table": "app_oper_n_oper_grupo",
            },
            "isTask": false,
            "level": 1,
            "nestedBy": "OPER_GRUPO_SEQ_DB",
            "table": "app_oper_grupo",
          },
          "narrow": Sql {
            "params": [
              1,
              2,
              3,
              1,
              2,
              3,
              1,
              2,
              3,
              1,
              2,
              3,
              7,
            ],
            "sql": "SELECT c.\`SEQ_DB\`, c.\`DESCRICAO\`, (EXISTS (SELECT 1 FROM \`app_oper_grupo\` n WHERE n.\`OPER_GRUPO_SEQ_DB\` = c.SEQ_DB AND n.EMPRESA = ? AND n.FILIAL = ? AND n.LOCAL = ? AND IFNULL(n.DELETED, 0) = 0 AND IFNULL(n.ATIVO, 1) = 1) OR EXISTS (SELECT 1 FROM \`app_oper_n_oper_grupo\` l JOIN \`app_oper\` n ON n.SEQ_DB = l.\`OPER_SEQ_DB\` WHERE l.\`OPER_GRUPO_SEQ_DB\` = c.SEQ_DB AND l.EMPRESA = ? AND l.FILIAL = ? AND l.LOCAL = ? AND IFNULL(l.DELETED, 0) = 0 AND IFNULL(l.ATIVO, 1) = 1 AND n.EMPRESA = ? AND n.FILIAL = ? AND n.LOCAL = ? AND IFNULL(n.DELETED, 0) = 0 AND IFNULL(n.ATIVO, 1) = 1)) AS __ta_has_children FROM \`app_oper_grupo\` c WHERE c.EMPRESA = ? AND c.FILIAL = ? AND c.LOCAL = ? AND IFNULL(c.DELETED, 0) = 0 AND IFNULL(c.ATIVO, 1) = 1 AND c.\`OPER_GRUPO_SEQ_DB\` = ?",
          },
          "wide": Sql {
            "params": [
              1,
              2,
              3,
              1,
              2,
              3,
              1,
              2,
              3,
              1,
              2,
              3,
              7,
            ],
            "sql": "SELECT c.*, (EXISTS (SELECT 1 FROM \`app_oper_grupo\` n WHERE n.\`OPER_GRUPO_SEQ_DB\` = c.SEQ_DB AND n.EMPRESA = ? AND n.FILIAL = ? AND n.LOCAL = ? AND IFNULL(n.DELETED, 0) = 0 AND IFNULL(n.ATIVO, 1) = 1) OR EXISTS (SELECT 1 FROM \`app_oper_n_oper_grupo\` l JOIN \`app_oper\` n ON n.SEQ_DB = l.\`OPER_SEQ_DB\` WHERE l.\`OPER_GRUPO_SEQ_DB\` = c.SEQ_DB AND l.EMPRESA = ? AND l.FILIAL = ? AND l.LOCAL = ? AND IFNULL(l.DELETED, 0) = 0 AND IFNULL(l.ATIVO, 1) = 1 AND n.EMPRESA = ? AND n.FILIAL = ? AND n.LOCAL = ? AND IFNULL(n.DELETED, 0) = 0 AND IFNULL(n.ATIVO, 1) = 1)) AS __ta_has_children FROM \`app_oper_grupo\` c WHERE c.EMPRESA = ? AND c.FILIAL = ? AND c.LOCAL = ? AND IFNULL(c.DELETED, 0) = 0 AND IFNULL(c.ATIVO, 1) = 1 AND c.\`OPER_GRUPO_SEQ_DB\` = ?",
          },
        },
        {
          "level": {
            "isTask": true,
            "level": 2,
            "table": "app_oper",
          },
          "narrow": Sql {
            "params": [
              1,
              2,
              3,
              1,
              2,
              3,
              7,
            ],
            "sql": "SELECT c.\`SEQ_DB\`, c.\`DESCRICAO\` FROM \`app_oper_n_oper_grupo\` a JOIN \`app_oper\` c ON c.SEQ_DB = a.\`OPER_SEQ_DB\` WHERE a.EMPRESA = ? AND a.FILIAL = ? AND a.LOCAL = ? AND IFNULL(a.DELETED, 0) = 0 AND IFNULL(a.ATIVO, 1) = 1 AND c.EMPRESA = ? AND c.FILIAL = ? AND c.LOCAL = ? AND IFNULL(c.DELETED, 0) = 0 AND IFNULL(c.ATIVO, 1) = 1 AND a.\`OPER_GRUPO_SEQ_DB\` = ?",
          },
          "wide": Sql {
            "params": [
              1,
              2,
              3,
              1,
              2,
              3,
              7,
            ],
            "sql": "SELECT c.* FROM \`app_oper_n_oper_grupo\` a JOIN \`app_oper\` c ON c.SEQ_DB = a.\`OPER_SEQ_DB\` WHERE a.EMPRESA = ? AND a.FILIAL = ? AND a.LOCAL = ? AND IFNULL(a.DELETED, 0) = 0 AND IFNULL(a.ATIVO, 1) = 1 AND c.EMPRESA = ? AND c.FILIAL = ? AND c.LOCAL = ? AND IFNULL(c.DELETED, 0) = 0 AND IFNULL(c.ATIVO, 1) = 1 AND a.\`OPER_GRUPO_SEQ_DB\` = ?",
          },
        },
      ]
    `);
    expect(
      childReads(threeLevels.levels, 1, 7, scope, labels).map((read) => read.narrow),
    ).toMatchInlineSnapshot(`
      [
        Sql {
          "params": [
            1,
            2,
            3,
            1,
            2,
            3,
            7,
          ],
          "sql": "SELECT c.\`SEQ_DB\`, c.\`DESCRICAO\` FROM \`app_oper_n_oper_grupo\` a JOIN \`app_oper\` c ON c.SEQ_DB = a.\`OPER_SEQ_DB\` WHERE a.EMPRESA = ? AND a.FILIAL = ? AND a.LOCAL = ? AND IFNULL(a.DELETED, 0) = 0 AND IFNULL(a.ATIVO, 1) = 1 AND c.EMPRESA = ? AND c.FILIAL = ? AND c.LOCAL = ? AND IFNULL(c.DELETED, 0) = 0 AND IFNULL(c.ATIVO, 1) = 1 AND a.\`OPER_GRUPO_SEQ_DB\` = ?",
        },
      ]
    `);
  });

  it('reads the saved rows under a parent, or without one on a one-level tree', () => {
    expect(
      savedUnder(scope, defaultPlan.metricTable, 42, { association: link, parent: 7 }),
    ).toMatchInlineSnapshot(`
      Sql {
        "params": [
          7,
          1,
          2,
          3,
          1,
          2,
          3,
          42,
        ],
        "sql": "SELECT m.* FROM \`app_oper_n_oper_grupo\` a JOIN \`app_oper_grupo_metrica\` m ON m.OPER_SEQ_DB = a.\`OPER_SEQ_DB\` AND m.OPER_GRUPO_SEQ_DB = a.\`OPER_GRUPO_SEQ_DB\` WHERE a.\`OPER_GRUPO_SEQ_DB\` = ? AND a.EMPRESA = ? AND a.FILIAL = ? AND a.LOCAL = ? AND IFNULL(a.DELETED, 0) = 0 AND IFNULL(a.ATIVO, 1) = 1 AND m.EMPRESA = ? AND m.FILIAL = ? AND m.LOCAL = ? AND IFNULL(m.DELETED, 0) = 0 AND m.FOLHA_TAREFA_SEQ_DB = ? ORDER BY m.ID",
      }
    `);
    expect(savedUnder(scope, defaultPlan.metricTable, 42, null)).toMatchInlineSnapshot(`
      Sql {
        "params": [
          1,
          2,
          3,
          42,
        ],
        "sql": "SELECT m.* FROM \`app_oper_grupo_metrica\` m WHERE m.EMPRESA = ? AND m.FILIAL = ? AND m.LOCAL = ? AND IFNULL(m.DELETED, 0) = 0 AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.OPER_GRUPO_SEQ_DB IS NULL ORDER BY m.ID",
      }
    `);
  });

  it('searches labels, and walks up from a match', () => {
    expect(tableProbe(groups.table)).toMatchInlineSnapshot(`
      Sql {
        "params": [],
        "sql": "SELECT 1 FROM \`app_oper_grupo\` LIMIT 0",
      }
    `);
    // Each word in any label column, the words ANDed: "A01 Roçada" as typed, code and description.
    expect(
      labelMatches(scope, activities.table, [id('CODIGO'), id('DESCRICAO')], ['%A01%', '%Roçada%'], 31),
    ).toMatchInlineSnapshot(`
      Sql {
        "params": [
          1,
          2,
          3,
          "%A01%",
          "%A01%",
          "%Roçada%",
          "%Roçada%",
        ],
        "sql": "SELECT c.* FROM \`app_oper\` c WHERE c.EMPRESA = ? AND c.FILIAL = ? AND c.LOCAL = ? AND IFNULL(c.DELETED, 0) = 0 AND IFNULL(c.ATIVO, 1) = 1 AND (CONVERT(c.\`CODIGO\` USING utf8mb4) COLLATE utf8mb4_unicode_ci LIKE ? OR CONVERT(c.\`DESCRICAO\` USING utf8mb4) COLLATE utf8mb4_unicode_ci LIKE ?) AND (CONVERT(c.\`CODIGO\` USING utf8mb4) COLLATE utf8mb4_unicode_ci LIKE ? OR CONVERT(c.\`DESCRICAO\` USING utf8mb4) COLLATE utf8mb4_unicode_ci LIKE ?) LIMIT 31",
      }
    `);
    expect(parentGroupOf(groups.table, id('OPER_GRUPO_SEQ_DB'), 5)).toMatchInlineSnapshot(`
      Sql {
        "params": [
          5,
        ],
        "sql": "SELECT c.\`OPER_GRUPO_SEQ_DB\` AS p FROM \`app_oper_grupo\` c WHERE c.SEQ_DB = ?",
      }
    `);
    expect(liveRow(scope, groups.table, 4)).toMatchInlineSnapshot(`
      Sql {
        "params": [
          1,
          2,
          3,
          4,
        ],
        "sql": "SELECT p.* FROM \`app_oper_grupo\` p WHERE p.EMPRESA = ? AND p.FILIAL = ? AND p.LOCAL = ? AND IFNULL(p.DELETED, 0) = 0 AND IFNULL(p.ATIVO, 1) = 1 AND p.SEQ_DB = ?",
      }
    `);
    expect(liveParents(scope, groups, link, 9)).toMatchInlineSnapshot(`
      Sql {
        "params": [
          1,
          2,
          3,
          1,
          2,
          3,
          9,
        ],
        "sql": "SELECT p.* FROM \`app_oper_n_oper_grupo\` a JOIN \`app_oper_grupo\` p ON p.SEQ_DB = a.\`OPER_GRUPO_SEQ_DB\` WHERE a.EMPRESA = ? AND a.FILIAL = ? AND a.LOCAL = ? AND IFNULL(a.DELETED, 0) = 0 AND IFNULL(a.ATIVO, 1) = 1 AND p.EMPRESA = ? AND p.FILIAL = ? AND p.LOCAL = ? AND IFNULL(p.DELETED, 0) = 0 AND IFNULL(p.ATIVO, 1) = 1 AND a.\`OPER_SEQ_DB\` IN (?)",
      }
    `);
  });
});

describe("the save's checks", () => {
  it('checks the task sheet, the links and the walk up the default tree', () => {
    const parts = checkParts(
      defaultPlan,
      scope,
      42,
      new Set(['SEQ_DB', 'EMPRESA', 'DELETED']),
      [{ activity: 7, group: 1 }],
      [1],
    );
    expect(parts.with).toMatchInlineSnapshot(`
      Sql {
        "params": [
          1,
          2,
          3,
          1,
          1,
          2,
          3,
        ],
        "sql": "chain (id, parent, step) AS (SELECT g.SEQ_DB, g.\`OPER_GRUPO_SEQ_DB\`, 1 FROM \`app_oper_grupo\` g WHERE g.EMPRESA = ? AND g.FILIAL = ? AND g.LOCAL = ? AND IFNULL(g.DELETED, 0) = 0 AND IFNULL(g.ATIVO, 1) = 1 AND g.SEQ_DB IN (?) UNION SELECT STRAIGHT_JOIN g.SEQ_DB, g.\`OPER_GRUPO_SEQ_DB\`, c.step + 1 FROM chain c JOIN \`app_oper_grupo\` g ON g.SEQ_DB = c.parent WHERE c.step < 100 AND g.EMPRESA = ? AND g.FILIAL = ? AND g.LOCAL = ? AND IFNULL(g.DELETED, 0) = 0 AND IFNULL(g.ATIVO, 1) = 1)",
      }
    `);
    expect(parts.columns).toMatchInlineSnapshot(`
      Sql {
        "params": [
          42,
          1,
          1,
          2,
          3,
          1,
          2,
          3,
          7,
          "7:1",
        ],
        "sql": "(SELECT 1 FROM \`app_folha_tarefa\` t WHERE t.SEQ_DB = ? AND t.EMPRESA = ? AND IFNULL(t.DELETED, 0) = 0 LIMIT 1) AS sheet_ok, CASE WHEN k.n = 1 THEN (SELECT STRAIGHT_JOIN JSON_ARRAYAGG(JSON_ARRAY(a.\`OPER_SEQ_DB\`, a.\`OPER_GRUPO_SEQ_DB\`)) FROM \`app_oper_n_oper_grupo\` a JOIN \`app_oper\` t ON t.SEQ_DB = a.\`OPER_SEQ_DB\` WHERE a.EMPRESA = ? AND a.FILIAL = ? AND a.LOCAL = ? AND IFNULL(a.DELETED, 0) = 0 AND IFNULL(a.ATIVO, 1) = 1 AND t.EMPRESA = ? AND t.FILIAL = ? AND t.LOCAL = ? AND IFNULL(t.DELETED, 0) = 0 AND IFNULL(t.ATIVO, 1) = 1 AND a.\`OPER_SEQ_DB\` IN (?) AND CONCAT(a.\`OPER_SEQ_DB\`, ':', a.\`OPER_GRUPO_SEQ_DB\`) IN (?)) END AS linked, CASE WHEN k.n = 1 THEN (SELECT JSON_ARRAYAGG(JSON_ARRAY(id, parent, step)) FROM (SELECT id, parent, MAX(step) AS step FROM chain GROUP BY id, parent) d) END AS w0",
      }
    `);
  });

  it('walks a TREE_VIEW level by level', () => {
    const parts = checkParts(
      threeLevels,
      scope,
      42,
      new Set(['SEQ_DB']),
      [{ activity: 7, group: 1 }],
      [1, 2, 3],
    );
    expect(sql`${parts.with ?? sql.empty}`).toMatchInlineSnapshot(`
      Sql {
        "params": [
          1,
          2,
          3,
          1,
          2,
          3,
          1,
          2,
          3,
          1,
          2,
          3,
          3,
        ],
        "sql": "l1 (c, p) AS (SELECT STRAIGHT_JOIN a.\`OPER_GRUPO_SEQ_DB\`, a.\`REGIAO_SEQ_DB\` FROM \`app_regiao_n_oper_grupo\` a JOIN \`app_oper_grupo\` c ON c.SEQ_DB = a.\`OPER_GRUPO_SEQ_DB\` JOIN \`app_regiao\` p ON p.SEQ_DB = a.\`REGIAO_SEQ_DB\` WHERE a.EMPRESA = ? AND a.FILIAL = ? AND a.LOCAL = ? AND IFNULL(a.DELETED, 0) = 0 AND IFNULL(a.ATIVO, 1) = 1 AND c.EMPRESA = ? AND c.FILIAL = ? AND c.LOCAL = ? AND IFNULL(c.DELETED, 0) = 0 AND IFNULL(c.ATIVO, 1) = 1 AND p.EMPRESA = ? AND p.FILIAL = ? AND p.LOCAL = ? AND IFNULL(p.DELETED, 0) = 0 AND IFNULL(p.ATIVO, 1) = 1 AND a.\`OPER_GRUPO_SEQ_DB\` IN (?, ?, ?, ?)), s0 (id) AS (SELECT DISTINCT p FROM l1)",
      }
    `);
    expect(parts.columns).toMatchInlineSnapshot(`
      Sql {
        "params": [
          42,
          1,
          2,
          3,
          1,
          2,
          3,
          7,
          "7:1",
          1,
          2,
          3,
        ],
        "sql": "(SELECT 1 FROM \`app_folha_tarefa\` t WHERE t.SEQ_DB = ? LIMIT 1) AS sheet_ok, CASE WHEN k.n = 1 THEN (SELECT STRAIGHT_JOIN JSON_ARRAYAGG(JSON_ARRAY(a.\`OPER_SEQ_DB\`, a.\`OPER_GRUPO_SEQ_DB\`)) FROM \`app_oper_n_oper_grupo\` a JOIN \`app_oper\` t ON t.SEQ_DB = a.\`OPER_SEQ_DB\` WHERE a.EMPRESA = ? AND a.FILIAL = ? AND a.LOCAL = ? AND IFNULL(a.DELETED, 0) = 0 AND IFNULL(a.ATIVO, 1) = 1 AND t.EMPRESA = ? AND t.FILIAL = ? AND t.LOCAL = ? AND IFNULL(t.DELETED, 0) = 0 AND IFNULL(t.ATIVO, 1) = 1 AND a.\`OPER_SEQ_DB\` IN (?) AND CONCAT(a.\`OPER_SEQ_DB\`, ':', a.\`OPER_GRUPO_SEQ_DB\`) IN (?)) END AS linked, CASE WHEN k.n = 1 THEN (SELECT JSON_ARRAYAGG(JSON_ARRAY(c, p)) FROM l1) END AS w1, CASE WHEN k.n = 1 THEN (SELECT JSON_ARRAYAGG(g.SEQ_DB) FROM \`app_regiao\` g WHERE g.EMPRESA = ? AND g.FILIAL = ? AND g.LOCAL = ? AND IFNULL(g.DELETED, 0) = 0 AND IFNULL(g.ATIVO, 1) = 1 AND g.SEQ_DB IN (SELECT id FROM s0)) END AS w0",
      }
    `);
  });
});

describe('the previous task sheet', () => {
  const scope = { EMPRESA: 1, FILIAL: 2, LOCAL: 3 };
  const all = { scope: ['EMPRESA', 'FILIAL', 'LOCAL'] as const, deleted: true, ativo: true };
  it('orders by the date column, then SEQ_DB, undated sheets earliest; every value bound', () => {
    expect(
      previousTaskSheet(scope, all, parseIdentifier('DATA', 'd'), { id: 9, date: '2026-11-20' }),
    ).toMatchInlineSnapshot(`
      Sql {
        "params": [
          1,
          2,
          3,
          "2026-11-20",
          "2026-11-20",
          9,
        ],
        "sql": "SELECT t.* FROM \`app_folha_tarefa\` t WHERE t.EMPRESA = ? AND t.FILIAL = ? AND t.LOCAL = ? AND IFNULL(t.DELETED, 0) = 0 AND IFNULL(t.ATIVO, 1) = 1 AND (t.\`DATA\` < ? OR (t.\`DATA\` = ? AND t.SEQ_DB < ?) OR t.\`DATA\` IS NULL) ORDER BY t.\`DATA\` DESC, t.SEQ_DB DESC LIMIT 1",
      }
    `);
  });

  it('takes SEQ_DB order without a date column, and filters by the columns the table has', () => {
    expect(
      previousTaskSheet(scope, { scope: ['EMPRESA'], deleted: false, ativo: false }, undefined, {
        id: 9,
        date: null,
      }),
    ).toMatchInlineSnapshot(`
      Sql {
        "params": [
          1,
          9,
        ],
        "sql": "SELECT t.* FROM \`app_folha_tarefa\` t WHERE t.EMPRESA = ? AND t.SEQ_DB < ? ORDER BY t.SEQ_DB DESC LIMIT 1",
      }
    `);
  });
});
