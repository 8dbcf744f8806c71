import { createScratchDatabase } from '../../db/scratch.js';
import { runSqlFile } from '../../db/script.js';
import { redactUrl, resolveDatabaseUrl } from '../../db/url.js';
import { insertSampleData } from '../../demo/sample-data.js';
import { syncSchema } from '../../sync/sync.js';
import { tableNames } from '../../table-names.js';
import { parseCommandLine } from '../args.js';
import { say } from '../io.js';
import type { Command } from '../main.js';

const HOST_SCHEMA = new URL('../../../examples/host-schema.sql', import.meta.url);
const DEMO_SCOPE = { EMPRESA: 1, FILIAL: 1, LOCAL: 1 } as const;
const DEMO_NAMES = tableNames({
  OPER: 'MO_OPER',
  OPER_GRUPO: 'MO_OPER_GRUPO',
  OPER_GRUPO_METRICA: 'MO_OPER_GRUPO_METRICA',
  OPER_OPER_GRUPO: 'MO_OPER_MO_OPER_GRUPO',
});

/**
 * `demo`: the whole feature on the local server, in a scratch database that is dropped when the demo
 * stops, so it never touches an existing database.
 */
export const command: Command = {
  usage: 'demo',
  async run(args, io) {
    parseCommandLine(args, {});
    const serverUrl = resolveDatabaseUrl(undefined, io.env);
    say(io, `demo: creating a scratch database on ${redactUrl(serverUrl)}`);
    const scratch = await createScratchDatabase(serverUrl, 'demo');
    try {
      say(io, `demo: database ${scratch.name}: loading the sample host schema (examples/host-schema.sql)`);
      await runSqlFile(scratch.url, HOST_SCHEMA);

      say(
        io,
        `demo: creating the four tables with overridden names: ${Object.values(DEMO_NAMES).join(', ')}`,
      );
      const sync = await syncSchema(scratch.db, DEMO_NAMES);
      const again = await syncSchema(scratch.db, DEMO_NAMES);
      say(
        io,
        `demo: db sync ran ${sync.statements.length} statement(s); run again, it ran ${again.statements.length}`,
      );

      const sample = await insertSampleData(scratch.db, DEMO_SCOPE, DEMO_NAMES);
      say(
        io,
        `demo: sample data in scope 1/1/1: task sheet SEQ_DB ${sample.taskSheet}, groups, activities, one saved metric`,
      );
      return 0;
    } finally {
      await scratch.drop();
      say(io, `demo: dropped ${scratch.name}`);
    }
  },
};
