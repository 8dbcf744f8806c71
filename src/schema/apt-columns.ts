import { timestamp } from 'drizzle-orm/mysql-core';
import { bigintUnsigned } from './bigint-unsigned.js';

/** MO_APT_FKL, MO_APT_FKL_DH, MO_APT_PRODUCAO_FKL, MO_APT_PRODUCAO_FKL_DH: seed 2.2, shared by 2.3. */
export function aptColumns() {
  return {
    MO_APT_FKL: bigintUnsigned('MO_APT_FKL'),
    MO_APT_FKL_DH: timestamp('MO_APT_FKL_DH'),
    MO_APT_PRODUCAO_FKL: bigintUnsigned('MO_APT_PRODUCAO_FKL'),
    MO_APT_PRODUCAO_FKL_DH: timestamp('MO_APT_PRODUCAO_FKL_DH'),
  };
}
