import { type ParseArgsConfig, parseArgs } from 'node:util';
import { TaskAssociationError } from '../model/errors.js';
import { parseDatabaseUrl, resolveDatabaseUrl } from '../store/url.js';

/**
 * A command line that does not fit the contract: exit code 2, with the usage text. Its code is
 * `USAGE`, or a more precise one an argument's own check gave (`INVALID_DATABASE_URL`).
 */
export class UsageError extends TaskAssociationError {
  constructor(message: string, options: { code?: string; path?: string } = {}) {
    super(options.code ?? 'USAGE', message, options.path === undefined ? {} : { path: options.path });
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** The values of the declared options: strings, booleans, or arrays of them for `multiple: true`. */
export type OptionValues<O extends Options> = {
  [K in keyof O]?: O[K] extends { type: 'boolean' }
    ? O[K] extends { multiple: true }
      ? boolean[]
      : boolean
    : O[K] extends { multiple: true }
      ? string[]
      : string;
};

/**
 * `node:util` parseArgs in strict mode, with its errors turned into {@link UsageError}s.
 * Options shared by several commands are declared once here.
 */
export function parseCommandLine<const O extends Options>(
  args: readonly string[],
  options: O,
  positionals = 0,
): { values: OptionValues<O>; positionals: string[] } {
  let parsed: {
    values: Record<string, unknown>;
    positionals: string[];
    tokens: { kind: string; name?: string }[];
  };
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: true, tokens: true });
  } catch (error) {
    // Node names the option only in its message: taken from there, for this one error code.
    const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
    const unknown =
      code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
        ? /'(-{1,2}[^']*)'/.exec(error instanceof Error ? error.message : '')?.[1]
        : undefined;
    if (unknown !== undefined) throw new UsageError(unknownOption(unknown, Object.keys(options)));
    // `--install --json` ("argument is ambiguous") and a last `--install` ("argument missing").
    const valueless =
      code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE'
        ? /'--([a-z-]+)[ ']/.exec(error instanceof Error ? error.message : '')?.[1]
        : undefined;
    if (valueless !== undefined && options[valueless]?.type === 'string') {
      const what = OPTION_VALUES[valueless];
      throw new UsageError(`--${valueless} needs a value${what === undefined ? '' : ` (${what})`}`);
    }
    throw new UsageError(
      error instanceof Error ? (error.message.split('\n')[0] ?? 'bad arguments') : String(error),
    );
  }
  // Given twice, an option that takes one value would quietly keep the last: `--install a.json
  // --install b.json` installing b. Refused instead, as a typo or a pasted line most likely is; a
  // flag given twice too, as the usage says of every option but the repeatable ones.
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || token.name === undefined) continue;
    const option = options[token.name];
    if (option?.multiple !== true && seen.has(token.name)) {
      throw new UsageError(`--${token.name} is given twice: give it once`);
    }
    seen.add(token.name);
  }
  if (parsed.positionals.length > positionals) {
    throw new UsageError(`unexpected argument "${parsed.positionals[positionals]}"`);
  }
  return { values: parsed.values as OptionValues<O>, positionals: parsed.positionals };
}

/** What each option that takes a value wants, for the message when it is given without one. */
const OPTION_VALUES: Readonly<Record<string, string>> = {
  install: 'a file path',
  'database-url': 'a URL such as mysql://user:pass@host:3306/erp',
  'table-name': 'LOGICAL=NAME, such as OPER=MO_OPER',
  scope: 'EMPRESA/FILIAL/LOCAL, such as 1/1/1',
  port: 'a number from 0 to 65535',
  images: 'a folder',
  cache: 'a folder',
  redis: 'a URL such as redis://127.0.0.1:6379',
  'redis-prefix': 'a key prefix',
};

export const databaseUrlOption = { 'database-url': { type: 'string' } } as const;

/**
 * The database URL a command uses (`--database-url`, then `$DATABASE_URL`, then the default),
 * checked before anything else: a malformed `--database-url` is a malformed argument (exit 2, its
 * code `INVALID_DATABASE_URL`); one from `$DATABASE_URL` is refused by the connection (exit 1).
 */
export function databaseUrlFrom(flag: string | undefined, env: Record<string, string | undefined>): string {
  const url = resolveDatabaseUrl(flag, env);
  if (flag === undefined) return url;
  try {
    parseDatabaseUrl(url);
  } catch (error) {
    if (!(error instanceof TaskAssociationError)) throw error;
    throw new UsageError(error.message, {
      code: error.code,
      ...(error.path === undefined ? {} : { path: error.path }),
    });
  }
  return url;
}
export const jsonOption = { json: { type: 'boolean', default: false } } as const;

/** One option and its one line of help, as `--help` prints them. */
export type OptionHelp = readonly [flag: string, help: string];

export const DATABASE_URL_HELP: OptionHelp = [
  '--database-url URL',
  'the database (default $DATABASE_URL, then mysql://root@127.0.0.1:3306/test)',
];
export const JSON_HELP: OptionHelp = [
  '--json',
  'print exactly one JSON document on stdout, failures included',
];
export const HELP_OPTION: OptionHelp = ['-h, --help', 'print this help and exit'];

/** `--port`: 0 (any free port) to 65535. */
export function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new UsageError(`--port must be a number from 0 to 65535, not "${text}"`);
  }
  return port;
}

/** `unknown option --instal (did you mean --install?)`: the nearest known option, when one is near. */
function unknownOption(given: string, known: readonly string[]): string {
  const near = nearestName(given.replace(/^-+/, ''), known);
  return `unknown option ${given}${near === undefined ? '' : ` (did you mean --${near}?)`}: see --help`;
}

/** The known name nearest `given` (a typo: two edits away, or one starting the other), if any. */
export function nearestName(given: string, known: readonly string[]): string | undefined {
  return known
    .map((name) => ({ name, distance: editDistance(given, name) }))
    .filter(({ name, distance }) => distance <= 2 || name.startsWith(given) || given.startsWith(name))
    .sort((a, b) => a.distance - b.distance)[0]?.name;
}

/** Levenshtein distance, for option names (a few characters long). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
