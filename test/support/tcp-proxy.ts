import { createConnection, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy in front of the database that a test can partition: while partitioned, nothing
 * crosses it in either direction (bytes are dropped, as a network that lost its route drops
 * packets) and new connections get no handshake. A client that gives up and closes its socket
 * closes the server side too, so the server sees it go and rolls back its transaction.
 *
 * `partitionWhen` partitions the moment a client sends bytes matching it (dropped with the rest),
 * to cut a transaction between two of its statements; `partitionAfter` lets those bytes reach the
 * server and partitions before its answer, to lose the answer of a statement the server ran.
 */
export interface TcpProxy {
  readonly port: number;
  partition(): void;
  partitionWhen(match: (sent: string) => boolean): void;
  partitionAfter(match: (sent: string) => boolean): void;
  /** Resets every open connection the moment a client sends bytes matching `match` (a server gone). */
  resetWhen(match: (sent: string) => boolean): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let partitioned = false;
  let trigger: ((sent: string) => boolean) | undefined;
  let after: ((sent: string) => boolean) | undefined;
  let reset: ((sent: string) => boolean) | undefined;
  const sockets = new Set<Socket>();
  const waiting: (() => void)[] = [];
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    const connect = () => {
      if (client.destroyed) return;
      const upstream = createConnection(target);
      sockets.add(upstream);
      upstream.on('close', () => {
        sockets.delete(upstream);
        client.destroy();
      });
      client.on('close', () => upstream.destroy());
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('data', (chunk: Buffer) => {
        if (reset?.(chunk.toString('latin1'))) {
          reset = undefined;
          for (const socket of sockets) socket.resetAndDestroy();
          return;
        }
        if (trigger?.(chunk.toString('latin1'))) {
          trigger = undefined;
          partitioned = true;
        }
        if (!partitioned && after?.(chunk.toString('latin1'))) {
          after = undefined;
          upstream.write(chunk);
          partitioned = true;
          return;
        }
        if (!partitioned) upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => {
        if (!partitioned) client.write(chunk);
      });
    };
    client.on('error', () => undefined);
    // A connection opened during a partition is held until it heals (or its client gives up).
    if (partitioned) waiting.push(connect);
    else connect();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    port: address.port,
    partition: () => {
      partitioned = true;
    },
    partitionWhen: (match) => {
      trigger = match;
    },
    partitionAfter: (match) => {
      after = match;
    },
    resetWhen: (match) => {
      reset = match;
    },
    heal: () => {
      partitioned = false;
      for (const connect of waiting.splice(0)) connect();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
