import { type Identifier, parseIdentifier, quoteIdentifier } from '../model/identifier.js';
import type { Scope } from '../model/scope.js';
import { HOST_TABLES, type TableNames } from '../model/table-names.js';
import type { SqlExecutor } from '../store/driver.js';
import { DEMO_TABLES } from './demo-install.js';

/** What the demo's sample data is made of, so the demo can print and look it up. */
export interface SampleData {
  /** The first of `taskSheets`: the one the demo prints. */
  readonly taskSheet: number;
  /** The task sheets of the demo's scope, in order. */
  readonly taskSheets: readonly number[];
  readonly otherScopeTaskSheet: number;
}

const DEMO_USER = 1;

/**
 * Fills a freshly installed demo database with a small farm: two sectors, three activity groups,
 * six activities, two task sheets, and on the first one a saved metric row and a read-only one;
 * plus a task sheet of another scope that the demo's scope must never see. Host tables are written
 * here only because the demo's database is a scratch one we created.
 */
export async function insertSampleData(
  db: SqlExecutor,
  scope: Scope,
  names: TableNames,
): Promise<SampleData> {
  const { EMPRESA, FILIAL, LOCAL } = scope;
  const host = (name: string) => quoteIdentifier(parseIdentifier(name, 'host table'));
  const ours = (name: Identifier) => quoteIdentifier(name);
  const nextId = new Map<string, number>();
  const id = (table: string) => {
    const next = (nextId.get(table) ?? 0) + 1;
    nextId.set(table, next);
    return next;
  };

  const unit = await insert(
    db,
    `INSERT INTO ${host(HOST_TABLES.UNIDADE_MEDIDA)} (EMPRESA, FILIAL, LOCAL, CODIGO, DESCRICAO) VALUES (?, ?, ?, 'HA', 'Hectares')`,
    [EMPRESA, FILIAL, LOCAL],
  );
  const stage = await insert(
    db,
    `INSERT INTO ${host(HOST_TABLES.ETAPA)} (EMPRESA, FILIAL, LOCAL, DESCRICAO) VALUES (?, ?, ?, 'Soil preparation')`,
    [EMPRESA, FILIAL, LOCAL],
  );
  const sheet = (date: string, plot: string, people: number, area: string, inScope = scope) =>
    insert(
      db,
      `INSERT INTO ${host(HOST_TABLES.FOLHA_TAREFA)} (EMPRESA, FILIAL, LOCAL, DATA, TALHAO, QTD_PESSOAS, AREA_HA) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [inScope.EMPRESA, inScope.FILIAL, inScope.LOCAL, date, plot, people, area],
    );
  const taskSheet = await sheet('2026-11-20', 'T-07', 6, '12.50');
  const secondSheet = await sheet('2026-11-21', 'T-12', 4, '8.00');
  const otherScopeTaskSheet = await sheet('2026-11-20', 'X-01', 3, '1.00', {
    ...scope,
    EMPRESA: EMPRESA + 1,
  });

  const common = '(EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, CODIGO, DESCRICAO';
  const sector = (code: string, description: string) =>
    insert(db, `INSERT INTO ${host(DEMO_TABLES.sector)} ${common}) VALUES (?, ?, ?, ?, ?, ?, ?)`, [
      EMPRESA,
      FILIAL,
      LOCAL,
      id(DEMO_TABLES.sector),
      DEMO_USER,
      code,
      description,
    ]);
  const north = await sector('S-NORTH', 'North field');
  const south = await sector('S-SOUTH', 'South field');

  const group = (code: string, description: string) =>
    insert(
      db,
      `INSERT INTO ${ours(names.OPER_GRUPO)} ${common}, ETAPA_SEQ_DB) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [EMPRESA, FILIAL, LOCAL, id(names.OPER_GRUPO), DEMO_USER, code, description, stage],
    );
  const soil = await group('G-SOIL', 'Soil preparation');
  const planting = await group('G-PLANT', 'Planting');
  const care = await group('G-CARE', 'Crop care');

  const activity = (code: string, description: string, index: string) =>
    insert(
      db,
      `INSERT INTO ${ours(names.OPER)} ${common}, UNIDADE_MEDIDA_SEQ_DB, INDICE) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [EMPRESA, FILIAL, LOCAL, id(names.OPER), DEMO_USER, code, description, unit, index],
    );
  const disc = await activity('A-DISC', 'Disc ploughing', '1.25');
  const subsoil = await activity('A-SUBSOIL', 'Subsoiling', '0.80');
  const seeding = await activity('A-SEED', 'Seeding', '2.00');
  const fertilising = await activity('A-FERT', 'Fertilising', '1.10');
  const spraying = await activity('A-SPRAY', 'Spraying', '0.60');
  const weeding = await activity('A-WEED', 'Weeding', '0.40');

  for (const [sectorSeq, groupSeq] of [
    [north, soil],
    [north, planting],
    [south, planting],
    [south, care],
  ] as const) {
    await insert(
      db,
      `INSERT INTO ${host(DEMO_TABLES.sectorGroups)} (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, SETOR_SEQ_DB, OPER_GRUPO_SEQ_DB) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [EMPRESA, FILIAL, LOCAL, id(DEMO_TABLES.sectorGroups), DEMO_USER, sectorSeq, groupSeq],
    );
  }
  for (const [groupSeq, operSeq] of [
    [soil, disc],
    [soil, subsoil],
    [planting, seeding],
    [planting, fertilising],
    [care, spraying],
    [care, weeding],
  ] as const) {
    await insert(
      db,
      `INSERT INTO ${ours(names.OPER_OPER_GRUPO)} (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, OPER_GRUPO_SEQ_DB, OPER_SEQ_DB) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [EMPRESA, FILIAL, LOCAL, id(names.OPER_OPER_GRUPO), DEMO_USER, groupSeq, operSeq],
    );
  }

  // Seeding has saved metrics (the screen shows them instead of the defaults); Fertilising's row is
  // read-only (RO=1): the screen shows it, and saving it is refused.
  const metric = (operSeq: number, values: [string, number, string | null], readOnly: boolean) =>
    insert(
      db,
      `INSERT INTO ${host(DEMO_TABLES.metrics)} (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB, FOLHA_TAREFA_SEQ_DB, METRICA1, METRICA2, HORAS, RO) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        EMPRESA,
        FILIAL,
        LOCAL,
        id(DEMO_TABLES.metrics),
        DEMO_USER,
        operSeq,
        planting,
        taskSheet,
        ...values,
        readOnly ? 1 : 0,
      ],
    );
  await metric(seeding, ['3.50', 4, null], false);
  await metric(fertilising, ['1.00', 5, '6.0'], true);
  return { taskSheet, taskSheets: [taskSheet, secondSheet], otherScopeTaskSheet };
}

async function insert(db: SqlExecutor, sql: string, params: readonly unknown[]): Promise<number> {
  return (await db.execute(sql, params)).insertId;
}
