import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { StopSignal } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';
import { installerLockName } from '../../src/store/lock.js';
import { countRows, databaseState, EXAMPLE_INSTALL_FILE } from '../installer/support.js';
import { captureIo } from '../support/cli.js';
import { useScratchDatabase } from '../support/database.js';

const scratch = useScratchDatabase('cli_apply', { hostSchema: true });
const INSTALL = fileURLToPath(EXAMPLE_INSTALL_FILE);

/** A terminal the operator answers on. */
function terminal(answer: string) {
  const io = captureIo({ stdin: answer });
  Object.assign(io.stdin, { isTTY: true });
  return io;
}

describe('task-association apply', () => {
  it('needs --yes when nobody can answer, and writes nothing without it', async () => {
    const { db, url } = scratch();
    const before = await databaseState(db);
    const io = captureIo();
    expect(await runCli(['apply', '--install', INSTALL, '--database-url', url], io)).toBe(2);
    expect(io.err()).toContain('add --yes to run unattended');
    expect(await databaseState(db)).toEqual(before);
  });

  it('shows the plan on a terminal and does nothing when the operator declines', async () => {
    const { db, url } = scratch();
    const io = terminal('n\n');
    expect(await runCli(['apply', '--install', INSTALL, '--database-url', url], io)).toBe(1);
    expect(io.err()).toContain('insert       insert menu "Atividades"');
    expect(io.err()).toContain('apply these changes? [y/N]');
    expect(io.err()).toContain('nothing was changed');
    expect(await countRows(db, 'sys_core_menu')).toBe(0);
  });

  it('prints one document for a declined run with --json', async () => {
    const { db, url } = scratch();
    const io = terminal('n\n');
    expect(await runCli(['apply', '--install', INSTALL, '--database-url', url, '--json'], io)).toBe(1);
    expect(JSON.parse(io.out())).toEqual({ changes: [], applied: false });
    expect(await countRows(db, 'sys_core_menu')).toBe(0);
  });

  it('is interrupted by Ctrl-C at the question (exit 130): it writes nothing and lets go of the lock', async () => {
    const { db, url, name } = scratch();
    let interrupt = () => {};
    const stopSignal = new Promise<StopSignal>((resolve) => (interrupt = () => resolve('SIGINT')));
    // A terminal nobody answers: its input never ends.
    const io = {
      ...captureIo(),
      stopSignal,
      stdin: (async function* () {
        await new Promise(() => {});
        yield '';
      })(),
    };
    Object.assign(io.stdin, { isTTY: true });
    const run = runCli(['apply', '--install', INSTALL, '--database-url', url, '--json'], io);
    for (let tries = 0; !io.err().includes('[y/N]') && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(io.err()).toContain('apply these changes? [y/N]');
    interrupt();
    expect(await run).toBe(130);
    expect(io.err()).toContain('task-association apply: interrupted (SIGINT): stopped before it finished');
    expect(JSON.parse(io.out())).toMatchObject({ error: { code: 'INTERRUPTED' } });
    expect(await countRows(db, 'sys_core_menu')).toBe(0);
    // The question ended too: the command left behind lets go of the lock, saying nothing more.
    for (let tries = 0; tries < 200; tries++) {
      const [lock] = await db.query<{ free: number }>('SELECT IS_FREE_LOCK(?) AS free', [
        installerLockName(name),
      ]);
      if (lock?.free === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await runCli(['apply', '--install', INSTALL, '--database-url', url, '--yes'], captureIo())).toBe(
      0,
    );
    expect(() => JSON.parse(io.out())).not.toThrow();
  });

  it('applies on "y", then a second apply prints {"changes": []}', async () => {
    const { db, url } = scratch();
    expect(await runCli(['apply', '--install', INSTALL, '--database-url', url], terminal('y\n'))).toBe(0);
    expect(await countRows(db, 'sys_core_menu')).toBe(3);
    const io = captureIo();
    expect(await runCli(['apply', '--install', INSTALL, '--database-url', url, '--yes', '--json'], io)).toBe(
      0,
    );
    expect(JSON.parse(io.out())).toEqual({ changes: [] });
    expect(io.err()).toContain('nothing to do: the installation is up to date');
  });

  it("prints what it did with --yes --json, and --force resets the administrators' rows", async () => {
    const { db, url } = scratch();
    await db.execute(
      "UPDATE sys_core_par_parametros SET CONTEUDO = 'MO_OPER2' WHERE NOME = 'ASSOCIATION_TASK_OPER'",
    );
    const io = captureIo();
    expect(
      await runCli(['apply', '--install', INSTALL, '--database-url', url, '--yes', '--json', '--force'], io),
    ).toBe(0);
    expect(JSON.parse(io.out()).changes).toEqual([
      expect.objectContaining({
        kind: 'update',
        key: 'parameter:ASSOCIATION_TASK_OPER',
        params: ['MO_OPER', expect.any(Number)],
      }),
    ]);
  });

  it('refuses a host it cannot adapt to with one line and exit 1', async () => {
    const { db, url } = scratch();
    await db.execute('ALTER TABLE sys_core_menu ADD COLUMN CRIADO_POR int NOT NULL');
    try {
      const io = captureIo();
      expect(await runCli(['apply', '--install', INSTALL, '--database-url', url, '--yes'], io)).toBe(1);
      expect(io.err()).toMatch(
        /task-association apply: nothing was written: sys_core_menu\.CRIADO_POR: .*NOT NULL without a default/,
      );
    } finally {
      await db.execute('ALTER TABLE sys_core_menu DROP COLUMN CRIADO_POR');
    }
  });
});
