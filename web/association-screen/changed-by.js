// @ts-check
/**
 * Who stored the value a conflict met in a read: a read of an activity (a save's answer, a row or a
 * branch read again) says only who changed its entry last, which is often a change of another of
 * its fields (this device's own sending of one, say), so the activity's history (`part=history`,
 * newest first) is asked who changed each field last. The table's cells and the modal's fields ask
 * here alike.
 */

/** @typedef {import('./api.js').MetricChange} MetricChange */

/**
 * The latest change of each of `fields` in an activity's history; a field it holds no change of is
 * left out, and a history that cannot be read (no network, refused) gives none.
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {{ activity: number, group?: number | null | undefined }} key
 * @param {Iterable<string>} fields
 * @returns {Promise<Map<string, MetricChange>>}
 */
export async function lastChangesOf(ctx, key, fields) {
  /** @type {Map<string, MetricChange>} */
  const found = new Map();
  /** @type {readonly MetricChange[]} */
  let changes;
  try {
    ({ changes } = await ctx.api.history(key.activity, key.group));
  } catch {
    return found;
  }
  const wanted = new Set(fields);
  for (const change of changes) {
    if (wanted.has(change.field) && !found.has(change.field)) found.set(change.field, change);
  }
  return found;
}
