// @ts-check
/**
 * A metric row's key (its activity and group) as one string: how the table, the outbox and the
 * tree find the same activity's entry in their maps and sets. One place, so that none of them
 * spells it differently (a missing group, on a one-level tree, is the empty string in all).
 */

/** @param {{ activity: number, group?: number | null | undefined }} key */
export const keyOf = (key) => `${key.activity}:${key.group ?? ''}`;
