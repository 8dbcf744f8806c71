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

  it.each(['db sync', 'validate', 'plan', 'apply', 'verify', 'uninstall', 'status', 'serve', 'demo'])(
    '%s --help prints its usage, one line per option and an example, exit 0',
    async (name) => {
      const io = captureIo();
      // Whatever else is on the line (even a bad option) is ignored: help does nothing else.
      expect(await runCli([...name.split(' '), '--bogus', '--help'], io)).toBe(0);
      const help = io.out();
      expect(help).toMatch(new RegExp(`^usage: task-association ${name} `));
      const options = help
        .slice(help.indexOf('options:\n'), help.indexOf('\nexample:'))
        .split('\n')
        .slice(1, -1);
      expect(options.length).toBeGreaterThan(1);
      for (const line of options) expect(line).toMatch(/^ {2}\S.*\S {2,}\S/);
      // Every option the usage line names has its own help line.
      for (const flag of help.split('\n')[0]?.match(/--[a-z-]+/g) ?? [])
        expect(
          options.some((line) => line.trimStart().startsWith(flag)),
          flag,
        ).toBe(true);
      expect(help).toMatch(new RegExp(`\nexample:\n {2}(CAROULSEL_SECRET=\\S+ )?task-association ${name}`));
      expect(io.err()).toBe('');
    },
  );

  it('help <command> is <command> --help', async () => {
    const io = captureIo();
    expect(await runCli(['help', 'db', 'sync'], io)).toBe(0);
    expect(io.out()).toMatch(/^usage: task-association db sync /);
  });

  it('db --help lists the help of its subcommands', async () => {
    const io = captureIo();
    expect(await runCli(['db', '--help'], io)).toBe(0);
    expect(io.out()).toContain('usage: task-association db sync');
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

  it('names a badly percent-encoded part of the database URL, without its password or a stack trace', async () => {
    const io = captureIo();
    const url = 'mysql://root:pa%ss@127.0.0.1:3306/test';
    // A malformed argument: exit 2, as a malformed --scope or --table-name.
    expect(await runCli(['status', '--json', '--database-url', url], io)).toBe(2);
    expect(JSON.parse(io.out())).toEqual({
      error: {
        code: 'INVALID_DATABASE_URL',
        path: 'password',
        message:
          'database URL mysql://root:***@127.0.0.1:3306/test: its password is badly percent-encoded (a % must start %XX, two hex digits; write a % itself as %25)',
      },
    });
    expect(io.err()).not.toContain('pa%ss');
  });

  it('takes a malformed --database-url as a malformed argument (exit 2), one from $DATABASE_URL as refused (exit 1)', async () => {
    const empty = captureIo();
    expect(await runCli(['status', '--json', '--database-url', ''], empty)).toBe(2);
    expect(JSON.parse(empty.out())).toMatchObject({
      error: { code: 'INVALID_DATABASE_URL', message: 'database URL "" is not a URL' },
    });
    expect(await runCli(['validate', '--scope', '1/1'], captureIo())).toBe(2);
    const fromEnv = captureIo({ env: { DATABASE_URL: 'not a url' } });
    expect(await runCli(['status'], fromEnv)).toBe(1);
    expect(fromEnv.err()).toContain('database URL "not a url" is not a URL');
  });

  it.each([[['plan', '--install', '--json']], [['plan', '--json', '--install']]])(
    'says which option lacks its value, and what it wants: %j',
    async (argv) => {
      const io = captureIo();
      expect(await runCli(argv, io)).toBe(2);
      expect(io.err()).toMatch(/^task-association plan: --install needs a value \(a file path\)\n/);
    },
  );

  it('prints the usage error as JSON too, with exit code 2', async () => {
    const io = captureIo();
    expect(await runCli(['db', 'sync', '--json', '--bogus'], io)).toBe(2);
    expect(JSON.parse(io.out())).toMatchObject({ error: { code: 'USAGE' } });
  });
});

describe('small conveniences', () => {
  it('--version prints the package version', async () => {
    const io = captureIo();
    expect(await runCli(['--version'], io)).toBe(0);
    expect(io.out()).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('a command group without its subcommand says which subcommands exist', async () => {
    const io = captureIo();
    expect(await runCli(['db'], io)).toBe(2);
    expect(io.err()).toContain('"db" needs a subcommand: sync');
  });

  it('names a mistyped subcommand, and the one it was likely meant to be', async () => {
    const io = captureIo();
    expect(await runCli(['db', 'synch'], io)).toBe(2);
    expect(io.err()).toContain('unknown subcommand synch (did you mean sync?)');
  });

  it("the top-level usage names every command's options as its own usage does", async () => {
    const io = captureIo();
    expect(await runCli(['--help'], io)).toBe(0);
    for (const name of ['db sync', 'plan', 'apply', 'verify', 'uninstall', 'status']) {
      const own = captureIo();
      await runCli([...name.split(' '), '--help'], own);
      const usage = own.out().split('\n')[0]?.replace('usage: task-association ', '') ?? '';
      expect(io.out()).toContain(`  ${name.padEnd(10)} ${usage.slice(name.length + 1)}`);
    }
  });

  it('an install file that cannot be read is a usage error (exit 2), as for validate', async () => {
    const io = captureIo();
    expect(await runCli(['plan', '--install', '/nonexistent/install.json'], io)).toBe(2);
    expect(io.err()).toContain('install file /nonexistent/install.json does not exist');
  });
});
