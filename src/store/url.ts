import { TaskAssociationError } from '../model/errors.js';
import { DEFAULT_DATABASE_TIMEOUT_MS } from './timeout.js';

/** Used when neither `--database-url` nor `$DATABASE_URL` is given. */
export const DEFAULT_DATABASE_URL = 'mysql://root@127.0.0.1:3306/test';

export interface DatabaseLocation {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly database: string;
}

/** `--database-url` wins, then `$DATABASE_URL`, then {@link DEFAULT_DATABASE_URL}. */
export function resolveDatabaseUrl(
  flag: string | undefined,
  env: Record<string, string | undefined>,
): string {
  // An empty DATABASE_URL (`DATABASE_URL= cmd`) means unset, as shells and CI files often leave it.
  return (
    flag ??
    (env.DATABASE_URL === undefined || env.DATABASE_URL === '' ? DEFAULT_DATABASE_URL : env.DATABASE_URL)
  );
}

/**
 * The CLI's bound on every wait for the database, in ms: `$DATABASE_TIMEOUT` in seconds (decimals
 * allowed, up to an hour), else the package default. Raise it for a slow link or a large ALTER.
 *
 * @example resolveDatabaseTimeout({ DATABASE_TIMEOUT: '30' }) // 30000
 */
export function resolveDatabaseTimeout(env: Record<string, string | undefined>): number {
  const text = env.DATABASE_TIMEOUT;
  if (text === undefined || text === '') return DEFAULT_DATABASE_TIMEOUT_MS;
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || seconds <= 0 || seconds > 3600) {
    throw new TaskAssociationError(
      'INVALID_DATABASE_TIMEOUT',
      `DATABASE_TIMEOUT=${JSON.stringify(text)} is not a number of seconds from more than 0 to 3600, as in DATABASE_TIMEOUT=30`,
    );
  }
  return Math.ceil(seconds * 1000);
}

/**
 * Parses `mysql://user:password@host:port/database`; a URL without a database is refused, and so is
 * one with query parameters (`?ssl=true`): none is honoured, and connecting without what one asks
 * for (TLS, say) must not happen silently. An IPv6 host is written in brackets (`[::1]`) and given
 * without them.
 */
export function parseDatabaseUrl(url: string): DatabaseLocation {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TaskAssociationError('INVALID_DATABASE_URL', `database URL "${redactUrl(url)}" is not a URL`);
  }
  if (parsed.protocol !== 'mysql:' && parsed.protocol !== 'mariadb:') {
    throw new TaskAssociationError(
      'INVALID_DATABASE_URL',
      `database URL ${redactUrl(url)} must start with mysql:// or mariadb://`,
    );
  }
  // A `%` not followed by two hex digits (a password `pa%ss` written as is) makes decodeURIComponent
  // throw a URIError: say which part, never showing the password.
  const decoded = (part: 'user' | 'password' | 'database', text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      throw new TaskAssociationError(
        'INVALID_DATABASE_URL',
        `database URL ${redactUrl(url)}: its ${part === 'password' ? part : `${part} name`} is badly percent-encoded (a % must start %XX, two hex digits; write a % itself as %25)`,
        { path: part },
      );
    }
  };
  if (parsed.search !== '') {
    // Their names only: a value may be a secret (`?password=...`).
    const names = [...new Set(parsed.searchParams.keys())].join(', ') || parsed.search;
    throw new TaskAssociationError(
      'INVALID_DATABASE_URL',
      `database URL ${redactUrl(url.slice(0, url.indexOf('?')))} has query parameters (${names}), which the package does not honour: it would connect without them. Remove them; TLS is not offered through the URL (reach the server over a network you trust or an SSH tunnel, or, from code, give wrapPool a mysql2 pool of your own with its ssl option)`,
      { path: 'query' },
    );
  }
  const database = decoded('database', parsed.pathname.replace(/^\//, ''));
  if (database === '' || database.includes('/')) {
    throw new TaskAssociationError(
      'INVALID_DATABASE_URL',
      `database URL ${redactUrl(url)} must name one database, as in mysql://root@127.0.0.1:3306/test`,
    );
  }
  return {
    // The WHATWG URL keeps an IPv6 host's brackets, which no resolver takes.
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1',
    port: parsed.port === '' ? 3306 : Number(parsed.port),
    user: decoded('user', parsed.username) || 'root',
    password: decoded('password', parsed.password),
    database,
  };
}

/** The URL with its password replaced, for messages. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}

/** The same server and credentials, another database (scratch databases, the demo). */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

/**
 * A host and port as a person writes them: an IPv6 address in brackets (`[::1]:3306`), so the port
 * does not read as one more group of the address.
 * @example hostAndPort({ host: '::1', port: 3306 }) // '[::1]:3306'
 */
export function hostAndPort(location: Pick<DatabaseLocation, 'host' | 'port'>): string {
  return location.host.includes(':')
    ? `[${location.host}]:${location.port}`
    : `${location.host}:${location.port}`;
}
