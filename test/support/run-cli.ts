// The CLI from source, as a child process of a test (`node --import tsx test/support/run-cli.ts ...`):
// for what only a real process can show, such as being killed with SIGKILL or interrupted with
// SIGINT in the middle of a run, or several `serve` processes side by side. Signals are taken as
// bin/task-association.js takes them.
import { runCliProcess } from '../../src/cli/main.js';

await runCliProcess();
