import { describe, expect, it } from 'vitest';
import { containsPattern, SearchText, searchWords } from '../../src/model/search-text.js';

describe('the words of a search', () => {
  it('splits on white space, leaves out punctuation alone, and keeps each word once whatever its case', () => {
    expect(searchWords('  A01 — Roçada   a01 ROÇADA ')).toEqual(['A01', 'Roçada']);
    expect(searchWords('% _ —')).toEqual([]);
    // An emoji is a word: a label column cannot hold it, so it finds nothing rather than being dropped.
    expect(searchWords('pass 😀')).toEqual(['pass', '😀']);
  });

  it('takes LIKE wildcards and the escape character as text', () => {
    expect(containsPattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
  });

  it('bounds the text: 1 to 100 characters, at most 8 words', () => {
    expect(SearchText.safeParse(' a b ').data).toBe('a b');
    expect(SearchText.safeParse('a b c d e f g h').success).toBe(true);
    expect(SearchText.safeParse('a b c d e f g h i').error?.issues[0]?.message).toBe(
      'a search is at most 8 words',
    );
    // Words as they are searched for: a label pasted back, 8 words and its " — ", is no 9th word.
    expect(SearchText.safeParse('A1 — Roçada manual de área com trator leve').success).toBe(true);
    expect(SearchText.safeParse('A1 — Roçada manual de área com trator leve x').success).toBe(false);
    expect(SearchText.safeParse('x'.repeat(101)).error?.issues[0]?.message).toBe(
      'a search is at most 100 characters',
    );
    expect(SearchText.safeParse('  ').error?.issues[0]?.message).toBe('give the text to search for');
  });
});
