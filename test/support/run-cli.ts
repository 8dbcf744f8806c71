// The CLI from source, as a child process of a test (`node --import tsx test/support/run-cli.ts ...`):
// for what only a real process can show, such as being killed with SIGKILL in the middle of a run,
// or several `serve` processes side by side. Long-running commands stop on SIGINT or SIGTERM, as
// with bin/task-association.js.
import { runCli } from '../../src/cli/main.js';

const stopSignal = new Promise<void>((resolve) => {
  process.once('SIGINT', () => resolve());
  process.once('SIGTERM', () => resolve());
});

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  stopSignal,
});
process.exit();
