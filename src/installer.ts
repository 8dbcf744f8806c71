// Public API of src/installer: re-exports only.
export type { Change, ChangeResult } from './installer/change.js';
export {
  checkInstallFile,
  InstallFile,
  InstallFileError,
  loadInstallFile,
  parseInstallFile,
} from './installer/install-file.js';
export {
  applyInstallation,
  type InstallerOptions,
  type InstallPlan,
  planInstallation,
} from './installer/installer.js';
export { installJsonSchema } from './installer/json-schema.js';
export { type InstallationStatus, installationStatus } from './installer/status.js';
export { type UninstallOptions, uninstallInstallation } from './installer/uninstall.js';
export { type Problem, type VerifyResult, verifyInstallation } from './installer/verify.js';
export type { Finding } from './model/findings.js';
export { InstallerError } from './model/installer-errors.js';
