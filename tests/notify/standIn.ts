import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Alarm } from '../../src/contract/alarms';
import type { Notification, TryResult } from '../../server/alarms/channels';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A provider's API on loopback: it records each request and answers with what `answer` says
 * (the test plays the provider's documented success and error bodies).
 */
export async function standIn(answer: (r: Received, res: ServerResponse) => void | Promise<void>) {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const r = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      got.push(r);
      void answer(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    got,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export const ALARM: Alarm = {
  id: 41,
  houseId: 3,
  houseName: 'House 3',
  farmId: 2,
  farmName: 'Weifang Broiler Farm',
  cause: 'temperatureHigh',
  severity: 'critical',
  subject: 'temperature',
  value: 35.2,
  limit: 32,
  text: null,
  state: 'active',
  raisedAt: '2025-01-10T07:00:00.000Z',
  acknowledgedAt: null,
  acknowledgedBy: null,
  ackComment: null,
  clearedAt: null,
  clearedBy: null,
  occurrences: 1,
};

export const NOTE: Notification = {
  alarm: ALARM,
  phone: '13800000001',
  channel: 'sms',
  sequence: 1,
  at: '2025-01-10T07:00:00.000Z',
  link: 'https://roost.example/ack/41.7.1736500000.sig',
};

/** Collects the tries an adapter reports, as the dispatcher would store them. */
export function tries() {
  const list: Array<[number, boolean, string]> = [];
  return {
    list,
    onTry: async (n: number, r: TryResult) => {
      list.push([n, r.ok, r.detail]);
    },
  };
}

export const noSleep = async () => undefined;
