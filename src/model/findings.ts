import type { Issue } from './issues.js';

/**
 * Something the installer noticed while reading the host. `error` blocks apply (reported before any
 * write); `info` is shown and does not (a column the host lacks, a row made by hand and left alone).
 */
export interface Finding extends Issue {
  /** `error` blocks apply; `info` is said and does not. */
  readonly level: 'error' | 'info';
}

export function errorsOf(findings: readonly Finding[]): Finding[] {
  return findings.filter((finding) => finding.level === 'error');
}
