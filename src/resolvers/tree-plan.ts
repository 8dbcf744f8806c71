import {
  DEFAULT_METRICS,
  type Metric,
  type TreeView,
  type TreeViewLevel,
  treeViewLevels,
} from '../config/index.js';
import { type Identifier, parseIdentifier } from '../identifier.js';
import type { TableNames } from '../table-names.js';

/** One level of the tree as the loader walks it. */
export interface PlannedLevel extends TreeViewLevel {
  /**
   * The default tree's group level nests in itself through this parent column (OPER_GRUPO_SEQ_DB);
   * absent on TREE_VIEW levels, which only branch through association tables.
   */
  readonly nestedBy?: Identifier;
}

/** Everything the loader and the saver need to know about an installation's tree. */
export interface TreePlan {
  readonly levels: readonly PlannedLevel[];
  /** Where metrics are read and saved: `metricAssociationTable`, else the installation's OPER_GRUPO_METRICA. */
  readonly metricTable: Identifier;
  readonly metrics: readonly Metric[];
}

const GROUP_PARENT = parseIdentifier('OPER_GRUPO_SEQ_DB', 'group parent column');
const OPER_COLUMN = parseIdentifier('OPER_SEQ_DB', 'activity column');

/**
 * The levels to walk: the TREE_VIEW's when there is one, else the default tree of product.md
 * (groups nested by OPER_GRUPO_SEQ_DB, then activities through OPER_OPER_GRUPO).
 */
export function planTree(names: TableNames, treeView: TreeView | undefined): TreePlan {
  if (treeView !== undefined) {
    return {
      levels: treeViewLevels(treeView),
      metricTable: treeView.metricAssociationTable ?? names.OPER_GRUPO_METRICA,
      metrics: treeView.metrics ?? DEFAULT_METRICS,
    };
  }
  return {
    levels: [
      {
        level: 1,
        table: names.OPER_GRUPO,
        isTask: false,
        nestedBy: GROUP_PARENT,
        association: { table: names.OPER_OPER_GRUPO, parentColumn: GROUP_PARENT, childColumn: OPER_COLUMN },
      },
      { level: 2, table: names.OPER, isTask: true },
    ],
    metricTable: names.OPER_GRUPO_METRICA,
    metrics: DEFAULT_METRICS,
  };
}
