import { connect } from 'node:net';

/**
 * Resolves once something accepts TCP connections on 127.0.0.1:`port`: a broker or proxy a
 * test started has opened its port. The services' own start-up tells nothing else reliably.
 */
export async function listening(port: number, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`nothing listens on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
