import { z } from 'zod';
import { HostText } from './host-text.js';
import { parseIdentifier } from './identifier.js';
import { parseOrThrow } from './parse-or-throw.js';
import { Scope } from './scope.js';
import { SeqDb } from './seq-db.js';
import { HOST_SYSTEM_TABLES } from './table-names.js';

/** The host table of menu entries. */
export const MENU_TABLE = parseIdentifier(HOST_SYSTEM_TABLES.MENU, 'host table');

/** The URL of the report link entry: the host's task-sheet report filters screen. */
export const REPORT_URL = 'reports/parte_diaria/filters';

/** What each of the customer's four menu entries is; everything else comes from the input. */
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

/**
 * Where one entry goes: its parent menu (SEQ_DB of a sys_core_menu row, null for the top level) and
 * its order differ per installation, so they are required; label and icon have defaults.
 */
export const MenuEntryInput = z.strictObject({
  father: SeqDb.nullable(),
  order: z.int().min(0).max(2_147_483_647),
  label: HostText.trim().min(1).max(100).optional(),
  icon: HostText.trim().min(1).max(100).optional(),
});
export type MenuEntryInput = z.input<typeof MenuEntryInput>;

/**
 * Where the three entries of one installation go: the task sheet (with or without metrics, the customer
 * offers both), the report link and the activities. One rule: the report link sits under a parent menu
 * of its own, so a non-null parent equal to the task sheet's is refused; null (the top level) is
 * allowed for both, as a host without any menu needs.
 */
export const MenuPlacements = z
  .strictObject({
    taskSheet: MenuEntryInput.extend({
      withMetrics: z
        .boolean()
        .describe('true: the task sheet with metrics (FILTER allows FOLHA_TAREFA and OPER_GRUPO_METRICA)'),
    }),
    taskSheetReport: MenuEntryInput.describe('the report link; under a parent menu of its own'),
    activities: MenuEntryInput,
  })
  .superRefine((menus, ctx) => {
    const report = menus.taskSheetReport.father;
    if (report !== null && report === menus.taskSheet.father)
      ctx.addIssue({
        code: 'custom',
        path: ['taskSheetReport', 'father'],
        message: `the report link goes under a parent menu of its own, not the task sheet's (${report}): use another parent, or null for the top level`,
      });
  });
export type MenuPlacements = z.input<typeof MenuPlacements>;

/** The input of {@link menuRows}: the scope and where its entries go. */
export const MenuRowsInput = z.strictObject({ scope: Scope, menus: MenuPlacements });
export type MenuRowsInput = z.input<typeof MenuRowsInput>;

/** One sys_core_menu row, keyed by column name. */
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
 * The three menu rows of one installation, each with a stable key, in the customer's order:
 * the task sheet (the variant `withMetrics` asks for), the report link, the activities. FILTER is
 * compact JSON, e.g. `{"allowed":["FOLHA_TAREFA","OPER_GRUPO_METRICA"]}`.
 *
 * @example menuRows(input).map((entry) => entry.key) // ['taskSheetWithMetrics', 'taskSheetReport', 'activities']
 */
export function menuRows(input: MenuRowsInput): { key: MenuEntryKey; row: MenuRow }[] {
  const { scope, menus } = parseOrThrow(
    MenuRowsInput,
    input,
    'INVALID_MENU_INPUT',
    'cannot build the menu rows',
  );
  const placements: [MenuEntryKey, z.output<typeof MenuEntryInput>][] = [
    [menus.taskSheet.withMetrics ? 'taskSheetWithMetrics' : 'taskSheetWithoutMetrics', menus.taskSheet],
    ['taskSheetReport', menus.taskSheetReport],
    ['activities', menus.activities],
  ];
  return placements.map(([key, entry]) => {
    const fixed = MENU_ENTRIES[key];
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

/**
 * What makes a menu row the one of a given entry, since sys_core_menu has no key of its own: the
 * scope, TYPE and FILTER (the CRUD entries differ by FILTER), or TYPE and URL for the report link
 * (its FILTER is null). A row made by hand with the same identity is that entry.
 */
export function menuRowIdentity(
  row: Pick<MenuRow, 'EMPRESA' | 'FILIAL' | 'LOCAL' | 'TYPE' | 'URL' | 'FILTER'>,
): Pick<MenuRow, 'EMPRESA' | 'FILIAL' | 'LOCAL' | 'TYPE'> & Partial<Pick<MenuRow, 'URL' | 'FILTER'>> {
  const { EMPRESA, FILIAL, LOCAL, TYPE, URL, FILTER } = row;
  return FILTER === null ? { EMPRESA, FILIAL, LOCAL, TYPE, URL } : { EMPRESA, FILIAL, LOCAL, TYPE, FILTER };
}
