import { HOST_TABLES } from '../model/table-names.js';
import { seqDbReference } from './seq-db-reference.js';

/**
 * The host's tables our foreign keys point at (task sheet, unit of measure, stage), known only by
 * SEQ_DB: the customer describes nothing else of them. Referenced, never created or altered, and never
 * exported to drizzle-kit.
 */
export const hostTables = {
  FOLHA_TAREFA: seqDbReference(HOST_TABLES.FOLHA_TAREFA),
  UNIDADE_MEDIDA: seqDbReference(HOST_TABLES.UNIDADE_MEDIDA),
  ETAPA: seqDbReference(HOST_TABLES.ETAPA),
};
