import type { Issue } from '../model/issues.js';
/** What kind of difference sync found between the database and the Drizzle tables. */
export type SchemaDifferenceKind =
  | 'missing-table'
  | 'missing-column'
  | 'column-type'
  | 'column-nullability'
  | 'column-default'
  | 'column-extra'
  | 'missing-key'
  | 'conflicting-key'
  | 'missing-foreign-key'
  | 'conflicting-foreign-key'
  | 'missing-host-table'
  | 'missing-host-column'
  | 'host-column-type'
  /** A host table our foreign keys point at whose engine cannot hold a foreign key (MyISAM): InnoDB is needed. */
  | 'host-table-engine'
  /** A host table our foreign keys point at without an index starting with SEQ_DB, which a foreign key needs. */
  | 'host-column-unindexed'
  /** A name given a table the installer's ledger records as another of the four (refused by `syncSchema`). */
  | 'table-of-another-kind'
  /** A name given an existing table without the common columns: a host table, never reshaped into ours. */
  | 'not-our-table';

/**
 * One difference. `destructive` means fixing it would drop or narrow something (sync refuses it);
 * `found` and `expected` say what the database has and what the tables ask for.
 */
export interface SchemaDifference {
  readonly kind: SchemaDifferenceKind;
  readonly table: string;
  readonly column?: string;
  readonly found?: string;
  readonly expected?: string;
  readonly destructive: boolean;
  readonly message: string;
}

/** What sync would do: the statements (in order) and every difference they come from. */
export interface SchemaPlan {
  readonly statements: string[];
  /** The table each statement creates or alters, index for index with `statements`. */
  readonly statementTables: readonly string[];
  readonly differences: SchemaDifference[];
}

/** Differences that no statement of ours can fix and that make sync refuse, destructive or not. */
export const BLOCKING_KINDS: readonly SchemaDifferenceKind[] = [
  'missing-host-table',
  'missing-host-column',
  'host-column-type',
  'host-table-engine',
  'host-column-unindexed',
  'not-our-table',
];

/**
 * A difference as an {@link Issue}, the shape every problem has outside the sync: a stable code from
 * its kind (`missing-column` → `MISSING_COLUMN`), the path of what differs (`MO_OPER.CODIGO`, or the
 * table alone), and its message.
 */
export function differenceIssue(difference: SchemaDifference): Issue {
  return {
    code: difference.kind.toUpperCase().replaceAll('-', '_'),
    path: difference.column === undefined ? difference.table : `${difference.table}.${difference.column}`,
    message: difference.message,
  };
}
