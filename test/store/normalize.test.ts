import { describe, expect, it } from 'vitest';
import {
  hasOnUpdateCurrentTimestamp,
  normalizeColumnDefault,
  normalizeColumnType,
  normalizeReferentialRule,
} from '../../src/store/normalize.js';

describe('normalizeColumnType: MariaDB / MySQL 5.7 display widths vs MySQL 8', () => {
  it.each([
    ['int(11)', 'int'],
    ['int', 'int'],
    ['int(10) unsigned', 'int unsigned'],
    ['bigint(20) unsigned', 'bigint unsigned'],
    ['bigint unsigned', 'bigint unsigned'],
    ['tinyint(3) unsigned', 'tinyint unsigned'],
    ['tinyint(1)', 'tinyint(1)'],
    ['tinyint(4)', 'tinyint'],
    ['varchar(50)', 'varchar(50)'],
    ['decimal(11,2)', 'decimal(11,2)'],
    ['DECIMAL(10,2)', 'decimal(10,2)'],
  ])('%s → %s', (found, canonical) => {
    expect(normalizeColumnType(found)).toBe(canonical);
  });
});

describe('normalizeColumnDefault', () => {
  it.each([
    ['MariaDB no default', null, 'int', null],
    ['MariaDB NULL default', 'NULL', 'varchar', null],
    ['MariaDB current_timestamp()', 'current_timestamp()', 'timestamp', 'CURRENT_TIMESTAMP'],
    ['MySQL CURRENT_TIMESTAMP', 'CURRENT_TIMESTAMP', 'timestamp', 'CURRENT_TIMESTAMP'],
    ['MariaDB quoted empty string', "''", 'char', "''"],
    ['MySQL unquoted empty string', '', 'char', "''"],
    ['MariaDB quoted text', "'it''s'", 'varchar', "'it''s'"],
    ['MySQL unquoted text', "it's", 'varchar', "'it''s'"],
    ['a number', '1', 'tinyint', '1'],
    ['MariaDB text NULL default', 'NULL', 'text', null],
    ['MySQL text without default', null, 'text', null],
    ['MariaDB mediumtext NOT NULL, no default', null, 'mediumtext', null],
  ] as const)('%s', (_label, found, dataType, canonical) => {
    expect(normalizeColumnDefault(found, dataType)).toBe(canonical);
  });

  // An expression default is restated in parentheses, never as the text of the expression.
  it.each([
    ['MariaDB expression on a text column', 'uuid()', 'varchar', { mariaDb: true }, '(uuid())'],
    ['MariaDB expression on a number', '1 + 1', 'int', { mariaDb: true }, '(1 + 1)'],
    ['MariaDB number literal', '-0.5', 'decimal', { mariaDb: true }, '-0.5'],
    ['MariaDB quoted text', "'abc'", 'varchar', { mariaDb: true }, "'abc'"],
    [
      'MySQL 8 expression, quotes escaped',
      "concat(_utf8mb4\\'a\\')",
      'varchar',
      { extra: 'DEFAULT_GENERATED', mariaDb: false },
      "(concat(_utf8mb4'a'))",
    ],
    ['MySQL 8 text literal', 'uuid()', 'varchar', { extra: '', mariaDb: false }, "'uuid()'"],
    [
      'MySQL 8 CURRENT_TIMESTAMP',
      'CURRENT_TIMESTAMP',
      'timestamp',
      { extra: 'DEFAULT_GENERATED' },
      'CURRENT_TIMESTAMP',
    ],
  ] as const)('%s', (_label, found, dataType, spelling, canonical) => {
    expect(normalizeColumnDefault(found, dataType, spelling)).toBe(canonical);
  });
});

describe('EXTRA and referential rules', () => {
  it('reads on update from either server', () => {
    expect(hasOnUpdateCurrentTimestamp('on update current_timestamp()')).toBe(true);
    expect(hasOnUpdateCurrentTimestamp('DEFAULT_GENERATED on update CURRENT_TIMESTAMP')).toBe(true);
    expect(hasOnUpdateCurrentTimestamp('')).toBe(false);
  });

  it('treats NO ACTION as RESTRICT (InnoDB checks both at once)', () => {
    expect(normalizeReferentialRule('NO ACTION')).toBe('RESTRICT');
    expect(normalizeReferentialRule('restrict')).toBe('RESTRICT');
    expect(normalizeReferentialRule('CASCADE')).toBe('CASCADE');
  });
});
