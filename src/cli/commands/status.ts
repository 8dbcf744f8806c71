import {
  formatInstallation,
  formatSharedTable,
  installationStatus,
  sharedTableStatus,
} from '../../installer/status.js';
import { LEDGER_TABLE } from '../../store/ledger.js';
import { openDatabase } from '../../store/mysql.js';
import { resolveDatabaseTimeout } from '../../store/url.js';
import {
  DATABASE_URL_HELP,
  databaseUrlFrom,
  databaseUrlOption,
  JSON_HELP,
  jsonOption,
  parseCommandLine,
} from '../args.js';
import type { Command } from '../command.js';
import { printJson, say } from '../io.js';

/** `status`: the installations a database holds, from the installer's ledger, and the shared tables. Reads only. */
export const command: Command = {
  usage: 'status [--database-url URL] [--json]',
  summary:
    "Lists the installations the database holds, from the installer's ledger: scope, table names, host rows, when and by which version; then the tables every installation shares (history, request ids) and their rows per scope. Reads only.",
  options: [DATABASE_URL_HELP, JSON_HELP],
  example: 'task-association status --database-url mysql://user:pass@host:3306/erp --json',
  async run(args, io) {
    const { values } = parseCommandLine(args, { ...databaseUrlOption, ...jsonOption });
    const db = await openDatabase(databaseUrlFrom(values['database-url'], io.env), {
      connectionLimit: 1,
      timeoutMs: resolveDatabaseTimeout(io.env),
    });
    try {
      const installations = await installationStatus(db);
      const sharedTables = await sharedTableStatus(db);
      if (values.json === true) printJson(io, { installations, sharedTables });
      if (installations.length === 0)
        say(io, `no installation in ${db.schemaName} (no entries in ${LEDGER_TABLE})`);
      for (const installation of installations) say(io, formatInstallation(installation));
      for (const shared of sharedTables) say(io, formatSharedTable(shared));
      return 0;
    } finally {
      await db.close();
    }
  },
};
