import { once } from 'node:events';
import { createServer } from 'node:net';

/** A free port on the loopback interface, for a server of a test's own to listen on. */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return address.port;
}
