import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { createTestStores } from './fakeApi';

/**
 * A fetch that sends the API client's `/api/...` requests to a listening server, over real
 * HTTP: what the stores parse is exactly what the server put on the wire.
 */
export async function fetchTo(app: FastifyInstance): Promise<typeof globalThis.fetch> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return (input, init) => globalThis.fetch(new URL(String(input), base), init);
}

/** A RootStore signed in with `token`, talking to the server behind `fetch`. */
export function storesOn(fetch: typeof globalThis.fetch, token = 'none') {
  return createTestStores({}, { fetch, cookies: { 'Admin-Token': token, 'Admin-UserId': '1' } });
}
