import { HOST_TABLES } from '../model/table-names.js';
import { seqDbReference } from './seq-db-reference.js';

/**
 * The host's tables our foreign keys point at (seed 2.2 to 2.5), known only by SEQ_DB. Referenced,
 * never created or altered, and never exported to drizzle-kit.
 */
export const hostTables = {
  FOLHA_TAREFA: seqDbReference(HOST_TABLES.FOLHA_TAREFA),
  UNIDADE_MEDIDA: seqDbReference(HOST_TABLES.UNIDADE_MEDIDA),
  ETAPA: seqDbReference(HOST_TABLES.ETAPA),
};
