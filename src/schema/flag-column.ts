import { customType } from 'drizzle-orm/mysql-core';

/**
 * A `tinyint(1)` flag (ATIVO, DELETED, RO), read and written as the number 0 or 1.
 *
 * Not drizzle's `boolean()`: the host and our raw-SQL resolvers see 0/1 from the driver, so a
 * `boolean` row type would lie about what a plain query returns; and drizzle's `tinyint()` has no
 * display width, while the customer's layout asks for exactly `tinyint(1)`.
 */
export const flag = customType<{ data: number; driverData: number }>({
  dataType() {
    return 'tinyint(1)';
  },
});
