import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { loadInstallFile } from '../src/installer.js';
import { parseTreeView } from '../src/model.js';
import { captureIo } from './support/cli.js';

const example = (name: string) => new URL(`../examples/${name}`, import.meta.url);

describe('the shipped examples', () => {
  it('examples/tree-view.json is a valid TREE_VIEW, for the model and for the validate command', async () => {
    const result = parseTreeView(await readFile(example('tree-view.json'), 'utf8'));
    expect(result.success).toBe(true);
    const io = captureIo();
    expect(await runCli(['validate', example('tree-view.json').pathname, '--json'], io)).toBe(0);
    expect(JSON.parse(io.out())).toEqual({ valid: true, issues: [] });
  });

  it('examples/install.json is a valid install file whose TREE_VIEW uses its own table names', async () => {
    const install = await loadInstallFile(example('install.json').pathname);
    expect(install.scope).toEqual({ EMPRESA: 1, FILIAL: 1, LOCAL: 1 });
    const tables = Object.values(install.treeView?.layers ?? {}).map((layer) => layer.table);
    expect(tables).toEqual(['MO_OPER_GRUPO', 'MO_OPER']);
  });
});
