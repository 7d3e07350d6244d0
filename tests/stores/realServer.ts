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

/**
 * A fetch whose first answer to a path containing `part` is handed over only on `release()`:
 * two reads of one list cross as they do on a loaded machine, the older answering last.
 */
export function holdingFirst(fetch: typeof globalThis.fetch, part: string) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = 0;
  const holding: typeof globalThis.fetch = async (input, init) => {
    const answer = await fetch(input, init);
    if (String(input).includes(part) && ++asked === 1) await held;
    return answer;
  };
  return { fetch: holding, release, asked: () => asked };
}
