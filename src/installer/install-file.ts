import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { HostText } from '../model/host-text.js';
import { Identifier } from '../model/identifier.js';
import { InstallerError } from '../model/installer-errors.js';
import { type ConfigIssue, type ConfigResult, formatIssuesInline } from '../model/issues.js';
import { FIELD_TABLE, LinkFieldInput } from '../model/link-field.js';
import { MENU_TABLE, MenuPlacements } from '../model/menu.js';
import { PARAMETERS_TABLE } from '../model/parameters.js';
import { checkDocument } from '../model/parse-or-throw.js';
import { Scope } from '../model/scope.js';
import { SeqDb } from '../model/seq-db.js';
import { DEFAULT_TABLE_NAMES, LOGICAL_TABLES, tableNameProblems } from '../model/table-names.js';
import { TreeView, treeViewKeys } from '../model/tree-view.js';
import { decodeUtf8 } from '../model/utf8-text.js';

/** The host tables the installer writes rows to (menu, fields, parameters), and only those. */
export const HOST_ROW_TABLES = [MENU_TABLE, FIELD_TABLE, PARAMETERS_TABLE] as const;

/**
 * One installation, as the operator describes it in an install file: where (scope) and as whom, the
 * table-name overrides, where the menus go, the link field's label and the optional TREE_VIEW. Menu
 * placement, the link field and the TREE_VIEW are the models of src/model.ts, so a value valid here
 * is valid there. The JSON Schema (schemas/install.schema.json) is generated from this model.
 */
export const InstallFile = z.strictObject({
  $schema: z.string().optional().describe('the JSON Schema of this file, for editors'),
  scope: Scope.describe('the installation: EMPRESA, FILIAL, LOCAL'),
  actingUser: SeqDb.describe('SEQ_DB of the user the installer acts as (recorded in its ledger)'),
  tableNames: z
    .partialRecord(z.enum(LOGICAL_TABLES), Identifier)
    .superRefine((overrides, ctx) => {
      // With the defaults of the tables it leaves out: an override may take a default's name.
      const names = { ...DEFAULT_TABLE_NAMES, ...overrides };
      for (const { logical, code, message } of tableNameProblems(names)) {
        ctx.addIssue({ code: 'custom', path: [logical], message, params: { code } });
      }
    })
    .optional()
    .describe('table-name overrides by logical name, e.g. {"OPER": "MO_OPER"}; written as parameter rows'),
  menus: MenuPlacements.describe(
    'menu placement: father is the SEQ_DB of an existing sys_core_menu row, or null for the top level',
  ),
  linkField: z.strictObject({
    label: LinkFieldInput.shape.label.describe('DESCRICAO and DESCRICAO_RESUMIDA of the link field'),
    // The link field's own model: the same name is refused here, at its path in the file.
    mobileFlagColumn: LinkFieldInput.shape.mobileFlagColumn
      .optional()
      .describe('the send-to-mobile flag column of sys_core_ds_tabela_campo; found by name when left out'),
  }),
  treeView: TreeView.optional().describe(
    'the TREE_VIEW parameter (the tree of activity layers and its metrics), written once as a parameter row',
  ),
  hostColumns: z
    .partialRecord(
      // Plain names (not branded identifiers): the keys a person writes in the file.
      z.enum(HOST_ROW_TABLES.map(String) as [string, ...string[]]),
      z.record(Identifier, z.union([HostText, z.number(), z.null()])),
    )
    .superRefine(sameColumnTwice)
    .optional()
    .describe(
      'values for this host\'s own extra columns of the rows the installer inserts, per host table: e.g. a NOT NULL column without a default, {"sys_core_menu": {"MODULO": "TAREFAS"}}',
    ),
});
export type InstallFile = z.infer<typeof InstallFile>;

/**
 * A column given twice in one table's hostColumns, in another case (`MODULO` and `modulo`): MySQL
 * matches column names in any case, so both name one column and one value would be dropped unseen.
 */
function sameColumnTwice(
  tables: Partial<Record<string, Record<string, unknown>>>,
  ctx: z.core.$RefinementCtx,
): void {
  for (const [table, columns] of Object.entries(tables)) {
    const first = new Map<string, string>();
    for (const name of Object.keys(columns ?? {})) {
      const earlier = first.get(name.toUpperCase());
      if (earlier === undefined) {
        first.set(name.toUpperCase(), name);
        continue;
      }
      ctx.addIssue({
        code: 'custom',
        path: [table, name],
        message: `"${earlier}" and "${name}" name the same column (MySQL matches column names in any case), so one value would be dropped: keep one of them`,
        params: { code: 'DUPLICATE_KEY' },
      });
    }
  }
}

/**
 * Checks an install file, given as JSON text or as a parsed value, the way `validate` checks a
 * TREE_VIEW: the typed file, or every problem as `{ path, code, message }`. A TREE_VIEW mistake gets
 * the code and message `validate` gives it, at its path inside the file (`treeView.layers.2.table`).
 */
export function checkInstallFile(input: unknown): ConfigResult<InstallFile> {
  return checkDocument(InstallFile, input, installFileKeys);
}

/** An install file that cannot be used: every problem in `issues`, the first ones in the message. */
export class InstallFileError extends InstallerError {
  readonly issues: readonly ConfigIssue[];

  constructor(source: string, issues: readonly ConfigIssue[]) {
    const [first] = issues;
    const syntax = first?.code === 'INVALID_JSON';
    super(
      syntax ? 'INSTALL_FILE_INVALID_JSON' : 'INSTALL_FILE_INVALID',
      `${source} is ${syntax ? 'not JSON' : 'not a valid install file'}: ${formatIssuesInline(issues)}`,
      first === undefined || first.path === '' ? {} : { path: first.path },
    );
    this.issues = issues;
  }
}

/**
 * Parses an install file's text with the config's JSON reader (as `validate` does): a syntax error
 * names its line and column, and a key given twice (a copied TREE_VIEW layer left unrenumbered) is
 * refused with its path instead of being silently dropped. Throws {@link InstallFileError}.
 */
export function parseInstallFile(text: string, source = 'install file'): InstallFile {
  const result = checkInstallFile(text);
  if (!result.success) throw new InstallFileError(source, result.issues);
  return result.data;
}

/** The keys an object of the install file may have, for the "unknown key" message. */
function installFileKeys(path: readonly PropertyKey[], value: unknown): readonly string[] | undefined {
  if (path[0] === 'treeView') return treeViewKeys(path.slice(1), value);
  if (path.length === 1 && path[0] === 'tableNames') return LOGICAL_TABLES;
  let schema: z.core.$ZodType | undefined = InstallFile;
  for (const key of path) schema = objectShape(schema)?.[String(key)];
  const shape = objectShape(schema);
  return shape === undefined ? undefined : Object.keys(shape);
}

/** The shape of an object schema, through `.optional()`; undefined for anything else. */
function objectShape(schema: z.core.$ZodType | undefined): Record<string, z.core.$ZodType> | undefined {
  const def = schema?._zod.def;
  if (def?.type === 'optional') return objectShape((def as z.core.$ZodOptionalDef).innerType);
  return def?.type === 'object' ? (def as z.core.$ZodObjectDef).shape : undefined;
}

/**
 * An install file handed over in code, checked like a file read from disk: the installer's functions
 * call this before any SQL, so a hand-built file cannot carry what the model refuses. Throws
 * {@link InstallFileError}.
 */
export function requireInstallFile(value: unknown, source = 'install file'): InstallFile {
  const result = checkInstallFile(value);
  if (!result.success) throw new InstallFileError(source, result.issues);
  return result.data;
}

/** The parts of an install file that uninstalling needs, checked the same way (other keys ignored). */
export const UninstallFile = z.object({
  scope: InstallFile.shape.scope,
  actingUser: InstallFile.shape.actingUser,
  tableNames: InstallFile.shape.tableNames,
});
export type UninstallFile = z.infer<typeof UninstallFile>;

/** {@link requireInstallFile} for what uninstalling reads of the file. */
export function requireUninstallFile(value: unknown, source = 'install file'): UninstallFile {
  const result = checkDocument(UninstallFile, value, installFileKeys);
  if (!result.success) throw new InstallFileError(source, result.issues);
  return result.data;
}

/**
 * Reads and checks an install file. Its bytes must be UTF-8: a file saved as Latin-1 is refused
 * (`INSTALL_FILE_INVALID`, saying at which byte) rather than read with replacement characters, which
 * apply would write into the host's rows. Throws {@link InstallFileError}, or `INSTALL_FILE_UNREADABLE`.
 */
export async function loadInstallFile(file: string): Promise<InstallFile> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
    throw new InstallerError(
      'INSTALL_FILE_UNREADABLE',
      code === 'ENOENT'
        ? `install file ${file} does not exist`
        : `cannot read install file ${file} (${code || error})`,
    );
  }
  const text = decodeUtf8(bytes);
  if (!text.success) throw new InstallFileError(`install file ${file}`, text.issues);
  return parseInstallFile(text.text, `install file ${file}`);
}
