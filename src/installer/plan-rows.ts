import type { Finding } from '../model/findings.js';
import { MENU_TABLE } from '../model/menu.js';
import type { Scope } from '../model/scope.js';
import { sameScope } from '../model/scope.js';
import { LOGICAL_TABLES, tableNames } from '../model/table-names.js';
import type { HostTable } from '../store/host-table.js';
import {
  CREATED_PREFIX,
  LAST_INSERT_ID,
  LEDGER_TABLE,
  type LedgerEntry,
  ledgerDeleteStatement,
  ledgerWriteStatement,
  USES_PREFIX,
} from '../store/ledger.js';
import { deleteStatement, insertStatement, updateStatement } from '../store/row-statements.js';
import type { PlannedChange } from './change.js';
import { type DesiredRow, desiredRows } from './desired-rows.js';
import { fitRow } from './fit-row.js';
import { unfitValues } from './fit-values.js';
import type { HostContext } from './host-context.js';
import type { InstallFile } from './install-file.js';
import { type HostRow, rowId } from './ledger-keys.js';
import { hasIdentity, identifiableRows, ledgerRowIdentity } from './row-identity.js';
import { childrenFirst, keptForReferences, type RowReference, type RowReferences } from './row-references.js';
import { sameValue } from './same-value.js';
import type { RowState } from './state.js';

/** A host column that records who inserted a row; filled with the acting user when the host has it. */
const AUDIT_COLUMN = 'INS_USUARIO_SEQ_DB';

export interface RowPlan {
  readonly changes: PlannedChange[];
  readonly findings: Finding[];
}

/**
 * The row plan over `state`, deciding only: the changes and findings, or, when a wanted row would be
 * inserted and the hand-made rows of its natural key were not looked up, those rows to look up.
 */
export function planRowsFrom(
  file: InstallFile,
  host: HostContext,
  ledger: readonly LedgerEntry[],
  state: RowState,
  options: { force: boolean },
): RowPlan | { readonly lookups: readonly DesiredRow[] } {
  if (host.mobileFlagColumn === undefined || host.findings.some((f) => f.level === 'error')) {
    return { changes: [], findings: [] };
  }
  const findings: Finding[] = [];
  const changes: PlannedChange[] = [];
  const lookups: DesiredRow[] = [];
  const { scope, actingUser } = file;
  const { existing } = state;
  const mine = new Map(
    ledger.filter((entry) => sameScope(entry.scope, scope)).map((entry) => [entry.key, entry]),
  );
  const wanted = desiredRows(file, host.mobileFlagColumn);
  // First, so that a column a row is recognised by is an error even where another row merely does
  // without it (the report link needs URL; the menus beside it are written without).
  const identifiable = identifiableRows(wanted, host.tables);
  findings.push(...identifiable.findings);
  for (const row of identifiable.rows) {
    const table = host.tables.get(row.table);
    if (table === undefined) continue;
    const extra = hostColumnValues(file, table, [...Object.keys(row.owned), ...Object.keys(row.initial)]);
    const owned = fitRow(table, row.owned, [
      ...Object.keys(row.initial),
      ...Object.keys(extra.values),
      AUDIT_COLUMN,
    ]);
    const initial = fitRow(table, { ...extra.values, ...row.initial }, [
      ...Object.keys(row.owned),
      AUDIT_COLUMN,
    ]);
    findings.push(...extra.findings, ...owned.findings, ...initial.findings);
    // Where each value written comes from in the install file, for a value its column cannot hold.
    const sources = { ...row.sources, ...extra.sources, [AUDIT_COLUMN]: 'actingUser' };
    const entry = mine.get(row.key);
    const current =
      entry?.rowSeqDb == null || entry.hostTable !== row.table
        ? undefined
        : existing.get(rowId(row.table, entry.rowSeqDb));

    if (current !== undefined && entry?.rowSeqDb != null && !hasIdentity(current, row.naturalKey)) {
      findings.push(notRecognised(entry, row.table, Object.keys(row.naturalKey)));
      continue;
    }
    if (current !== undefined && entry?.rowSeqDb != null) {
      const update = differing(current, { ...owned.values, ...(options.force ? initial.values : {}) });
      if (Object.keys(update).length > 0) {
        findings.push(...unfitValues(table, update, sources));
        const statement = updateStatement(row.table, entry.rowSeqDb, update);
        changes.push({
          kind: 'update',
          table: row.table,
          key: row.key,
          ...statement,
          message: `update ${row.what} (SEQ_DB ${entry.rowSeqDb}): ${Object.keys(update).join(', ')}`,
          statements: [statement],
        });
      }
      continue;
    }

    if (row.shared) {
      const other = ledger.find(
        (e) => e.key === row.key && e.rowSeqDb !== null && existing.has(rowId(row.table, e.rowSeqDb)),
      );
      if (other?.rowSeqDb != null) {
        const rowSeqDb = other.rowSeqDb;
        const shared = { scope, key: row.key, hostTable: row.table, rowSeqDb };
        changes.push({
          kind: 'share',
          table: row.table,
          key: row.key,
          ...ledgerWriteStatement(shared, actingUser),
          message: `use ${row.what} (SEQ_DB ${rowSeqDb}), made by another installation of this database`,
          statements: [ledgerWriteStatement(shared, actingUser)],
        });
        continue;
      }
    }

    // Also when our own row is gone: a row of the same meaning made since then is not duplicated.
    const byHand = state.byHand.get(row.key);
    if (byHand === undefined) {
      lookups.push(row);
      continue;
    }
    const [first] = byHand;
    if (first !== undefined) {
      findings.push({
        level: 'info',
        code: 'ROW_NOT_OURS',
        path: `${row.table}.SEQ_DB=${first.SEQ_DB}`,
        message: `${row.what} already exists (SEQ_DB ${byHand.map((r) => r.SEQ_DB).join(', ')}) and was not made by the installer: left as it is (verify still checks it)`,
      });
      continue;
    }

    // A host that audits its rows gets the acting user, as our own tables do (only when the column exists).
    const audit = table.column(AUDIT_COLUMN);
    const values = { ...owned.values, ...initial.values, ...(audit ? { [audit.name]: actingUser } : {}) };
    findings.push(...unfitValues(table, values, sources));
    const statement = insertStatement(row.table, values);
    changes.push({
      kind: 'insert',
      table: row.table,
      key: row.key,
      ...statement,
      message:
        entry === undefined
          ? `insert ${row.what}`
          : `insert ${row.what} again (its row SEQ_DB ${entry.rowSeqDb} is gone)`,
      statements: [
        statement,
        ledgerWriteStatement(
          { scope, key: row.key, hostTable: row.table, rowSeqDb: LAST_INSERT_ID },
          actingUser,
        ),
      ],
    });
  }

  if (lookups.length > 0) return { lookups };
  changes.push(...tableUses(file, mine));

  const wantedKeys = new Set([...wanted.map((row) => row.key), ...LOGICAL_TABLES.map(usesKey)]);
  const unwanted = [...mine.values()].filter(
    (entry) => !wantedKeys.has(entry.key) && !entry.key.startsWith(CREATED_PREFIX),
  );
  changes.push(
    ...removals(unwanted, state, ledger, scope, options.force, findings, placedUnder(identifiable.rows)),
  );
  return { changes, findings: dedupe(findings) };
}

/**
 * The install file's values for this host's own columns of `table` (`hostColumns`): written when a
 * row is inserted, like the other values administrators may change later. A column the host lacks
 * (a typo), SEQ_DB or one the installer writes itself is an error, reported before anything is written.
 */
function hostColumnValues(
  file: InstallFile,
  table: HostTable,
  writtenByInstaller: readonly string[],
): { values: Record<string, unknown>; sources: Record<string, string>; findings: Finding[] } {
  const given = file.hostColumns?.[table.name] ?? {};
  const ours = new Set([...writtenByInstaller, AUDIT_COLUMN].map((name) => name.toUpperCase()));
  const values: Record<string, unknown> = {};
  const sources: Record<string, string> = {};
  const findings: Finding[] = [];
  for (const [name, value] of Object.entries(given)) {
    const path = `hostColumns.${table.name}.${name}`;
    const column = table.column(name);
    if (column === undefined) {
      findings.push({
        level: 'error',
        code: 'HOST_COLUMN_UNKNOWN',
        path,
        message: `${table.name} has no column ${name}`,
      });
    } else if (column.name.toUpperCase() === 'SEQ_DB') {
      // The server gives it (AUTO_INCREMENT), and the ledger records the row by LAST_INSERT_ID(),
      // which a SEQ_DB given here would not set: the entry would point at another row.
      findings.push({
        level: 'error',
        code: 'HOST_COLUMN_SEQ_DB',
        path,
        message: `${table.name}.${column.name} is the row's identity, given by the server (AUTO_INCREMENT) and recorded in the installer's ledger: leave it out of hostColumns`,
      });
    } else if (ours.has(column.name.toUpperCase())) {
      findings.push({
        level: 'error',
        code: 'HOST_COLUMN_WRITTEN_BY_INSTALLER',
        path,
        message: `${table.name}.${column.name} is written by the installer itself: leave it out of hostColumns`,
      });
    } else {
      values[column.name] = value;
      sources[column.name] = path;
    }
  }
  return { values, sources, findings };
}

const usesKey = (logical: string) => `${USES_PREFIX}${logical}`;

/**
 * One `uses:` ledger entry per table of the installation, on every apply: whether this run created
 * the table or another installation (same names, other scope) did, uninstall must know that this
 * installation still needs it before dropping it for someone else.
 */
function tableUses(file: InstallFile, mine: ReadonlyMap<string, LedgerEntry>): PlannedChange[] {
  const names = tableNames(file.tableNames ?? {});
  return LOGICAL_TABLES.flatMap((logical): PlannedChange[] => {
    const entry = { scope: file.scope, key: usesKey(logical), hostTable: names[logical], rowSeqDb: null };
    if (mine.get(entry.key)?.hostTable === entry.hostTable) return [];
    return [
      {
        kind: 'use-table',
        table: LEDGER_TABLE,
        key: entry.key,
        ...ledgerWriteStatement(entry, file.actingUser),
        message: `record that this installation uses table ${entry.hostTable}`,
        statements: [ledgerWriteStatement(entry, file.actingUser)],
      },
    ];
  });
}

/**
 * The menu rows the wanted rows are placed under (FATHER), as references: a row the install file puts
 * a menu under stays, though this plan may be about to write that menu's FATHER.
 */
function placedUnder(wanted: readonly DesiredRow[]): RowReferences {
  const references = new Map<string, RowReference[]>();
  for (const row of wanted) {
    const father = row.owned.FATHER;
    if (row.table !== MENU_TABLE || typeof father !== 'number') continue;
    const id = rowId(MENU_TABLE, father);
    const reference = {
      table: MENU_TABLE,
      via: `FATHER of ${row.what}, as the install file places it`,
      rows: 1,
    };
    references.set(id, [...(references.get(id) ?? []), reference]);
  }
  return references;
}

/**
 * The changes that remove the ledger entries `entries` of this installation ({@link removal}), but
 * for rows that other rows still refer to (`state.references`, and `planned`: those this plan itself
 * makes): deleting one would delete the host's rows with it (ON DELETE CASCADE), change them (SET
 * NULL) or leave them pointing at nothing. Such a row stays with its entry, so a later run tries
 * again, and is reported (`ROW_REFERENCED`), even with `--force`, which never reaches the host's rows.
 * The deletes left run children first: a row before the row of ours it refers to.
 */
export function removals(
  entries: readonly LedgerEntry[],
  state: RowState,
  ledger: readonly LedgerEntry[],
  scope: Scope,
  removeAdminRows: boolean,
  findings: Finding[],
  planned: RowReferences = new Map(),
): PlannedChange[] {
  const candidates = entries.map((entry) => {
    const changes = removal(entry, state.existing, ledger, scope, removeAdminRows, findings);
    const deletes = changes.some((change) => change.kind === 'delete');
    const id = deletes && entry.rowSeqDb !== null ? rowId(entry.hostTable, entry.rowSeqDb) : undefined;
    return { entry, changes, id };
  });
  const references = new Map(state.references);
  for (const [id, more] of planned) references.set(id, [...(references.get(id) ?? []), ...more]);
  const deleting = candidates.flatMap(({ id }) => (id === undefined ? [] : [id]));
  const kept = keptForReferences(deleting, references);
  // The deletes keep their places among the other changes, in the order that deletes children first.
  const order = childrenFirst(
    deleting.filter((id) => !kept.has(id)),
    references,
  );
  const deleteOf = new Map(candidates.map(({ id, changes }) => [id, changes]));
  return candidates.flatMap(({ entry, changes, id }) => {
    if (id === undefined) return changes;
    const blocker = kept.get(id);
    if (blocker !== undefined) {
      findings.push(referenced(entry, blocker));
      return [];
    }
    const next = order.shift();
    return next === undefined ? [] : (deleteOf.get(next) ?? []);
  });
}

function referenced(entry: LedgerEntry, by: RowReference): Finding {
  return {
    level: 'info',
    code: 'ROW_REFERENCED',
    path: `${entry.hostTable}.SEQ_DB=${entry.rowSeqDb}`,
    message: `${entry.key} (${entry.hostTable} SEQ_DB ${entry.rowSeqDb}) is no longer needed, but ${by.rows} row(s) of ${by.table} refer to it (${by.via}) and stay: kept, with its ledger entry, since deleting it would delete, change or orphan them; point them elsewhere or remove them, then run again to remove it`,
  };
}

/**
 * The changes that remove one ledger entry of this installation and, when nobody else needs it,
 * its row. Parameter rows (administrators may have edited them) stay unless `removeAdminRows`
 * (`apply --force`, and always on uninstall); a kept row is reported in `findings`.
 */
export function removal(
  entry: LedgerEntry,
  existing: ReadonlyMap<string, HostRow>,
  ledger: readonly LedgerEntry[],
  scope: Scope,
  removeAdminRows: boolean,
  findings: Finding[],
): PlannedChange[] {
  const forget: PlannedChange = {
    kind: 'forget',
    table: LEDGER_TABLE,
    key: entry.key,
    ...ledgerDeleteStatement(scope, entry.key),
    message: `forget ledger entry ${entry.key}`,
    statements: [ledgerDeleteStatement(scope, entry.key)],
  };
  const rowSeqDb = entry.rowSeqDb;
  if (rowSeqDb === null) return [forget];
  const identity = ledgerRowIdentity(entry);
  if (identity === undefined) {
    findings.push(unexpectedEntry(entry));
    return [];
  }
  const current = existing.get(rowId(entry.hostTable, rowSeqDb));
  if (current === undefined) return [forget];
  if (!hasIdentity(current, identity.values)) {
    findings.push(notRecognised(entry, entry.hostTable, Object.keys(identity.values)));
    return [];
  }
  const stillNeeded = ledger.some(
    (other) =>
      !sameScope(other.scope, scope) && other.hostTable === entry.hostTable && other.rowSeqDb === rowSeqDb,
  );
  if (stillNeeded)
    return [
      {
        ...forget,
        message: `${forget.message}; its row SEQ_DB ${rowSeqDb} stays, other installations use it`,
      },
    ];
  if (entry.key.startsWith('parameter:') && !removeAdminRows) {
    findings.push({
      level: 'info',
      code: 'ADMIN_ROW_KEPT',
      path: `${entry.hostTable}.SEQ_DB=${rowSeqDb}`,
      message: `${entry.key} (SEQ_DB ${rowSeqDb}) is no longer asked for; administrators may have edited it, so it stays (run with --force to remove it)`,
    });
    return [];
  }
  const statement = deleteStatement(entry.hostTable, rowSeqDb);
  return [
    {
      kind: 'delete',
      table: entry.hostTable,
      key: entry.key,
      ...statement,
      message: `delete ${entry.key} (SEQ_DB ${rowSeqDb}) from ${entry.hostTable}`,
      statements: [statement, ledgerDeleteStatement(scope, entry.key)],
    },
  ];
}

function unexpectedEntry(entry: LedgerEntry): Finding {
  return {
    level: 'info',
    code: 'LEDGER_ENTRY_UNEXPECTED',
    path: `ledger.${entry.key}`,
    message: `the ledger entry ${entry.key} points at ${entry.hostTable} (SEQ_DB ${entry.rowSeqDb}), where the installer never writes such a row: nothing was changed through it; remove the entry from ${LEDGER_TABLE} once you have checked it`,
  };
}

function notRecognised(entry: LedgerEntry, table: string, columns: readonly string[]): Finding {
  return {
    level: 'info',
    code: 'ROW_NOT_RECOGNISED',
    path: `${table}.SEQ_DB=${entry.rowSeqDb}`,
    message: `${table} row SEQ_DB ${entry.rowSeqDb}, recorded as ${entry.key}, no longer has the ${columns.join(', ')} it was written with: someone changed what it is, so it is left alone (restore those values, or delete the row and run apply)`,
  };
}

/** The values of `wanted` that the row does not already have. */
function differing(current: HostRow, wanted: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(wanted).filter(([name, value]) => !sameValue(current[name], value)),
  );
}

function dedupe(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const id = `${finding.code} ${finding.path}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
