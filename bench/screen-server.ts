// The server's side of the table view and the search (#29), for bench:screen:
// - search on the 110k-node tree: a two-word query as people type it (code and description, in any
//   order, accents and case ignored) through the handler, against a one-word query (what today's
//   single-substring search could be asked) and against a hand-written floor (one query per level
//   with the same conditions, one join for the activities' paths), alternately in the same run;
// - a sheet of 5,000 activities (a second installation): every row of it through part=sheet (pages
//   of 1,000), part=progress, part=previous.
import type { ScratchDatabase } from '../src/store/scratch.js';
import { insertRows, SCOPE_A } from '../test/tree/fixture.js';
import { loadLine, median, spread, timed } from './report.js';
import { buildTreeInstallation, live, names, type TreeInstallation } from './tree-installation.js';

const ROUNDS = 15;

type Handler = (request: Request) => Promise<Response>;

const liveSql = (alias: string) =>
  `${alias}.EMPRESA = ? AND ${alias}.FILIAL = ? AND ${alias}.LOCAL = ? AND IFNULL(${alias}.DELETED, 0) = 0 AND IFNULL(${alias}.ATIVO, 1) = 1`;
const scope = [SCOPE_A.EMPRESA, SCOPE_A.FILIAL, SCOPE_A.LOCAL];

async function answer(handler: Handler, url: string): Promise<unknown> {
  const response = await handler(new Request(url));
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Search figures on the 110k-node tree: returns the lines to print and the key=value figures. */
export async function searchFigures(
  scratch: ScratchDatabase,
  tree: TreeInstallation,
  handler: Handler,
  base: string,
  nodes: number,
): Promise<{ lines: string[]; figures: string }> {
  const { db } = scratch;
  // Activity 4321 as a person types it, description word first, in another case than stored.
  const words = ['ACTIVITY', 'o4321'];
  const multi = `${base}?taskSheet=${tree.sheet}&part=search&q=${encodeURIComponent(words.join(' '))}`;
  const single = `${base}?taskSheet=${tree.sheet}&part=search&q=O4321`;
  const found = (await answer(handler, multi)) as { matches: { path: { label: string }[] }[] };
  const labels = found.matches.map((match) => match.path.at(-1)?.label);
  if (!labels.includes('O4321 — activity 4321'))
    throw new Error(`the search missed O4321: ${labels.join(', ')}`);
  const like = (column: string) => `CONVERT(c.${column} USING utf8mb4) COLLATE utf8mb4_unicode_ci LIKE ?`;
  const patterns = words.map((word) => `%${word}%`);
  const wordsSql = (columns: string[]) =>
    words.map(() => `(${columns.map(like).join(' OR ')})`).join(' AND ');
  const wordParams = (columns: string[]) => patterns.flatMap((pattern) => columns.map(() => pattern));
  // The floor: each level's matches (LIMIT 31, as ours asks for 30 and one more), then one join up
  // from the activities found to their regions. No visibility walk, no labels, no sorting.
  const floor = async () => {
    const levels: [string, string[]][] = [
      ['app_regiao', ['CODIGO']],
      ['app_setor', ['CODIGO']],
      [names.OPER_GRUPO, ['CODIGO', 'DESCRICAO']],
    ];
    await Promise.all(
      levels.map(([table, columns]) =>
        db.pool.query(
          `SELECT c.SEQ_DB, ${columns.map((column) => `c.${column}`).join(', ')} FROM ${table} c WHERE ${liveSql('c')} AND ${wordsSql(columns)} LIMIT 31`,
          [...scope, ...wordParams(columns)],
        ),
      ),
    );
    const [rows] = await db.pool.query(
      `SELECT c.SEQ_DB, c.CODIGO, c.DESCRICAO FROM ${names.OPER} c WHERE ${liveSql('c')} AND ${wordsSql(['CODIGO', 'DESCRICAO'])} LIMIT 31`,
      [...scope, ...wordParams(['CODIGO', 'DESCRICAO'])],
    );
    const ids = (rows as { SEQ_DB: number }[]).map((row) => row.SEQ_DB);
    if (ids.length === 0) throw new Error('the floor found nothing');
    await db.pool.query(
      `SELECT a.OPER_SEQ_DB, g.SEQ_DB AS g, g.CODIGO AS gc, s.SEQ_DB AS s, s.CODIGO AS sc, r.SEQ_DB AS r, r.CODIGO AS rc
         FROM ${names.OPER_OPER_GRUPO} a JOIN ${names.OPER_GRUPO} g ON g.SEQ_DB = a.OPER_GRUPO_SEQ_DB
         JOIN app_setor_n_oper_grupo sl ON sl.OPER_GRUPO_SEQ_DB = g.SEQ_DB JOIN app_setor s ON s.SEQ_DB = sl.SETOR_SEQ_DB
         JOIN app_regiao_n_setor rl ON rl.SETOR_SEQ_DB = s.SEQ_DB JOIN app_regiao r ON r.SEQ_DB = rl.REGIAO_SEQ_DB
        WHERE a.OPER_SEQ_DB IN (${ids.map(() => '?').join(', ')}) AND ${liveSql('a')} AND ${liveSql('g')} AND ${liveSql('sl')} AND ${liveSql('s')} AND ${liveSql('rl')} AND ${liveSql('r')}`,
      [...ids, ...scope, ...scope, ...scope, ...scope, ...scope, ...scope],
    );
  };
  const ours = () => answer(handler, multi);
  const today = () => answer(handler, single);
  await ours();
  await today();
  await floor();
  const oursTimes: number[] = [];
  const todayTimes: number[] = [];
  const floorTimes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    oursTimes.push(await timed(ours));
    todayTimes.push(await timed(today));
    floorTimes.push(await timed(floor));
  }
  return {
    lines: [
      `search on the ${nodes.toLocaleString('en')}-node tree, ${ROUNDS} alternating rounds: "${words.join(' ')}" (two words, ${labels.length} matches) ${spread(oursTimes)} ms; one word "O4321" (as today's search) ${spread(todayTimes)} ms; hand-written floor (same conditions per level, one path join) ${spread(floorTimes)} ms; ${loadLine()}`,
    ],
    figures: `search_ms=${median(oursTimes).toFixed(1)} search_one_word_ms=${median(todayTimes).toFixed(1)} search_floor_ms=${median(floorTimes).toFixed(1)}`,
  };
}

/** The table view's reads on a sheet of 5,000 activities, in a second scratch database. */
export async function sheetFigures(
  scratch: ScratchDatabase,
  handler: (db: ScratchDatabase['db']) => Handler,
  base: string,
): Promise<{ lines: string[]; figures: string }> {
  // 10 regions x 10 sectors x 5 groups x 10 activities = 5,000 activities (every tenth saved).
  const tree = await buildTreeInstallation(scratch, { groupsPerSector: 5 });
  const [previous] = await insertRows(
    scratch.db,
    'app_folha_tarefa',
    [{ ...SCOPE_A, QTD_PESSOAS: 3, DELETED: 0 }],
    { withId: false },
  );
  await insertRows(
    scratch.db,
    names.OPER_GRUPO_METRICA,
    tree.activities.slice(0, 1000).map((activity, index) => ({
      ...live,
      FOLHA_TAREFA_SEQ_DB: previous,
      OPER_SEQ_DB: activity,
      OPER_GRUPO_SEQ_DB: tree.groups[Math.floor(index / 10)],
      METRICA1: '1.25',
      METRICA2: 2,
    })),
  );
  const handle = handler(scratch.db);
  const url = (part: string) => `${base}?taskSheet=${tree.sheet}&part=${part}`;
  const whole = async () => {
    let rows = 0;
    for (let page = 1; page <= 5; page++) {
      const answered = (await answer(handle, url(`sheet&size=1000&page=${page}`))) as { rows: unknown[] };
      rows += answered.rows.length;
    }
    if (rows !== tree.activities.length) throw new Error(`the sheet's pages gave ${rows} rows`);
  };
  const progress = () => answer(handle, url('progress'));
  const copy = () => answer(handle, url(`previous&from=${previous}`));
  const bytes = JSON.stringify(await answer(handle, url('sheet&size=1000'))).length;
  await whole();
  const sheetTimes: number[] = [];
  const pageTimes: number[] = [];
  const progressTimes: number[] = [];
  const copyTimes: number[] = [];
  for (let round = 0; round < 7; round++) {
    sheetTimes.push(await timed(whole));
    pageTimes.push(await timed(() => answer(handle, url('sheet&size=1000&page=3'))));
    progressTimes.push(await timed(progress));
    copyTimes.push(await timed(copy));
  }
  return {
    lines: [
      `${tree.summary.replace('installation:', 'table view on')}: the whole sheet (${tree.activities.length.toLocaleString('en')} rows) as 5 pages of 1,000 ${spread(sheetTimes, 0)} ms, one page ${spread(pageTimes, 0)} ms (${(bytes / 1024).toFixed(0)} KB of JSON); part=progress ${spread(progressTimes, 0)} ms; part=previous (1,000 saved rows to copy) ${spread(copyTimes, 0)} ms; ${loadLine()}`,
    ],
    figures: `sheet_5000_ms=${median(sheetTimes).toFixed(0)} sheet_page_1000_ms=${median(pageTimes).toFixed(0)} progress_5000_ms=${median(progressTimes).toFixed(0)} previous_5000_ms=${median(copyTimes).toFixed(0)}`,
  };
}
