import { timestamp } from 'drizzle-orm/mysql-core';
import { bigintUnsigned } from './bigint-unsigned.js';

/**
 * MO_APT_FKL, MO_APT_FKL_DH, MO_APT_PRODUCAO_FKL, MO_APT_PRODUCAO_FKL_DH: host columns the customer's
 * layout puts on both the activity and the group table, all nullable; the package only creates them.
 */
export function aptColumns() {
  return {
    MO_APT_FKL: bigintUnsigned('MO_APT_FKL'),
    MO_APT_FKL_DH: timestamp('MO_APT_FKL_DH'),
    MO_APT_PRODUCAO_FKL: bigintUnsigned('MO_APT_PRODUCAO_FKL'),
    MO_APT_PRODUCAO_FKL_DH: timestamp('MO_APT_PRODUCAO_FKL_DH'),
  };
}
