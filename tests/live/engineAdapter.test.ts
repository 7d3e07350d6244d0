import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { io, type Socket } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linkBacklog } from '../../server/live/engineAdapter';
import { tcpOf } from '../helpers/adapters/clientTcp';

/**
 * The live hub's one reach into engine.io's private state, on a real socket.io server and
 * client: a release of engine.io (or ws) that moves either member fails here.
 */
describe("engine.io's link backlog, read by the adapter", () => {
  let http: HttpServer;
  let server: Server;
  let url: string;
  const clients: Socket[] = [];

  beforeEach(async () => {
    http = createServer();
    server = new Server(http);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.disconnect();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** A client on `transport`, and its socket as the server sees it. */
  async function connect(transport: 'websocket' | 'polling') {
    const accepted = new Promise<ServerSocket>((resolve) => server.once('connection', resolve));
    const client = io(url, { transports: [transport], reconnection: false });
    clients.push(client);
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('connect_error', reject);
    });
    return { client, socket: await accepted };
  }

  it('sees the bytes a WebSocket holds while its reader stops, and none once it reads again', async () => {
    const { client, socket } = await connect('websocket');
    expect(socket.conn.transport.name).toBe('websocket');
    expect(linkBacklog(socket)).toEqual({ bufferedBytes: 0, queuedPackets: 0 });

    // A browser that stops reading: the kernel's buffers fill, then the WebSocket's.
    tcpOf(client).pause();
    const chunk = 'x'.repeat(256 * 1024);
    let received = 0;
    client.on('chunk', () => (received += 1));
    for (let sent = 0; sent < 400 && !(linkBacklog(socket)?.bufferedBytes ?? 0); sent += 1) {
      socket.emit('chunk', chunk);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const held = linkBacklog(socket);
    expect(held?.bufferedBytes).toBeGreaterThan(0);

    tcpOf(client).resume();
    await expect
      .poll(() => linkBacklog(socket), { timeout: 20_000 })
      .toEqual({
        bufferedBytes: 0,
        queuedPackets: 0,
      });
    expect(received).toBeGreaterThan(0);
  });

  it('sees the packets waiting for a long-poll that has not come back yet', async () => {
    const { socket } = await connect('polling');
    expect(socket.conn.transport.name).toBe('polling');
    // Held while the client's poll is out is sent at once; what comes after waits for the next.
    await expect
      .poll(() => {
        socket.emit('tick', 1);
        return linkBacklog(socket)?.queuedPackets ?? -1;
      })
      .toBeGreaterThan(0);
    expect(linkBacklog(socket)?.bufferedBytes).toBe(0);
  });
});
