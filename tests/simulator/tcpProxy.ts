import { createServer, connect, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Stops passing the broker's replies (PUBACKs) to the clients: their messages stay unacknowledged. */
  holdReplies(): void;
  /** Cuts every link at once, as a failing network does; new connections pass again. */
  cut(): void;
  close(): Promise<void>;
}

/** A loopback TCP proxy for fault tests (toxiproxy cannot be installed here). */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let holding = false;
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.on('data', (data) => upstream.write(data));
    upstream.on('data', (data) => {
      if (!holding) client.write(data);
    });
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const cut = () => {
    for (const [client, upstream] of [...pairs]) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
    holding = false;
  };
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    holdReplies() {
      holding = true;
    },
    cut,
    async close() {
      cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
