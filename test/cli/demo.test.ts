import { describe, expect, it } from 'vitest';
import type { StopSignal } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';
import { openDatabase } from '../../src/store/mysql.js';
import { captureIo } from '../support/cli.js';
import { SERVER_URL } from '../support/database.js';

describe('demo', () => {
  it('installs the feature in a scratch database, serves the home gallery until stopped, then drops the database', async () => {
    let stop = () => {};
    const io = {
      ...captureIo({ env: { DATABASE_URL: SERVER_URL } }),
      stopSignal: new Promise<StopSignal>((resolve) => {
        stop = () => resolve('SIGINT');
      }),
    };
    const exit = runCli(['demo', '--port', '0'], io);
    const url = await waitFor(
      () => /lists the task sheets, with the gallery, on (http:\/\/\S+)/.exec(io.err())?.[1],
      exit,
    );

    const log = io.err();
    expect(log).toContain('MO_OPER, MO_OPER_GRUPO, MO_OPER_GRUPO_METRICA, MO_OPER_MO_OPER_GRUPO');
    expect(log).toContain('insert the link field FOLHA_TAREFA.LINK_ATIVIDADE_METRICAS');
    expect(log).toContain('demo: apply again changes nothing: { "changes": [] }');
    expect(log).toContain('ok: the installation is as it must be');

    // The tree: saved metrics win over defaults, defaults come from the activity and the task sheet.
    const tree = io.out();
    expect(tree).toContain('METRICA1 (Quantidade) = 3.50 (saved)');
    expect(tree).toContain('METRICA1 (Quantidade) = 0.80 (default field INDICE)');
    expect(tree).toContain('METRICA2 (Pessoas) = 6 (default taskSheet QTD_PESSOAS)');
    const link = /link field opens (\S+)/.exec(log)?.[1] ?? '';
    expect(link).toMatch(/\/associationtask\?taskSheet=\d+$/);
    const screen = await fetch(link);
    expect(screen.status).toBe(200);
    // Two sectors at the root of the demo's three-level tree.
    expect(((await screen.json()) as { roots: unknown[] }).roots.length).toBe(2);
    const links = (await (await fetch(new URL('/demo/task-sheets', url))).json()) as {
      taskSheets: { href: string }[];
    };
    expect(links.taskSheets.map((sheet) => sheet.href)).toEqual([
      new URL(link).pathname + new URL(link).search,
      expect.stringMatching(/^\/associationtask\?taskSheet=\d+$/),
    ]);

    const home = await fetch(new URL('/', url));
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('/assets/caroulsel-gallery.js');
    const data = (await (await fetch(new URL('/caroulsel/data', url))).json()) as {
      items: { previewUrl: string }[];
    };
    expect(data.items.length).toBe(5);
    const thumb = await fetch(new URL(data.items[0]?.previewUrl ?? '', url));
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');

    stop();
    expect(await exit).toBe(0);
    const name = /database (ta_demo_[0-9a-f]+):/.exec(io.err())?.[1];
    expect(name).toMatch(/^ta_demo_/);
    const admin = await openDatabase(SERVER_URL, { connectionLimit: 1 });
    try {
      const left = await admin.query(
        'SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?',
        [name],
      );
      expect(left).toEqual([]);
    } finally {
      await admin.close();
    }
  });

  it('refuses unknown arguments and a bad port', async () => {
    const io = captureIo();
    expect(await runCli(['demo', '--nope'], io)).toBe(2);
    expect(io.err()).toContain('unknown option --nope');
    const port = captureIo();
    expect(await runCli(['demo', '--port', '70000'], port)).toBe(2);
    expect(port.err()).toContain('--port must be a number from 0 to 65535, not "70000"');
  });
});

/** Polls until `read` gives a value; fails early if the command ends first. */
async function waitFor<T>(read: () => T | undefined, exit: Promise<unknown>): Promise<T> {
  let ended = false;
  void exit.then(() => {
    ended = true;
  });
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (ended) throw new Error('the demo ended before it was ready');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
