import { createServer, connect, type Socket } from 'node:net';

export interface FaultProxy {
  port: number;
  /** Cuts every open link at once and refuses new ones until `restore`: the database is away. */
  cutOff(): void;
  /** New connections pass again. */
  restore(): void;
  close(): Promise<void>;
}

/**
 * A loopback TCP proxy in front of a database the test controls: it can cut every connection
 * in the middle of whatever is being written and keep the database unreachable for a while,
 * as a failover, a restart or a broken link does.
 */
export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let away = false;
  const server = createServer((client) => {
    if (away) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const s of pair) {
      s.on('close', end);
      s.on('error', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const cut = () => {
    for (const [client, upstream] of [...pairs]) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  };
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    cutOff() {
      away = true;
      cut();
    },
    restore() {
      away = false;
    },
    async close() {
      away = true;
      cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
