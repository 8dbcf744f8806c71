import { z } from 'zod';
import { type Identifier, parseIdentifier, sameName } from './identifier.js';
import { ConfigurationError } from './issues.js';
import { parseInput } from './metric-batch.js';
import { DEFAULT_METRICS, type Metric } from './metrics.js';
import { TableNames } from './table-names.js';
import { TreeView, type TreeViewLevel, treeViewLevels } from './tree-view.js';

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

/** Plans made by {@link planTree}: the only ones a library call takes as its `plan`. */
const PLANS = new WeakSet<TreePlan>();

/** The arguments of {@link planTree}, checked as every public function's are. */
const PlanArguments = z.strictObject({ names: TableNames, treeView: TreeView.optional() });

/**
 * The levels to walk: the TREE_VIEW's when there is one, else the default tree (groups nested by
 * OPER_GRUPO_SEQ_DB, then activities through OPER_OPER_GRUPO). `loadTaskTree` and `saveMetrics`
 * take the result as their `plan` when the caller already has the installation's names and TREE_VIEW
 * (`resolveTreePlan` reads them from the scope's parameter rows).
 *
 * @example const plan = planTree(tableNames({ OPER: 'MO_OPER' }), undefined); // the default tree on MO_OPER
 */
export function planTree(names: z.input<typeof TableNames>, treeView?: z.input<typeof TreeView>): TreePlan {
  const plan = plannedTree(parseInput(PlanArguments, { names, treeView }, 'planTree arguments'));
  PLANS.add(plan);
  return plan;
}

/** A plan as a library option: one {@link planTree} made (a hand-made object could name any table). */
export const GivenPlan = z.custom<TreePlan>(
  (value) => typeof value === 'object' && value !== null && PLANS.has(value as TreePlan),
  { message: 'expected a plan made by planTree or resolveTreePlan' },
);

function plannedTree({ names, treeView }: z.output<typeof PlanArguments>): TreePlan {
  if (treeView !== undefined) {
    const mismatch = metricTableMismatch(names, treeView);
    if (mismatch !== undefined) {
      throw new ConfigurationError('METRIC_TABLE_MISMATCH', `TREE_VIEW ${mismatch.message}`, {
        path: mismatch.at,
      });
    }
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

/**
 * Why a TREE_VIEW cannot keep its metrics in the installation's own metric table, if it cannot:
 * that table's OPER_SEQ_DB refers to the installation's OPER and its OPER_GRUPO_SEQ_DB to its
 * OPER_GRUPO, so the task level must be OPER and the level it hangs from OPER_GRUPO. Any other tree
 * would write a sector's SEQ_DB where a group's belongs, and read and overwrite the rows of the
 * group that happens to have that SEQ_DB. Such a tree needs a `metricAssociationTable` of its own.
 * Table names compare without case, as the server may fold them.
 */
export function metricTableMismatch(
  names: TableNames,
  treeView: TreeView,
): { readonly at: string; readonly message: string } | undefined {
  const metricTable = treeView.metricAssociationTable ?? names.OPER_GRUPO_METRICA;
  if (!sameName(metricTable, names.OPER_GRUPO_METRICA)) return undefined;
  const levels = treeViewLevels(treeView);
  const task = levels.at(-1);
  const parent = levels.at(-2);
  const advice = `give the TREE_VIEW a metricAssociationTable of its own`;
  if (task !== undefined && !sameName(task.table, names.OPER)) {
    return {
      at: 'metricAssociationTable',
      message: `layers.${task.level}.table is ${task.table}, but metrics are saved in ${metricTable}, whose OPER_SEQ_DB refers to ${names.OPER}: ${advice}`,
    };
  }
  if (parent !== undefined && !sameName(parent.table, names.OPER_GRUPO)) {
    return {
      at: 'metricAssociationTable',
      message: `the activities hang from layers.${parent.level}.table ${parent.table}, but metrics are saved in ${metricTable}, whose OPER_GRUPO_SEQ_DB refers to ${names.OPER_GRUPO}: saves would write over the rows of other nodes; ${advice}`,
    };
  }
  return undefined;
}
