import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { captureIo } from '../support/cli.js';

describe('the command line', () => {
  it('prints usage and exits 2 without a command', async () => {
    const io = captureIo();
    expect(await runCli([], io)).toBe(2);
    expect(io.err()).toContain('usage: task-association <command>');
    expect(io.out()).toBe('');
  });

  it('prints usage on stdout and exits 0 for --help', async () => {
    const io = captureIo();
    expect(await runCli(['--help'], io)).toBe(0);
    expect(io.out()).toContain('db sync');
  });

  it('refuses an unknown command with exit code 2', async () => {
    const io = captureIo();
    expect(await runCli(['frobnicate'], io)).toBe(2);
    expect(io.err()).toContain('unknown command "frobnicate"');
  });
});

describe('--json on failure', () => {
  it('still prints exactly one JSON document, with the error code and message', async () => {
    const io = captureIo();
    const code = await runCli(
      ['db', 'sync', '--json', '--database-url', 'mysql://root@127.0.0.1:1/test'],
      io,
    );
    expect(code).toBe(1);
    expect(JSON.parse(io.out())).toEqual({
      error: {
        code: 'DATABASE_UNREACHABLE',
        message:
          'cannot reach the database at 127.0.0.1:1 (connection refused): is the server running? (mysql://root@127.0.0.1:1/test)',
      },
    });
  });

  it('prints the usage error as JSON too, with exit code 2', async () => {
    const io = captureIo();
    expect(await runCli(['db', 'sync', '--json', '--bogus'], io)).toBe(2);
    expect(JSON.parse(io.out())).toMatchObject({ error: { code: 'USAGE' } });
  });
});
