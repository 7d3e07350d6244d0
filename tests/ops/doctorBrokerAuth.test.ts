import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor, type Finding } from '../../server/ops/doctor';
import {
  DYNSEC_ADMIN,
  ROOST_USER,
  startDynsecMosquitto,
  type DynsecMosquitto,
} from '../brokerAuth/dynsecMosquitto';

/*
 * `npm run doctor` on the broker's gateway accounts: a Mosquitto of the test's own with Debian's
 * dynamic security plugin, and a loopback stand-in for EMQX's REST API (v5) as it documents it
 * (API key in HTTP basic, `GET /api/v5/clients`, `GET /api/v5/authentication`).
 */

const KEY = 'doctor-key';
const SECRET = 'doctor-secret-0123456789';

const problems = (findings: Finding[]) =>
  findings.filter((f) => f.level === 'problem').map((f) => `${f.text} → ${f.fix ?? ''}`);
const oks = (findings: Finding[]) => findings.filter((f) => f.level === 'ok').map((f) => f.text);

describe('npm run doctor checks broker authentication', () => {
  let mosquitto: DynsecMosquitto;
  let emqx: Server;
  let emqxUrl: string;
  /** What the stand-in lists as EMQX's authenticators. */
  let authenticators: unknown[] = [];
  let base: NodeJS.ProcessEnv;

  beforeAll(async () => {
    mosquitto = await startDynsecMosquitto();
    emqx = createServer((req, res) => {
      const expected = `Basic ${Buffer.from(`${KEY}:${SECRET}`).toString('base64')}`;
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 'BAD_API_KEY_OR_SECRET' }));
        return;
      }
      const path = new URL(req.url!, 'http://x').pathname;
      const body =
        path === '/api/v5/clients'
          ? { data: [], meta: { count: 0, limit: 1, page: 1 } }
          : path === '/api/v5/authentication'
            ? authenticators
            : null;
      res.writeHead(body === null ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body ?? { code: 'NOT_FOUND' }));
    });
    await new Promise<void>((resolve) => emqx.listen(0, '127.0.0.1', () => resolve()));
    const address = emqx.address();
    emqxUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    base = {
      DATA_DIR: 'memory://',
      MQTT_URL: mosquitto.roostUrl,
      ROOST_PUBLIC_URL: 'https://roost.example.com',
    };
  }, 60_000);
  afterAll(async () => {
    await mosquitto?.stop();
    await new Promise((r) => emqx?.close(r));
  });

  it("finds Mosquitto's dynamic security taking Roost's commands", async () => {
    const findings = await runDoctor({
      ...base,
      ROOST_DYNSEC_USER: DYNSEC_ADMIN.username,
      ROOST_DYNSEC_PASSWORD: DYNSEC_ADMIN.password,
    });
    expect(problems(findings)).toEqual([]);
    expect(oks(findings)).toContainEqual(expect.stringContaining('dynamic security plugin'));
  });

  it('finds a Mosquitto refusing the dynamic security administrator', async () => {
    const findings = await runDoctor({
      ...base,
      ROOST_DYNSEC_USER: DYNSEC_ADMIN.username,
      ROOST_DYNSEC_PASSWORD: 'not-its-password',
    });
    expect(problems(findings)).toEqual([
      expect.stringContaining(`refuses ROOST_DYNSEC_USER ${DYNSEC_ADMIN.username}`),
    ]);
  });

  it('finds a user the plugin does not take commands from', async () => {
    // Roost's own ingest user gets in, but may not command the plugin: no answer comes.
    const findings = await runDoctor({
      ...base,
      ROOST_DYNSEC_USER: ROOST_USER.username,
      ROOST_DYNSEC_PASSWORD: ROOST_USER.password,
    });
    expect(problems(findings)).toEqual([
      expect.stringContaining('its dynamic security plugin does not take Roost'),
    ]);
  }, 30_000);

  it("finds EMQX refusing Roost's API key, and EMQX not asking Roost", async () => {
    const emqxEnv = {
      ...base,
      ROOST_EMQX_SECRET: 'emqx-shared-secret-0123456789',
      ROOST_EMQX_API_URL: emqxUrl,
      ROOST_EMQX_API_KEY: KEY,
    };
    expect(problems(await runDoctor({ ...emqxEnv, ROOST_EMQX_API_SECRET: 'wrong' }))).toEqual([
      expect.stringContaining(`refuses Roost's API key ${KEY} (401)`),
    ]);
    authenticators = [{ backend: 'built_in_database', mechanism: 'password_based' }];
    expect(problems(await runDoctor({ ...emqxEnv, ROOST_EMQX_API_SECRET: SECRET }))).toEqual([
      expect.stringContaining('no HTTP authenticator calling Roost'),
    ]);
    authenticators = [
      {
        backend: 'http',
        mechanism: 'password_based',
        enable: true,
        url: 'https://roost.example.com/broker/emqx/authn',
      },
      { backend: 'built_in_database', mechanism: 'password_based' },
    ];
    const good = await runDoctor({ ...emqxEnv, ROOST_EMQX_API_SECRET: SECRET });
    expect(problems(good)).toEqual([]);
    expect(oks(good)).toContainEqual('EMQX asks Roost whether a gateway may connect');
  });

  it('warns when EMQX asks Roost but Roost cannot end sessions there', async () => {
    const findings = await runDoctor({
      ...base,
      ROOST_EMQX_SECRET: 'emqx-shared-secret-0123456789',
    });
    expect(findings).toContainEqual(
      expect.objectContaining({ level: 'warning', text: expect.stringContaining('cannot end') }),
    );
  });
});
