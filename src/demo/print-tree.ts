import type { Metric } from '../model/metrics.js';
import type { TaskTree, TreeNode } from '../tree/load-task-tree.js';
import type { ResolvedMetric } from '../tree/metric-defaults.js';

/**
 * The task tree as indented text for the demo's terminal: each group, each activity, and each
 * metric with its value and where it came from (saved, or which default).
 */
export function formatTaskTree(tree: TaskTree): string {
  const sheet = tree.taskSheet;
  const lines = [
    `task sheet ${String(sheet.SEQ_DB)} (TALHAO ${String(sheet.TALHAO)}, QTD_PESSOAS ${String(sheet.QTD_PESSOAS)})`,
  ];
  const walk = (nodes: readonly TreeNode[], indent: string) => {
    nodes.forEach((node, index) => {
      const last = index === nodes.length - 1;
      const label = `${String(node.row.DESCRICAO ?? node.row.CODIGO ?? node.seqDb)} [${node.table} ${node.seqDb}]`;
      lines.push(`${indent}${last ? '└─ ' : '├─ '}${label}`);
      const inner = `${indent}${last ? '   ' : '│  '}`;
      if (node.kind === 'branch') walk(node.children, inner);
      else
        for (const metric of tree.metrics)
          lines.push(`${inner}· ${describeMetric(metric, node.metrics[metric.field])}`);
    });
  };
  walk(tree.roots, '');
  for (const cycle of tree.cycles) lines.push(`cycle left out: groups ${cycle.join(' → ')}`);
  return lines.join('\n');
}

function describeMetric(metric: Metric, resolved: ResolvedMetric | undefined): string {
  const name = metric.label === undefined ? metric.field : `${metric.field} (${metric.label})`;
  const value = resolved?.value ?? null;
  const source =
    resolved?.source === 'saved'
      ? 'saved'
      : resolved?.source === 'default' && metric.default !== undefined
        ? `default ${metric.default.type}${'name' in metric.default ? ` ${metric.default.name}` : ''}`
        : 'no value, no default';
  return `${name} = ${value === null ? '—' : String(value)} (${source})`;
}
