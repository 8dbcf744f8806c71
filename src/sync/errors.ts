import { TaskAssociationError } from '../errors.js';
import type { SchemaDifference } from './schema-difference.js';

/**
 * Sync refused to change anything. `code` is DESTRUCTIVE_DIFFERENCE (fixing it would drop or narrow
 * something) or MISSING_HOST_TABLE (a host table our foreign keys need is absent); `differences` lists
 * each problem with what was found and what was expected.
 */
export class SchemaSyncError extends TaskAssociationError {
  readonly differences: readonly SchemaDifference[];

  constructor(code: string, message: string, differences: readonly SchemaDifference[]) {
    super(code, message, differences[0] === undefined ? {} : { path: pathOf(differences[0]) });
    this.differences = differences;
  }
}

function pathOf(difference: SchemaDifference): string {
  return difference.column === undefined ? difference.table : `${difference.table}.${difference.column}`;
}
