import type { Scope } from '../model/scope.js';
import { HOST_TABLES, type TableNames } from '../model/table-names.js';
import type { SqlExecutor } from '../store/driver.js';
import { insertStatement } from '../store/row-statements.js';
import { execute } from '../store/sql.js';
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
  const nextId = new Map<string, number>();
  const id = (table: string) => {
    const next = (nextId.get(table) ?? 0) + 1;
    nextId.set(table, next);
    return next;
  };
  const { EMPRESA, FILIAL, LOCAL } = scope;
  // A row of one of our tables or of the demo host's: the scope, its ID and the demo's user first.
  const row = (table: string, values: Record<string, unknown>) =>
    insert(db, table, { EMPRESA, FILIAL, LOCAL, ID: id(table), INS_USUARIO_SEQ_DB: DEMO_USER, ...values });

  const unit = await insert(db, HOST_TABLES.UNIDADE_MEDIDA, {
    ...scope,
    CODIGO: 'HA',
    DESCRICAO: 'Hectares',
  });
  const stage = await insert(db, HOST_TABLES.ETAPA, { ...scope, DESCRICAO: 'Soil preparation' });
  const sheet = (date: string, plot: string, people: number, area: string, inScope = scope) =>
    insert(db, HOST_TABLES.FOLHA_TAREFA, {
      ...inScope,
      DATA: date,
      TALHAO: plot,
      QTD_PESSOAS: people,
      AREA_HA: area,
    });
  const taskSheet = await sheet('2026-11-20', 'T-07', 6, '12.50');
  const secondSheet = await sheet('2026-11-21', 'T-12', 4, '8.00');
  const otherScopeTaskSheet = await sheet('2026-11-20', 'X-01', 3, '1.00', {
    ...scope,
    EMPRESA: EMPRESA + 1,
  });

  const sector = (code: string, description: string) =>
    row(DEMO_TABLES.sector, { CODIGO: code, DESCRICAO: description });
  const north = await sector('S-NORTH', 'North field');
  const south = await sector('S-SOUTH', 'South field');

  const group = (code: string, description: string) =>
    row(names.OPER_GRUPO, { CODIGO: code, DESCRICAO: description, ETAPA_SEQ_DB: stage });
  const soil = await group('G-SOIL', 'Soil preparation');
  const planting = await group('G-PLANT', 'Planting');
  const care = await group('G-CARE', 'Crop care');

  const activity = (code: string, description: string, index: string) =>
    row(names.OPER, { CODIGO: code, DESCRICAO: description, UNIDADE_MEDIDA_SEQ_DB: unit, INDICE: index });
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
    await row(DEMO_TABLES.sectorGroups, { SETOR_SEQ_DB: sectorSeq, OPER_GRUPO_SEQ_DB: groupSeq });
  }
  for (const [groupSeq, operSeq] of [
    [soil, disc],
    [soil, subsoil],
    [planting, seeding],
    [planting, fertilising],
    [care, spraying],
    [care, weeding],
  ] as const) {
    await row(names.OPER_OPER_GRUPO, { OPER_GRUPO_SEQ_DB: groupSeq, OPER_SEQ_DB: operSeq });
  }

  // Seeding has saved metrics (the screen shows them instead of the defaults); Fertilising's row is
  // read-only (RO=1): the screen shows it, and saving it is refused.
  const metric = (
    operSeq: number,
    [METRICA1, METRICA2, HORAS]: [string, number, string | null],
    readOnly: boolean,
  ) =>
    row(DEMO_TABLES.metrics, {
      OPER_SEQ_DB: operSeq,
      OPER_GRUPO_SEQ_DB: planting,
      FOLHA_TAREFA_SEQ_DB: taskSheet,
      METRICA1,
      METRICA2,
      HORAS,
      RO: readOnly ? 1 : 0,
    });
  await metric(seeding, ['3.50', 4, null], false);
  await metric(fertilising, ['1.00', 5, '6.0'], true);
  return { taskSheet, taskSheets: [taskSheet, secondSheet], otherScopeTaskSheet };
}

async function insert(db: SqlExecutor, table: string, values: Record<string, unknown>): Promise<number> {
  return (await execute(db, insertStatement(table, values))).insertId;
}
