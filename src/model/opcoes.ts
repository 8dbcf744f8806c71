import { z } from 'zod';
import { ConfigError } from './issues.js';

/**
 * One `key:value` pair of an OPCOES string. The value is everything after the first `:` up to the
 * next `;`, so it may contain `:` (a URL with a port) but never `;` (the host has no escape for it).
 */
export const OpcoesEntry = z.strictObject({
  key: z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/),
  value: z.string().refine((value) => !value.includes(';'), { message: 'a value cannot contain ";"' }),
});
export type OpcoesEntry = z.infer<typeof OpcoesEntry>;

/** A link parameter of OPCOES: `pN` names the URL parameter, `vN` the record column its value comes from. */
export interface OpcoesParameter {
  readonly index: number;
  readonly name: string;
  readonly column: string;
}

const KEY_START = /[A-Za-z]/;
const KEY_CHAR = /[A-Za-z0-9_]/;

/**
 * Parses the OPCOES mini-language of sys_core_ds_tabela_campo (a field's options): `key:value` pairs
 * separated by `;`, in order. {@link serializeOpcoes} gives back the same string byte for byte.
 * Refused, with the offset of the offending character: an empty pair (`;;`, a trailing `;`), a key that
 * is not a name, a pair without `:`, a key given twice, a `pN` without its `vN` or the reverse. An
 * empty string has no pairs.
 *
 * @example parseOpcoes('type:GET_URL;url:associationtask') // [{ key: 'type', value: 'GET_URL' }, { key: 'url', value: 'associationtask' }]
 */
export function parseOpcoes(text: string): OpcoesEntry[] {
  if (text === '') return [];
  const entries: OpcoesEntry[] = [];
  const seen = new Map<string, number>();
  let start = 0;
  for (const part of text.split(';')) {
    if (part === '') fail(text, start, 'an empty pair: write key:value between the ";" separators');
    const colon = part.indexOf(':');
    const key = colon < 0 ? part : part.slice(0, colon);
    for (let i = 0; i < key.length; i++) {
      const char = key.charAt(i);
      if (!(i === 0 ? KEY_START : KEY_CHAR).test(char))
        fail(
          text,
          start + i,
          `${JSON.stringify(char)} cannot be part of a key: keys are letters, digits and "_"`,
        );
    }
    if (key === '') fail(text, start, 'a pair without a key: write key:value');
    if (colon < 0) fail(text, start + part.length, `the key "${key}" has no ":" and value`);
    const first = seen.get(key);
    if (first !== undefined) fail(text, start, `the key "${key}" is given twice (first at offset ${first})`);
    seen.set(key, start);
    entries.push({ key, value: part.slice(colon + 1) });
    start += part.length + 1;
  }
  checkParameterPairs(text, entries, seen);
  return entries;
}

/**
 * Writes entries back as an OPCOES string, in their order. Refuses what {@link parseOpcoes} would not
 * read back the same (a bad key, a value with `;`, a key twice, an unpaired `pN`/`vN`).
 *
 * @example serializeOpcoes([{ key: 'icon', value: 'fa fa-link' }]) // 'icon:fa fa-link'
 */
export function serializeOpcoes(entries: readonly OpcoesEntry[]): string {
  const checked = z.array(OpcoesEntry).safeParse(entries);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new ConfigError('INVALID_OPCOES', 'cannot write OPCOES', [
      {
        path: issue?.path.join('.') ?? '',
        code: 'INVALID_VALUE',
        message: issue?.message ?? 'invalid entry',
      },
    ]);
  }
  const text = entries.map((entry) => `${entry.key}:${entry.value}`).join(';');
  // Reading it back applies the duplicate-key and pairing rules in one place.
  parseOpcoes(text);
  return text;
}

/** The `pN`/`vN` parameters in N order. */
export function opcoesParameters(entries: readonly OpcoesEntry[]): OpcoesParameter[] {
  const values = new Map(entries.map((entry) => [entry.key, entry.value]));
  return entries
    .flatMap((entry) => {
      const match = /^p([0-9]+)$/.exec(entry.key);
      const column = match ? values.get(`v${match[1]}`) : undefined;
      return match && column !== undefined ? [{ index: Number(match[1]), name: entry.value, column }] : [];
    })
    .sort((a, b) => a.index - b.index);
}

/**
 * The link a GET_URL field opens for one record: the `url` entry with each `pN` parameter set to the
 * record's `vN` column, URL-encoded. A column the record lacks (or holds null in) is an error, never
 * a link ending in `=undefined`.
 *
 * @example buildLink(LINK_FIELD_OPCOES, { SEQ_DB: 42 }) // 'associationtask?taskSheet=42'
 */
export function buildLink(
  opcoes: string | readonly OpcoesEntry[],
  record: Readonly<Record<string, unknown>>,
): string {
  const entries = typeof opcoes === 'string' ? parseOpcoes(opcoes) : opcoes;
  const url = entries.find((entry) => entry.key === 'url')?.value;
  if (url === undefined || url === '')
    throw new ConfigError('INVALID_OPCOES', 'cannot build the link', [
      { path: 'url', code: 'MISSING_KEY', message: 'OPCOES has no "url" entry naming the route to open' },
    ]);
  const query = opcoesParameters(entries).map(({ index, name, column }) => {
    const value = record[column];
    if (value === undefined || value === null || typeof value === 'object')
      throw new ConfigError('INVALID_OPCOES', 'cannot build the link', [
        {
          path: `v${index}`,
          code: 'MISSING_KEY',
          message: `parameter "${name}" takes column "${column}", which the record ${value === undefined ? 'does not have' : `holds ${value === null ? 'null' : 'an object'} in`}`,
        },
      ]);
    return `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`;
  });
  return query.length === 0 ? url : `${url}?${query.join('&')}`;
}

function checkParameterPairs(
  text: string,
  entries: readonly OpcoesEntry[],
  offsets: Map<string, number>,
): void {
  for (const { key } of entries) {
    const match = /^([pv])([0-9]+)$/.exec(key);
    if (!match) continue;
    const other = `${match[1] === 'p' ? 'v' : 'p'}${match[2]}`;
    if (!offsets.has(other))
      fail(
        text,
        offsets.get(key) ?? 0,
        match[1] === 'p'
          ? `parameter "${key}" has no "${other}" naming the column its value comes from`
          : `"${key}" has no "${other}" naming the URL parameter it fills`,
      );
  }
}

function fail(text: string, offset: number, problem: string): never {
  throw new ConfigError('INVALID_OPCOES', `OPCOES ${JSON.stringify(text)} is malformed`, [
    { path: '', code: 'INVALID_VALUE', message: `at offset ${offset}: ${problem}` },
  ]);
}
