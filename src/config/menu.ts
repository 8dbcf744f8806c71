import { z } from 'zod';
import { Scope } from '../scope.js';
import { ConfigError } from './issues.js';
import { toConfigIssues } from './zod-issues.js';

/** The host table of menu entries (seed 2.7). */
export const MENU_TABLE = 'sys_core_menu';

/** The URL of the report link entry (seed 2.7). */
export const REPORT_URL = 'reports/parte_diaria/filters';

/** What each of the four entries of seed 2.7 is; everything else comes from the input. */
export const MENU_ENTRIES = {
  taskSheetWithMetrics: {
    TYPE: 'CRUD',
    URL: null,
    FILTER: JSON.stringify({ allowed: ['FOLHA_TAREFA', 'OPER_GRUPO_METRICA'] }),
    label: 'Task sheet (with metrics)',
    icon: 'fa fa-list-alt',
  },
  taskSheetWithoutMetrics: {
    TYPE: 'CRUD',
    URL: null,
    FILTER: JSON.stringify({ allowed: ['FOLHA_TAREFA'] }),
    label: 'Task sheet',
    icon: 'fa fa-list',
  },
  taskSheetReport: {
    TYPE: 'LINK',
    URL: REPORT_URL,
    FILTER: null,
    label: 'Task sheet report',
    icon: 'fa fa-file-text-o',
  },
  activities: {
    TYPE: 'CRUD',
    URL: null,
    FILTER: JSON.stringify({ allowed: ['OPER', 'UNIDADE_MEDIDA', 'OPER_GRUPO', 'OPER_OPER_GRUPO', 'ETAPA'] }),
    label: 'Activities',
    icon: 'fa fa-cubes',
  },
} as const;
export type MenuEntryKey = keyof typeof MENU_ENTRIES;
const MENU_KEYS = Object.keys(MENU_ENTRIES) as MenuEntryKey[];

/**
 * Where one entry goes: its parent menu (SEQ_DB of a sys_core_menu row, null for the top level) and
 * its order are installation-specific (seed 2.7), so they are required; label and icon have defaults.
 */
export const MenuEntryInput = z.strictObject({
  father: z.int().min(1).nullable(),
  order: z.int().min(0).max(2_147_483_647),
  label: z.string().trim().min(1).max(100).optional(),
  icon: z.string().trim().min(1).max(100).optional(),
});
export type MenuEntryInput = z.input<typeof MenuEntryInput>;

/** The input of {@link menuRows}: the scope and the four entries. The report link sits under a parent of its own. */
export const MenuRowsInput = z
  .strictObject({
    scope: Scope,
    taskSheetWithMetrics: MenuEntryInput,
    taskSheetWithoutMetrics: MenuEntryInput,
    taskSheetReport: MenuEntryInput,
    activities: MenuEntryInput,
  })
  .superRefine((input, ctx) => {
    const report = input.taskSheetReport.father;
    for (const key of ['taskSheetWithMetrics', 'taskSheetWithoutMetrics'] as const) {
      if (input[key].father === report)
        ctx.addIssue({
          code: 'custom',
          path: ['taskSheetReport', 'father'],
          message: `the report link goes under a separate parent menu (seed 2.7), not the one of ${key} (${report})`,
        });
    }
  });
export type MenuRowsInput = z.input<typeof MenuRowsInput>;

/** One sys_core_menu row, keyed by column name (seed 2.7). */
export const MenuRow = z.object({
  EMPRESA: z.int(),
  FILIAL: z.int(),
  LOCAL: z.int(),
  DESCRICAO: z.string(),
  TYPE: z.enum(['CRUD', 'LINK']),
  ATIVO: z.literal(1),
  FATHER: z.int().nullable(),
  MENUORDER: z.int(),
  URL: z.string().nullable(),
  FILTER: z.string().nullable(),
  ICON: z.string(),
});
export type MenuRow = z.infer<typeof MenuRow>;

/**
 * The four menu rows of seed 2.7, each with a stable key, in the seed's order. FILTER is compact JSON,
 * e.g. `{"allowed":["FOLHA_TAREFA","OPER_GRUPO_METRICA"]}`.
 *
 * @example menuRows(input).map((entry) => entry.key) // ['taskSheetWithMetrics', 'taskSheetWithoutMetrics', 'taskSheetReport', 'activities']
 */
export function menuRows(input: MenuRowsInput): { key: MenuEntryKey; row: MenuRow }[] {
  const parsed = MenuRowsInput.safeParse(input);
  if (!parsed.success)
    throw new ConfigError(
      'INVALID_MENU_INPUT',
      'cannot build the menu rows',
      toConfigIssues(parsed.error.issues, input),
    );
  const { scope } = parsed.data;
  return MENU_KEYS.map((key) => {
    const fixed = MENU_ENTRIES[key];
    const entry = parsed.data[key];
    return {
      key,
      row: {
        EMPRESA: scope.EMPRESA,
        FILIAL: scope.FILIAL,
        LOCAL: scope.LOCAL,
        DESCRICAO: entry.label ?? fixed.label,
        TYPE: fixed.TYPE,
        ATIVO: 1,
        FATHER: entry.father,
        MENUORDER: entry.order,
        URL: fixed.URL,
        FILTER: fixed.FILTER,
        ICON: entry.icon ?? fixed.icon,
      },
    };
  });
}
