import { TaskAssociationError } from '../model/errors.js';
import type { Issue } from '../model/issues.js';
import { differenceIssue, type SchemaDifference } from './schema-difference.js';

/**
 * Sync refused, or the server refused one of its statements. `code` is DESTRUCTIVE_DIFFERENCE (fixing it would drop or narrow
 * something), MISSING_HOST_TABLE (a host table our foreign keys need is absent or unusable),
 * TABLE_OF_ANOTHER_KIND (a name given a table the installer's ledger records as another of the four),
 * NOT_OUR_TABLE (a name given an existing table without the common columns: the host's own),
 * all raised before anything runs, or STATEMENT_FAILED (the server refused a statement, e.g. a foreign key that
 * existing rows violate). `differences` lists each problem with what was found and what was expected.
 */
export class SchemaSyncError extends TaskAssociationError {
  readonly differences: readonly SchemaDifference[];
  /** The differences as issues, the shape every other problem of the package has. */
  readonly issues: readonly Issue[];

  constructor(
    code: string,
    message: string,
    differences: readonly SchemaDifference[],
    options: { cause?: unknown; path?: string } = {},
  ) {
    super(code, message, {
      ...(differences[0] === undefined ? {} : { path: differenceIssue(differences[0]).path }),
      ...options,
    });
    this.differences = differences;
    this.issues = differences.map(differenceIssue);
  }
}
