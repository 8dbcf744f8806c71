import { z } from 'zod';

/**
 * The first lone UTF-16 surrogate of `text` (JSON's `"\ud800"` without its pair): its code unit in
 * hex and at which character it sits (counted in characters, as a person counts them); undefined
 * when the text is well-formed.
 *
 * @example loneSurrogate('A\ud800B') // { unit: 'D800', character: 2 }
 */
export function loneSurrogate(text: string): { unit: string; character: number } | undefined {
  // With the `u` flag a surrogate pair is one code point, so only a lone half matches.
  const found = /[\uD800-\uDFFF]/u.exec(text);
  if (found === null) return undefined;
  return {
    unit: found[0].charCodeAt(0).toString(16).toUpperCase(),
    character: [...text.slice(0, found.index)].length + 1,
  };
}

/**
 * A text the installer writes into the host's rows (a menu label or icon, the link field's label, a
 * hostColumns value, a text of the TREE_VIEW). It must be well-formed: a lone surrogate has no UTF-8
 * form, so the driver sends U+FFFD in its place, and the row then never says what the file says
 * (verify and every apply find it changed, forever). Refused with `INVALID_TEXT` at its path, before
 * anything is written.
 *
 * @example HostText.safeParse('A\ud800B').success // false
 */
export const HostText = z.string().superRefine((text, ctx) => {
  const lone = loneSurrogate(text);
  if (lone === undefined) return;
  ctx.addIssue({
    code: 'custom',
    message: `the text holds half of a UTF-16 surrogate pair alone (U+${lone.unit} at character ${lone.character}, "\\u${lone.unit.toLowerCase()}" in JSON), which UTF-8 cannot hold: the host would keep U+FFFD instead; write the character itself, or both halves of its pair`,
    params: { code: 'INVALID_TEXT' },
  });
});
