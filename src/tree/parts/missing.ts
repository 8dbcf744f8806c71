import { InvalidRequestError } from '../../model/request-errors.js';

/** A part asked without a query parameter it needs: a 400 naming it, before anything is read. */
export function missingParameter(parameter: string, message: string): InvalidRequestError {
  return new InvalidRequestError('INVALID_REQUEST', `query at ${parameter}: ${message}`, { path: parameter });
}
