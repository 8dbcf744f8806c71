import { z } from 'zod';

/** Most characters of a search: a person's query, not a document. */
export const MAX_SEARCH_LENGTH = 100;
/** Most words of a search: each is one more condition on every label column of every level. */
export const MAX_SEARCH_WORDS = 8;

/**
 * What a person types in the screen's search box: 1 to {@link MAX_SEARCH_LENGTH} characters, at most
 * {@link MAX_SEARCH_WORDS} words, counted as they are searched for ({@link searchWords}): the " — " of
 * a label pasted back is no word, so an 8-word label with its dash is searched, not refused.
 */
export const SearchText = z
  .string()
  .trim()
  .min(1, { message: 'give the text to search for' })
  .max(MAX_SEARCH_LENGTH, { message: `a search is at most ${MAX_SEARCH_LENGTH} characters` })
  .refine((text) => searchWords(text).length <= MAX_SEARCH_WORDS, {
    message: `a search is at most ${MAX_SEARCH_WORDS} words`,
  });

/**
 * The words a node's labels must each contain, in any order and in any of its label columns: the
 * text split on white space, a word of punctuation alone left out (the " — " a label pasted back
 * carries), each word once whatever its case.
 *
 * @example searchWords('A01 — Roçada a01') // ['A01', 'Roçada']
 */
export function searchWords(text: string): string[] {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const word of text.trim().split(/\s+/u)) {
    if (/^\p{P}+$/u.test(word)) continue;
    const key = word.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    words.push(word);
  }
  return words;
}

/** `word` as a LIKE pattern matching it anywhere: its own `%`, `_` and `\` taken as text. */
export function containsPattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
