// Public API of src/installer: re-exports only.
export type { Change, ChangeResult } from './change.js';
export { InstallerError } from './errors.js';
export type { Finding } from './findings.js';
export {
  checkInstallFile,
  InstallFile,
  InstallFileError,
  loadInstallFile,
  parseInstallFile,
} from './install-file.js';
export {
  applyInstallation,
  type InstallerOptions,
  type InstallPlan,
  installationTableNames,
  planInstallation,
} from './installer.js';
export { installJsonSchema } from './json-schema.js';
export { LEDGER_TABLE } from './ledger.js';
export { installerLockName } from './lock.js';
export { SCHEMA_SYNC, type SchemaSync } from './schema-sync.js';
export { type InstallationStatus, installationStatus } from './status.js';
export { type UninstallOptions, uninstallInstallation } from './uninstall.js';
export { type Problem, type VerifyResult, verifyInstallation } from './verify.js';
