import type { SqlExecutor } from '../db/driver.js';
import { type Identifier, parseIdentifier, quoteIdentifier } from '../identifier.js';
import type { Scope } from '../scope.js';
import { HOST_TABLES, type TableNames } from '../table-names.js';

/** What the demo's sample data is made of, so the demo can print and look it up. */
export interface SampleData {
  readonly taskSheet: number;
  readonly otherScopeTaskSheet: number;
}

const DEMO_USER = 1;

/**
 * Fills a freshly installed demo database with a small farm: two stages, three activity groups (one
 * nested), four activities, one task sheet with a saved metric, and a task sheet of another scope
 * that the demo's scope must never see. Host tables are written here only because the demo's
 * database is a scratch one we created.
 */
export async function insertSampleData(
  db: SqlExecutor,
  scope: Scope,
  names: TableNames,
): Promise<SampleData> {
  const { EMPRESA, FILIAL, LOCAL } = scope;
  const host = (name: string) => quoteIdentifier(parseIdentifier(name, 'host table'));
  const ours = (name: Identifier) => quoteIdentifier(name);

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
  const taskSheet = await insert(
    db,
    `INSERT INTO ${host(HOST_TABLES.FOLHA_TAREFA)} (EMPRESA, FILIAL, LOCAL, DATA, TALHAO, QTD_PESSOAS, AREA_HA) VALUES (?, ?, ?, '2026-11-20', 'T-07', 6, 12.50)`,
    [EMPRESA, FILIAL, LOCAL],
  );
  const otherScopeTaskSheet = await insert(
    db,
    `INSERT INTO ${host(HOST_TABLES.FOLHA_TAREFA)} (EMPRESA, FILIAL, LOCAL, DATA, TALHAO, QTD_PESSOAS) VALUES (?, ?, ?, '2026-11-20', 'X-01', 3)`,
    [EMPRESA + 1, FILIAL, LOCAL],
  );

  const common = '(EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, CODIGO, DESCRICAO';
  const group = (id: number, code: string, description: string, parent: number | null) =>
    insert(
      db,
      `INSERT INTO ${ours(names.OPER_GRUPO)} ${common}, OPER_GRUPO_SEQ_DB, ETAPA_SEQ_DB) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [EMPRESA, FILIAL, LOCAL, id, DEMO_USER, code, description, parent, stage],
    );
  const soil = await group(1, 'G-SOIL', 'Soil preparation', null);
  const ploughing = await group(2, 'G-PLOUGH', 'Ploughing', soil);
  const planting = await group(3, 'G-PLANT', 'Planting', null);

  const activity = (id: number, code: string, description: string, index: string) =>
    insert(
      db,
      `INSERT INTO ${ours(names.OPER)} ${common}, UNIDADE_MEDIDA_SEQ_DB, INDICE) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [EMPRESA, FILIAL, LOCAL, id, DEMO_USER, code, description, unit, index],
    );
  const disc = await activity(1, 'A-DISC', 'Disc ploughing', '1.25');
  const subsoil = await activity(2, 'A-SUBSOIL', 'Subsoiling', '0.80');
  const seeding = await activity(3, 'A-SEED', 'Seeding', '2.00');
  const fertilising = await activity(4, 'A-FERT', 'Fertilising', '1.10');

  const links: Array<[number, number]> = [
    [soil, subsoil],
    [ploughing, disc],
    [planting, seeding],
    [planting, fertilising],
  ];
  let linkId = 0;
  for (const [groupSeq, operSeq] of links) {
    linkId += 1;
    await insert(
      db,
      `INSERT INTO ${ours(names.OPER_OPER_GRUPO)} (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, OPER_GRUPO_SEQ_DB, OPER_SEQ_DB) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [EMPRESA, FILIAL, LOCAL, linkId, DEMO_USER, groupSeq, operSeq],
    );
  }

  // One metric already saved: the tree shows it instead of the default.
  await insert(
    db,
    `INSERT INTO ${ours(names.OPER_GRUPO_METRICA)} (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB, FOLHA_TAREFA_SEQ_DB, METRICA1, METRICA2) VALUES (?, ?, ?, 1, ?, ?, ?, ?, '3.50', 4)`,
    [EMPRESA, FILIAL, LOCAL, DEMO_USER, seeding, planting, taskSheet],
  );
  return { taskSheet, otherScopeTaskSheet };
}

async function insert(db: SqlExecutor, sql: string, params: readonly unknown[]): Promise<number> {
  return (await db.execute(sql, params)).insertId;
}
