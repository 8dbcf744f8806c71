import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { LinkFieldInput, MenuPlacements, TreeView } from '../config/index.js';
import { formatIssuesInline } from '../config/issues.js';
import { parseJsonText } from '../config/json-text.js';
import { Identifier } from '../identifier.js';
import { Scope } from '../scope.js';
import { SeqDb } from '../seq-db.js';
import { LOGICAL_TABLES } from '../table-names.js';
import { InstallerError } from './errors.js';

/**
 * One installation, as the operator describes it (issue 5): where (scope) and as whom, the table-name
 * overrides, where the menus go, the link field's label and the optional TREE_VIEW. Menu placement,
 * the link field and the TREE_VIEW are the config models (src/config), so a value valid here is
 * valid there. The JSON Schema (schemas/install.schema.json) is generated from this model.
 */
export const InstallFile = z.strictObject({
  $schema: z.string().optional().describe('the JSON Schema of this file, for editors'),
  scope: Scope.describe('the installation: EMPRESA, FILIAL, LOCAL'),
  actingUser: SeqDb.describe('SEQ_DB of the user the installer acts as (recorded in its ledger)'),
  tableNames: z
    .partialRecord(z.enum(LOGICAL_TABLES), Identifier)
    .optional()
    .describe('table-name overrides (seed 2.6), e.g. {"OPER": "MO_OPER"}; written as parameter rows'),
  menus: MenuPlacements.describe(
    'menu placement: father is the SEQ_DB of an existing sys_core_menu row, or null for the top level',
  ),
  linkField: z.strictObject({
    label: LinkFieldInput.shape.label.describe('DESCRICAO and DESCRICAO_RESUMIDA of the link field'),
    mobileFlagColumn: Identifier.optional().describe(
      'the send-to-mobile flag column of sys_core_ds_tabela_campo; found by name when left out',
    ),
  }),
  treeView: TreeView.optional().describe(
    'the TREE_VIEW parameter (seed 2.9), written once as a parameter row',
  ),
});
export type InstallFile = z.infer<typeof InstallFile>;

/**
 * Parses an install file's text with the config's JSON reader (as `validate` does): a syntax error
 * names its line and column, and a key given twice (a copied TREE_VIEW layer left unrenumbered) is
 * refused with its path instead of being silently dropped. A model error lists every path.
 */
export function parseInstallFile(text: string, source = 'install file'): InstallFile {
  const json = parseJsonText(text);
  if (!json.success) {
    const [first] = json.issues;
    const syntax = first?.code === 'INVALID_JSON';
    throw new InstallerError(
      syntax ? 'INSTALL_FILE_INVALID_JSON' : 'INSTALL_FILE_INVALID',
      `${source} is ${syntax ? 'not JSON' : 'not a valid install file'}: ${formatIssuesInline(json.issues)}`,
      first === undefined || first.path === '' ? {} : { path: first.path },
    );
  }
  return checkInstallFile(json.value, source);
}

/**
 * Checks an install file already parsed (or built in code) with the model, every problem listed with
 * its path. The installer's functions check what they are given with it before any SQL.
 *
 * @example checkInstallFile(JSON.parse(text), 'install.json').scope // { EMPRESA: 1, FILIAL: 1, LOCAL: 1 }
 */
export function checkInstallFile(value: unknown, source = 'install file'): InstallFile {
  return checkWith(InstallFile, value, source);
}

/** The parts of an install file that uninstalling needs, checked the same way (other keys ignored). */
export const UninstallFile = z.object({
  scope: InstallFile.shape.scope,
  actingUser: InstallFile.shape.actingUser,
  tableNames: InstallFile.shape.tableNames,
});
export type UninstallFile = z.infer<typeof UninstallFile>;

export function checkWith<Model extends z.ZodType>(
  model: Model,
  value: unknown,
  source: string,
): z.output<Model> {
  const result = model.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return `${path === '' ? '(whole file)' : path}: ${issue.message}`;
  });
  throw new InstallerError(
    'INSTALL_FILE_INVALID',
    `${source} is not a valid install file: ${issues.join('; ')}`,
    {
      path: result.error.issues[0]?.path.map(String).join('.') ?? '',
    },
  );
}

export async function loadInstallFile(file: string): Promise<InstallFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
    throw new InstallerError(
      'INSTALL_FILE_UNREADABLE',
      code === 'ENOENT'
        ? `install file ${file} does not exist`
        : `cannot read install file ${file} (${code || error})`,
    );
  }
  return parseInstallFile(text, `install file ${file}`);
}
