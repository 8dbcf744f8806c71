import { readFileSync } from 'node:fs';

/**
 * The package's version, from its own package.json (one directory above both `src/` and `dist/`):
 * `--version` prints it and the installer's ledger records which version wrote each entry.
 */
export const PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
