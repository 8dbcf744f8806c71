import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli } from '../../src/cli/main.js';
import { type Demo, startDemo } from '../../src/demo/start-demo.js';
import { createAssociationHandler } from '../../src/http/association-handler.js';
import { captureIo } from './cli.js';
import { SERVER_URL } from './database.js';

/**
 * The demo (`npm start`'s) in a scratch database of its own, its installer run in process, on a
 * free port; the caller closes it. Fails with the installer's stderr when it does not start.
 */
export async function startTestDemo(): Promise<Demo> {
  const io = captureIo();
  const started = await startDemo({
    serverUrl: SERVER_URL,
    port: 0,
    say: () => {},
    runInstaller: async (args) => ({ code: await runCli(args, io), stdout: '' }),
  });
  if (started === undefined) throw new Error(`the demo did not start:\n${io.err()}`);
  return started;
}

/**
 * The demo's association handler with the person as a cookie, `user=<id>` (`fallbackUser`
 * without one), so that two people can use one sheet and the screen can say who changed what.
 */
export function cookieUserHandler(
  demo: Demo,
  fallbackUser: number,
): ReturnType<typeof createAssociationHandler> {
  return createAssociationHandler({
    db: demo.scratch.db,
    context: async (request) => ({
      scope: demo.install.scope,
      user: Number(/(?:^|;\s*)user=(\d+)/.exec(request.headers.get('cookie') ?? '')?.[1] ?? fallbackUser),
    }),
  });
}

/** Serves `listener` on 127.0.0.1 at a free port: its origin, and how to stop it. */
export async function listen(listener: RequestListener): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
