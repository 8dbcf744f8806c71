import { describe, expect, it } from 'vitest';
import type { ColumnType } from '../../src/model/column-values.js';
import { type Identifier, parseIdentifier } from '../../src/model/identifier.js';
import type { MetricValue } from '../../src/model/metrics.js';
import { type CheckedEntry, decideSave, type LockedKey, withReadBack } from '../../src/tree/save-decision.js';

// The save's decision over plain data: what its locking read found in, writes and history out.

const M1 = parseIdentifier('METRICA1', 'f');
const M2 = parseIdentifier('METRICA2', 'f');
const decimal: ColumnType = {
  name: 'METRICA1',
  dataType: 'decimal',
  unsigned: false,
  nullable: true,
  precision: 10,
  scale: 2,
  maxLength: null,
};
const integer: ColumnType = {
  name: 'METRICA2',
  dataType: 'int',
  unsigned: false,
  nullable: true,
  precision: 10,
  scale: 0,
  maxLength: null,
};
const context = {
  columns: new Map<Identifier, ColumnType>([
    [M1, decimal],
    [M2, integer],
  ]),
  user: 7,
  now: '2026-11-26T12:00:00.000Z',
};
const earlier = { user: 3, at: '2026-11-25T08:00:00.000Z' };

function entry(
  values: Record<string, MetricValue>,
  base: Record<string, MetricValue> = {},
  options: { remove?: boolean; activity?: number; index?: number; row?: boolean | undefined } = {},
): CheckedEntry {
  const activity = options.activity ?? 1;
  return {
    index: options.index ?? 0,
    activity,
    group: 9,
    key: `${activity}:9`,
    values: new Map(Object.entries(values) as [Identifier, MetricValue][]),
    base: new Map(Object.entries(base) as [Identifier, MetricValue][]),
    remove: options.remove ?? false,
    row: options.row,
    deviceAt: null,
  };
}

function row(
  stored: Record<string, unknown>,
  flags: Partial<LockedKey> = {},
  activity = 1,
): Map<string, LockedKey> {
  return new Map([
    [
      `${activity}:9`,
      {
        ids: [5],
        seqDb: 50,
        twins: [],
        readOnly: false,
        inactive: false,
        stored: new Map(Object.entries(stored) as [Identifier, unknown][]),
        lastChange: earlier,
        ...flags,
      },
    ],
  ]);
}

describe('decideSave', () => {
  it('inserts a key without a row with what it sends, NULL elsewhere, and records each field sent', () => {
    const decision = decideSave([entry({ METRICA1: null })], new Map(), context);
    expect(decision.inserts).toHaveLength(1);
    expect(decision.history).toEqual([
      {
        row: null,
        activity: 1,
        group: 9,
        field: 'METRICA1',
        action: 'insert',
        old: null,
        new: null,
        deviceAt: null,
      },
    ]);
    expect(decision.entries).toEqual([
      {
        activity: 1,
        group: 9,
        stored: { METRICA1: null, METRICA2: null },
        lastChange: { user: 7, at: context.now },
      },
    ]);
    expect(decision.counts).toEqual({ inserted: 1, updated: 0, removed: 0, unchanged: 0 });
  });

  it('reads back a new row’s fields left to a default of their own, and refuses one left out of a NOT NULL column without one', () => {
    const columns = (leftOut: 'null' | 'default' | 'refused') =>
      new Map<Identifier, ColumnType>([
        [M1, decimal],
        [M2, { ...integer, nullable: leftOut === 'null', leftOut }],
      ]);
    const defaulted = decideSave([entry({ METRICA1: '1' })], new Map(), {
      ...context,
      columns: columns('default'),
    });
    expect(defaulted.readBack).toEqual([{ entry: 0, activity: 1, group: 9, fields: [M2] }]);
    expect(defaulted.history.map((change) => change.field)).toEqual([M1]);
    expect(
      withReadBack(defaulted.entries, defaulted.readBack, [new Map([[M2, 9]])], columns('default')),
    ).toEqual([expect.objectContaining({ stored: { METRICA1: '1.00', METRICA2: 9 } })]);
    const nulled = decideSave([entry({ METRICA1: '1' })], new Map(), {
      ...context,
      columns: columns('null'),
    });
    expect(nulled.readBack).toEqual([]);
    expect(nulled.entries[0]?.stored).toEqual({ METRICA1: '1.00', METRICA2: null });
    expect(() =>
      decideSave([entry({ METRICA1: '1' }, {}, { index: 3 })], new Map(), {
        ...context,
        columns: columns('refused'),
      }),
    ).toThrow(expect.objectContaining({ code: 'METRIC_VALUE_REQUIRED', path: 'entries.3.values.METRICA2' }));
    // A row that exists keeps what it holds: only a new row needs the field.
    expect(
      decideSave([entry({ METRICA1: '1' })], row({ METRICA1: null, METRICA2: 4 }), {
        ...context,
        columns: columns('refused'),
      }).counts.updated,
    ).toBe(1);
  });

  it('updates only the fields whose value changes, comparing values as the column stores them', () => {
    const decision = decideSave(
      [entry({ METRICA1: '2.5', METRICA2: 4 })],
      row({ METRICA1: '2.50', METRICA2: 3 }),
      context,
    );
    expect(decision.updates).toEqual([{ ids: [5], values: new Map([[M2, 4]]) }]);
    expect(decision.history).toEqual([
      {
        row: 50,
        activity: 1,
        group: 9,
        field: 'METRICA2',
        action: 'update',
        old: '3',
        new: '4',
        deviceAt: null,
      },
    ]);
    expect(decision.entries[0]?.stored).toEqual({ METRICA1: '2.50', METRICA2: 4 });
  });

  it('calls a change to NULL a clear, and an entry that changes nothing unchanged, keeping the row’s last change', () => {
    expect(decideSave([entry({ METRICA1: null })], row({ METRICA1: '1.00' }), context).history).toMatchObject(
      [{ action: 'clear', old: '1.00', new: null }],
    );
    const same = decideSave([entry({ METRICA1: '1' })], row({ METRICA1: '1.00' }), context);
    expect(same.updates).toEqual([]);
    expect(same.history).toEqual([]);
    expect(same.counts.unchanged).toBe(1);
    expect(same.entries[0]?.lastChange).toEqual(earlier);
  });

  it('finds a conflict where a base differs from what is stored and the entry does not already match it', () => {
    const decision = decideSave(
      [entry({ METRICA1: '3.00' }, { METRICA1: '1.00' })],
      row({ METRICA1: '2.00' }),
      context,
    );
    expect(decision.conflicts).toEqual([
      {
        entry: 0,
        activity: 1,
        group: 9,
        field: 'METRICA1',
        base: '1.00',
        theirs: '2.00',
        row: true,
        yours: '3.00',
        changedBy: 3,
        changedAt: earlier.at,
      },
    ]);
    // Same change made twice: not a conflict, nothing to write.
    const twice = decideSave(
      [entry({ METRICA1: '2' }, { METRICA1: '1.00' })],
      row({ METRICA1: '2.00' }),
      context,
    );
    expect(twice.conflicts).toEqual([]);
    expect(twice.updates).toEqual([]);
    // A base of null against a key with no row matches; against a row's value it conflicts.
    expect(decideSave([entry({ METRICA2: 1 }, { METRICA2: null })], new Map(), context).conflicts).toEqual(
      [],
    );
    expect(
      decideSave([entry({ METRICA2: 1 }, { METRICA2: null })], row({ METRICA2: 5 }), context).conflicts,
    ).toMatchObject([{ theirs: 5, yours: 1 }]);
  });

  it('tells a row read as absent from a row holding NULL by the entry’s row flag', () => {
    // Read without a row (the defaults shown), and a row saved meanwhile holds NULL and 6: a base of
    // null matches the NULL, but the row says it was made since. Only the field it holds otherwise conflicts.
    const made = decideSave(
      [entry({ METRICA1: '8.00', METRICA2: 6 }, { METRICA1: null, METRICA2: null }, { row: false })],
      row({ METRICA1: null, METRICA2: 6 }),
      context,
    );
    expect(made.conflicts).toEqual([
      {
        entry: 0,
        activity: 1,
        group: 9,
        field: 'METRICA1',
        base: null,
        theirs: null,
        row: true,
        yours: '8.00',
        changedBy: 3,
        changedAt: earlier.at,
      },
    ]);
    // Read with a row, which was removed meanwhile: every field sent conflicts, theirs none.
    const removed = decideSave(
      [entry({ METRICA2: 4 }, { METRICA2: null }, { row: true })],
      new Map(),
      context,
    );
    expect(removed.conflicts).toMatchObject([
      { field: 'METRICA2', base: null, theirs: null, row: false, yours: 4 },
    ]);
    // As read: the bases alone decide, as they do without the flag.
    for (const flag of [true, undefined]) {
      expect(
        decideSave(
          [entry({ METRICA1: '8.00' }, { METRICA1: null }, { row: flag })],
          row({ METRICA1: null }),
          context,
        ).conflicts,
      ).toEqual([]);
    }
    expect(
      decideSave([entry({ METRICA2: 4 }, { METRICA2: null }, { row: false })], new Map(), context).conflicts,
    ).toEqual([]);
  });

  it('removes a row as DELETED = 1, recording each metric it held, and checks a remove’s bases', () => {
    const decision = decideSave(
      [entry({}, { METRICA1: '2.00' }, { remove: true })],
      row({ METRICA1: '2.00', METRICA2: 1 }),
      context,
    );
    expect(decision.removes).toEqual([{ ids: [5], values: new Map([['DELETED', 1]]) }]);
    expect(decision.history).toEqual([
      {
        row: 50,
        activity: 1,
        group: 9,
        field: 'METRICA1',
        action: 'remove',
        old: '2.00',
        new: null,
        deviceAt: null,
      },
      {
        row: 50,
        activity: 1,
        group: 9,
        field: 'METRICA2',
        action: 'remove',
        old: '1',
        new: null,
        deviceAt: null,
      },
    ]);
    expect(decision.entries[0]).toMatchObject({ stored: null, lastChange: null });
    // A NULL field is no change of a remove; a row saved empty records one row, the first metric's.
    expect(
      decideSave([entry({}, {}, { remove: true })], row({ METRICA1: null, METRICA2: 1 }), context).history,
    ).toMatchObject([{ field: 'METRICA2', action: 'remove', old: '1', new: null }]);
    expect(
      decideSave([entry({}, {}, { remove: true })], row({ METRICA1: null, METRICA2: null }), context).history,
    ).toMatchObject([{ field: 'METRICA1', action: 'remove', old: null, new: null }]);
    expect(
      decideSave([entry({}, { METRICA1: '1.00' }, { remove: true })], row({ METRICA1: '2.00' }), context)
        .conflicts,
    ).toMatchObject([{ theirs: '2.00', yours: null }]);
  });

  it('refuses a read-only or inactive row and a remove without a row, naming the entry', () => {
    expect(() => decideSave([entry({ METRICA1: '1.00' })], row({}, { readOnly: true }), context)).toThrow(
      expect.objectContaining({ code: 'READ_ONLY_ROW', path: 'entries.0' }),
    );
    expect(() => decideSave([entry({ METRICA1: '1.00' })], row({}, { inactive: true }), context)).toThrow(
      expect.objectContaining({ code: 'INACTIVE_ROW' }),
    );
    expect(() => decideSave([entry({}, {}, { remove: true, index: 3 })], new Map(), context)).toThrow(
      expect.objectContaining({ code: 'ENTRY_NOT_FOUND', path: 'entries.3' }),
    );
  });
});
