import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The first port of the kernel's ephemeral range, where it picks the local end of every outgoing
 * connection and the port of a `listen(0)`; 32768 where it cannot be read (Linux's default).
 */
function ephemeralStart(): number {
  try {
    const start = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    return Number.isInteger(start) && start > 2048 ? start : 32_768;
  } catch {
    return 32_768;
  }
}

const LAST = ephemeralStart() - 1;
const FIRST = Math.max(1024, Math.floor(LAST / 2));
/** Ports this process has handed out: never twice, whatever became of them. */
const given = new Set<number>();

/** Whether a server can listen on `port` of the loopback interface now. */
async function bindable(port: number): Promise<boolean> {
  const probe = createServer();
  probe.on('error', () => {});
  try {
    probe.listen(port, '127.0.0.1');
    await once(probe, 'listening');
  } catch {
    return false;
  }
  probe.close();
  await once(probe, 'close');
  return true;
}

/**
 * A free port on the loopback interface, for a server of a test's own to listen on. Taken below the
 * kernel's ephemeral range, never from it: a port the kernel handed out (`listen(0)`) and let go is
 * soon the local end of some connection, and a server binding it seconds later failed "Address
 * already in use" (a Galera node's IST listener, opened only when the node joins, in a CI run).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const port = FIRST + Math.floor(Math.random() * (LAST - FIRST + 1));
    if (given.has(port) || !(await bindable(port))) continue;
    given.add(port);
    return port;
  }
  throw new Error(`no free TCP port from ${FIRST} to ${LAST} after 500 tries`);
}
