/**
 * Something the installer noticed while reading the host. `error` blocks apply (reported before any
 * write); `info` is shown and does not (a column the host lacks, a row made by hand and left alone).
 */
export interface Finding {
  readonly level: 'error' | 'info';
  /** Stable, for scripts and tests: e.g. `HOST_COLUMN_REQUIRED`, `HOST_COLUMN_MISSING`. */
  readonly code: string;
  /** Where: `sys_core_menu.ICON`, `menus.taskSheet.parent`, `ledger.menu:activities`. */
  readonly path: string;
  readonly message: string;
}

export function errorsOf(findings: readonly Finding[]): Finding[] {
  return findings.filter((finding) => finding.level === 'error');
}
