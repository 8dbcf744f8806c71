import { z } from 'zod';

/**
 * A SEQ_DB (a row's key, BIGINT UNSIGNED): a positive whole number no larger than a JavaScript
 * number holds exactly (2^53 - 1). Larger keys would be silently rounded to a neighbour's, so they
 * are refused rather than read. The one model for every SEQ_DB a caller gives: library arguments,
 * request bodies, install files.
 */
const TOO_BIG = `a SEQ_DB may be at most ${Number.MAX_SAFE_INTEGER} (2^53 - 1)`;
export const SeqDb = z
  // zod's integer check itself refuses numbers past 2^53 - 1, with its own words: ours say why.
  .int({ error: (issue) => (issue.code === 'too_big' ? TOO_BIG : undefined) })
  .min(1)
  .max(Number.MAX_SAFE_INTEGER, { message: TOO_BIG });
export type SeqDb = z.infer<typeof SeqDb>;

/**
 * A SEQ_DB written as text (a query parameter, a command-line argument): decimal digits only, no
 * sign, no leading zero, no spaces, no exponent. The digits are bounded first, so `Number` never sees
 * a value it would round: 9007199254740993 is refused, not read as 9007199254740992.
 *
 * @example SeqDbText.parse('42') // 42
 */
export const SeqDbText = z
  .string()
  // Says the leading zero: `042` is all digits, and "digits only" alone read as a contradiction.
  .regex(/^[1-9][0-9]{0,15}$/, {
    message: 'a SEQ_DB is a positive whole number written in digits only, without a leading zero',
  })
  // 16 digits at most, so Number() is exact up to 2^53 - 1 and every larger value lands above it.
  .transform(Number)
  .pipe(SeqDb);
