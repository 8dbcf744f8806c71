import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { openDatabase } from '../../src/db/mysql.js';
import { captureIo } from '../support/cli.js';
import { SERVER_URL } from '../support/database.js';

describe('demo', () => {
  it('installs the feature in a scratch database, reports each step, and drops the database', async () => {
    const io = captureIo({ env: { DATABASE_URL: SERVER_URL } });
    expect(await runCli(['demo'], io)).toBe(0);
    const log = io.err();
    expect(log).toContain('MO_OPER, MO_OPER_GRUPO, MO_OPER_GRUPO_METRICA, MO_OPER_MO_OPER_GRUPO');
    expect(log).toContain('insert the link field FOLHA_TAREFA.LINK_ATIVIDADE_METRICAS');
    expect(log).toContain('demo: apply again changes nothing: { "changes": [] }');
    expect(log).toContain('ok: the installation is as it must be');
    const name = /database (ta_demo_[0-9a-f]+):/.exec(log)?.[1];
    expect(name).toBeDefined();
    const admin = await openDatabase(SERVER_URL, { connectionLimit: 1 });
    try {
      expect(
        await admin.query('SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', [
          name,
        ]),
      ).toEqual([]);
    } finally {
      await admin.close();
    }
  });

  it('refuses arguments', async () => {
    const io = captureIo();
    expect(await runCli(['demo', '--nope'], io)).toBe(2);
    expect(io.err()).toContain("Unknown option '--nope'");
  });
});
