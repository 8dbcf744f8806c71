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
