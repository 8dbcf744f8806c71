import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// These run against the built package (`npm test` builds first), as a host would import it.
const root = new URL('../', import.meta.url);
const manifest = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as {
  exports: Record<string, string | { import: string; default: string; types: string }>;
  bin: Record<string, string>;
  license: string;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  scripts: Record<string, string>;
};

describe('the published package', () => {
  it.each([
    'task-association',
    'task-association/schema',
    'task-association/config',
    'task-association/resolvers',
    'task-association/installer',
    'task-association/sync',
    'task-association/gallery',
    'task-association/testing',
  ])('%s resolves and exports something', async (specifier) => {
    const module = (await import(specifier)) as Record<string, unknown>;
    expect(Object.keys(module).length).toBeGreaterThan(0);
  });

  it('exports the main entry points a host uses', async () => {
    const main = (await import('task-association')) as Record<string, unknown>;
    for (const name of [
      'createTables',
      'syncSchema',
      'parseTreeView',
      'loadTaskTree',
      'saveMetrics',
      'applyInstallation',
      'openDatabase',
    ]) {
      expect(typeof main[name], name).toBe('function');
    }
    const gallery = (await import('task-association/gallery')) as Record<string, unknown>;
    expect(typeof gallery.createGalleryHandler).toBe('function');
  });

  // The root is a chosen list: a name joins it on purpose (and the CHANGELOG says so), and the
  // helpers the folders share among themselves (the ledger's table, the lock's name, the schema
  // sync's introspection) stay out of it.
  it('the root exports exactly the public API, no internals', async () => {
    const main = (await import('task-association')) as Record<string, unknown>;
    expect(Object.keys(main).sort()).toEqual(
      [
        'BusyError',
        'CONFIG_ISSUE_CODES',
        'ConfigError',
        'ConfigIssue',
        'ConfigIssueCode',
        'ConfigurationError',
        'ConflictError',
        'CrossSiteError',
        'DEFAULT_DATABASE_TIMEOUT_MS',
        'DEFAULT_DATABASE_URL',
        'DEFAULT_LABEL_COLUMNS',
        'DEFAULT_METRICS',
        'DEFAULT_TABLE_NAMES',
        'DatabaseConnectionError',
        'DatabaseTimeoutError',
        'FIELD_TABLE',
        'HOST_TABLES',
        'IDENTIFIER_PATTERN',
        'Identifier',
        'IdentifierError',
        'InstallFile',
        'InstallFileError',
        'InstallerError',
        'InvalidRequestError',
        'LINK_FIELD_COLUMNS',
        'LINK_FIELD_OPCOES',
        'LOGICAL_TABLES',
        'Layer',
        'Layers',
        'LinkFieldInput',
        'LoadTaskTreeOptions',
        'MAX_LAYERS',
        'MENU_ENTRIES',
        'MENU_TABLE',
        'METRIC_DEFAULT_TYPES',
        'MenuEntryInput',
        'MenuPlacements',
        'MenuRow',
        'MenuRowsInput',
        'Metric',
        'MetricBatch',
        'MetricConflictError',
        'MetricDefault',
        'MetricEntry',
        'Metrics',
        'NewParameterRow',
        'NotFoundError',
        'OVERRIDE_PARAMETERS',
        'OVERRIDE_TIPO',
        'OpcoesEntry',
        'PARAMETERS_TABLE',
        'ParameterRow',
        'PayloadTooLargeError',
        'REPORT_URL',
        'REQUEST_RETENTION_SECONDS',
        'RESERVED_METRIC_COLUMNS',
        'ReadMetricHistoryOptions',
        'ReadOnlyRowError',
        'RequestId',
        'SaveMetricsOptions',
        'SaveSource',
        'SchemaSyncError',
        'Scope',
        'SeqDb',
        'SeqDbText',
        'TABLE_NAME_VARIABLES',
        'TREE_VIEW_PARAMETER',
        'TREE_VIEW_TIPO',
        'TableNames',
        'TaskAssociationError',
        'TreeView',
        'UnsupportedMediaTypeError',
        'applyInstallation',
        'assertSameSiteJson',
        'buildLink',
        'checkInstallFile',
        'checkScope',
        'compileMetricDefaults',
        'createAssociationHandler',
        'createTables',
        'defaultSource',
        'formatIssue',
        'formatIssues',
        'formatIssuesInline',
        'formatScope',
        'installJsonSchema',
        'installationStatus',
        'isReservedMetricColumn',
        'linkFieldRow',
        'loadInstallFile',
        'loadTaskSheet',
        'loadTaskTree',
        'locateSyntaxError',
        'menuRows',
        'openDatabase',
        'operGrupoMetricaTable',
        'operGrupoTable',
        'operNOperGrupoTable',
        'operTable',
        'overrideParameterRows',
        'parseDatabaseUrl',
        'parseIdentifier',
        'parseInstallFile',
        'parseJsonText',
        'parseOpcoes',
        'parseScope',
        'parseTreeView',
        'planInstallation',
        'planSchemaSync',
        'planTree',
        'quoteIdentifier',
        'readBranch',
        'readMetricHistory',
        'readParameters',
        'readScreenStart',
        'resolveDatabaseTimeout',
        'resolveDatabaseUrl',
        'resolveInstallation',
        'resolveMetricDefaults',
        'resolveTableNames',
        'resolveTreePlan',
        'saveMetrics',
        'searchTree',
        'serializeJsonSchema',
        'serializeOpcoes',
        'syncSchema',
        'tableNames',
        'tableNamesFromEnv',
        'treeViewJsonSchema',
        'treeViewLevels',
        'treeViewParameterRow',
        'uninstallInstallation',
        'verifyInstallation',
        'wrapPool',
      ].sort(),
    );
    for (const internal of ['introspect', 'expectedModel', 'LEDGER_TABLE', 'installerLockName', 'checkValue'])
      expect(main[internal], internal).toBeUndefined();
  });

  // The table view's reads (#29) and the device's clock bound (#28) are on the resolvers subpath
  // alone: the root's list above does not grow with them.
  it('task-association/resolvers adds the table view’s reads, which the root does not carry', async () => {
    const main = (await import('task-association')) as Record<string, unknown>;
    const resolvers = (await import('task-association/resolvers')) as Record<string, unknown>;
    const only = Object.keys(resolvers).filter((name) => !(name in main));
    expect(only.sort()).toEqual(
      [
        'DEVICE_CLOCK_SKEW_SECONDS',
        'MAX_SHEET_PAGE_SIZE',
        'ReadPreviousSheetOptions',
        'ReadSheetPageOptions',
        'ReadSheetProgressOptions',
        'SheetFilter',
        'readPreviousSheet',
        'readSheetPage',
        'readSheetProgress',
      ].sort(),
    );
  });

  it('declares no internal: what is marked @internal is stripped from the declarations', async () => {
    const declarations = (await readdir(new URL('dist/', root), { recursive: true })).filter((file) =>
      file.endsWith('.d.ts'),
    );
    expect(declarations.length).toBeGreaterThan(50);
    for (const file of declarations)
      expect(await readFile(new URL(`dist/${file}`, root), 'utf8'), file).not.toContain('@internal');
    // The template's one door for text.
    expect(await readFile(new URL('dist/store/sql.d.ts', root), 'utf8')).not.toMatch(/static of\b/);
  });

  it('every file the exports map names exists', async () => {
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (subpath.includes('*')) continue;
      const files = typeof target === 'string' ? [target] : [target.import, target.types];
      for (const file of files)
        await expect(readFile(new URL(file, root)), `${subpath} → ${file}`).resolves.toBeDefined();
    }
  });

  // drizzle-kit loads a project's drizzle.config.ts with CommonJS `require`.
  it('task-association/schema can be required, as drizzle-kit loads a config that imports it', () => {
    const require = createRequire(import.meta.url);
    const schema = require('task-association/schema') as Record<string, unknown>;
    expect(typeof schema.tableNamesFromEnv).toBe('function');
  });

  it('every entry point has a default condition beside import (for require)', () => {
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'string') continue;
      expect(target.default, subpath).toBe(target.import);
    }
  });

  it('drizzle-orm is a peer dependency, so a host and the package share one copy', () => {
    expect(manifest.dependencies['drizzle-orm']).toBeUndefined();
    expect(manifest.peerDependencies['drizzle-orm']).toBe('>=0.44.0 <0.46.0');
  });

  it('ships the MIT license its manifest names, and builds dist before packing', async () => {
    expect(manifest.license).toBe('MIT');
    expect(await readFile(new URL('LICENSE', root), 'utf8')).toMatch(/^MIT License\n/);
    expect(manifest.scripts.prepack).toContain('npm run build');
  });

  it('the bin runs and prints its usage', async () => {
    const bin = new URL(manifest.bin['task-association'] ?? '', root);
    const { stdout } = await promisify(execFile)(process.execPath, [bin.pathname, '--help']);
    expect(stdout).toContain('usage: task-association <command>');
  });
});
