import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { EXAMPLE_INSTALL_FILE } from '../installer/support.js';
import { captureIo } from '../support/cli.js';
import { useScratchDatabase } from '../support/database.js';

const scratch = useScratchDatabase('cli_verify', { hostSchema: true });
const INSTALL = fileURLToPath(EXAMPLE_INSTALL_FILE);

describe('task-association verify', () => {
  it('exits 1 and lists the problems before install, 0 with {"ok": true} after', async () => {
    const { url } = scratch();
    const before = captureIo();
    expect(await runCli(['verify', '--install', INSTALL, '--database-url', url, '--json'], before)).toBe(1);
    const report = JSON.parse(before.out());
    expect(report.ok).toBe(false);
    expect(report.problems).toContainEqual(
      expect.objectContaining({ code: 'MISSING_TABLE', path: 'MO_OPER' }),
    );
    expect(report.problems).toContainEqual(
      expect.objectContaining({ code: 'ROW_MISSING', path: 'link-field' }),
    );
    expect(report.problems).toContainEqual(
      expect.objectContaining({ code: 'ROW_MISSING', path: 'parameter:TREE_VIEW' }),
    );
    expect(before.err()).toContain(
      'problem: link-field: the link field FOLHA_TAREFA.LINK_ATIVIDADE_METRICAS is missing',
    );

    expect(await runCli(['apply', '--install', INSTALL, '--database-url', url, '--yes'], captureIo())).toBe(
      0,
    );
    const after = captureIo();
    expect(await runCli(['verify', '--install', INSTALL, '--database-url', url, '--json'], after)).toBe(0);
    expect(JSON.parse(after.out())).toEqual({ ok: true, problems: [] });
    expect(after.err()).toContain('ok: the installation is as it must be');
  });

  it('refuses --yes and --force, which only the writing commands take', async () => {
    for (const flag of ['--yes', '--force']) {
      const io = captureIo();
      expect(await runCli(['verify', '--install', INSTALL, flag], io)).toBe(2);
      expect(io.err()).toContain(`unknown option ${flag}`);
    }
  });
});
