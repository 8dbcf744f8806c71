import { type ParseArgsConfig, parseArgs } from 'node:util';
import { TaskAssociationError } from '../errors.js';

/** A command line that does not fit the contract: exit code 2, with the usage text. */
export class UsageError extends TaskAssociationError {
  constructor(message: string) {
    super('USAGE', message);
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `node:util` parseArgs in strict mode, with its errors turned into {@link UsageError}s.
 * Options shared by several commands are declared once here.
 */
export function parseCommandLine<const O extends Options>(
  args: readonly string[],
  options: O,
  positionals = 0,
) {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: true }>
  >;
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(
      error instanceof Error ? (error.message.split('\n')[0] ?? 'bad arguments') : String(error),
    );
  }
  if (parsed.positionals.length > positionals) {
    throw new UsageError(`unexpected argument "${parsed.positionals[positionals]}"`);
  }
  return parsed;
}

export const databaseUrlOption = { 'database-url': { type: 'string' } } as const;
export const jsonOption = { json: { type: 'boolean', default: false } } as const;
