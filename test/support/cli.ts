import type { CliIo } from '../../src/cli/io.js';

/** An in-process CLI environment that records stdout and stderr. */
export function captureIo(options: { stdin?: string; env?: Record<string, string | undefined> } = {}) {
  let out = '';
  let err = '';
  const io: CliIo & { out(): string; err(): string } = {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    stdin: (async function* () {
      if (options.stdin !== undefined) yield options.stdin;
    })(),
    env: { ...process.env, ...options.env },
    out: () => out,
    err: () => err,
  };
  return io;
}
