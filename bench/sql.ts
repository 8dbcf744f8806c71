// Building a statement: our `sql` template (src/store/sql.ts) against Drizzle's `sql` rendered by its
// MySQL dialect, for the shape the tree loader sends (a join filtered by scope, then an IN list) at
// 1, 100, 1000 and 10,000 ids, and a string template with hand-lined parameters as the floor. Run with
// `npm run bench:sql`; the last line has the ratios, drizzle over ours.
import { performance } from 'node:perf_hooks';
import { sql as drizzleSql } from 'drizzle-orm';
import { MySqlDialect } from 'drizzle-orm/mysql-core';
import { Identifier } from '../src/model/identifier.js';
import { liveInScope, sql } from '../src/store/sql.js';
import { loadLine, median, spread } from './report.js';

const ROUNDS = 9;
const SIZES = [1, 100, 1000, 10_000] as const;
const scope = { EMPRESA: 1, FILIAL: 1, LOCAL: 1 };
const [link, parent, child, activities] = [
  'app_oper_n_oper_grupo',
  'OPER_GRUPO_SEQ_DB',
  'OPER_SEQ_DB',
  'app_oper',
].map((name) => Identifier.parse(name)) as [Identifier, Identifier, Identifier, Identifier];
const dialect = new MySqlDialect();

const ours = (ids: readonly number[]) =>
  sql`SELECT c.*, a.${sql.identifier(parent)} AS __ta_parent FROM ${sql.identifier(link)} a JOIN ${sql.identifier(activities)} c ON c.SEQ_DB = a.${sql.identifier(child)} WHERE ${liveInScope('a', scope)} AND ${liveInScope('c', scope)} AND a.${sql.identifier(parent)} IN (${sql.list(ids)})`;

const live = (alias: string) =>
  drizzleSql`${drizzleSql.raw(alias)}.EMPRESA = ${scope.EMPRESA} AND ${drizzleSql.raw(alias)}.FILIAL = ${scope.FILIAL} AND ${drizzleSql.raw(alias)}.LOCAL = ${scope.LOCAL} AND IFNULL(${drizzleSql.raw(alias)}.DELETED, 0) = 0 AND IFNULL(${drizzleSql.raw(alias)}.ATIVO, 1) = 1`;
const drizzle = (ids: readonly number[]) =>
  dialect.sqlToQuery(
    drizzleSql`SELECT c.*, a.${drizzleSql.identifier(parent)} AS __ta_parent FROM ${drizzleSql.identifier(link)} a JOIN ${drizzleSql.identifier(activities)} c ON c.SEQ_DB = a.${drizzleSql.identifier(child)} WHERE ${live('a')} AND ${live('c')} AND a.${drizzleSql.identifier(parent)} IN ${[...ids]}`,
  );

const liveText = (alias: string) =>
  `${alias}.EMPRESA = ? AND ${alias}.FILIAL = ? AND ${alias}.LOCAL = ? AND IFNULL(${alias}.DELETED, 0) = 0 AND IFNULL(${alias}.ATIVO, 1) = 1`;
const strings = (ids: readonly number[]) => ({
  sql: `SELECT c.*, a.\`${parent}\` AS __ta_parent FROM \`${link}\` a JOIN \`${activities}\` c ON c.SEQ_DB = a.\`${child}\` WHERE ${liveText('a')} AND ${liveText('c')} AND a.\`${parent}\` IN (${ids.length === 1 ? '?' : `?${', ?'.repeat(ids.length - 1)}`})`,
  params: [scope.EMPRESA, scope.FILIAL, scope.LOCAL, scope.EMPRESA, scope.FILIAL, scope.LOCAL, ...ids],
});

let sink = 0;
/** Microseconds per statement, over enough builds to take about 20 ms. */
function time(
  build: (ids: readonly number[]) => { sql: string; params: readonly unknown[] },
  ids: readonly number[],
) {
  const builds = Math.max(20, Math.round(2_000_000 / (ids.length + 100)));
  const start = performance.now();
  for (let index = 0; index < builds; index++) sink += build(ids).params.length;
  return ((performance.now() - start) / builds) * 1000;
}

// The three must build the same statement, or the comparison says nothing.
const sample = [3, 5, 8];
for (const other of [drizzle(sample), strings(sample)])
  if (other.sql !== ours(sample).sql || other.params.join() !== ours(sample).params.join())
    throw new Error(`the builders disagree:\n${ours(sample).sql}\n${other.sql}`);

console.log(`start: ${loadLine()}`);
const summary: string[] = [];
for (const size of SIZES) {
  const ids = Array.from({ length: size }, (_, index) => index + 1);
  for (const build of [ours, drizzle, strings]) time(build, ids);
  const times = { ours: [] as number[], drizzle: [] as number[], strings: [] as number[] };
  // Alternating rounds, so no builder gets a quieter machine.
  for (let round = 0; round < ROUNDS; round++) {
    times.ours.push(time(ours, ids));
    times.drizzle.push(time(drizzle, ids));
    times.strings.push(time(strings, ids));
  }
  console.log(
    `${size} ids: ours ${spread(times.ours, 1)} µs, drizzle ${spread(times.drizzle, 1)} µs, hand-lined strings ${spread(times.strings, 1)} µs`,
  );
  summary.push(
    `ids_${size}: drizzle_vs_ours=${(median(times.drizzle) / median(times.ours)).toFixed(1)} ours_vs_strings=${(median(times.ours) / median(times.strings)).toFixed(2)}`,
  );
}
console.log(`end: ${loadLine()} (checksum ${sink})`);
console.log(summary.join(' '));
