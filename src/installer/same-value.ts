/**
 * Whether a value read back equals the one we write. Compared in JavaScript, not by the server's
 * collation, so trailing spaces and case count: OPCOES must be exactly the customer's string, byte
 * for byte.
 */
export function sameValue(found: unknown, expected: unknown): boolean {
  if (found === null || found === undefined || expected === null || expected === undefined) {
    return (found ?? null) === (expected ?? null);
  }
  const text = (value: unknown) => (Buffer.isBuffer(value) ? value.toString('utf8') : String(value));
  return text(found) === text(expected);
}
