import type { Config } from '../config';
import type { EmqxApiConfig } from '../brokerAuth/config';
import { DynsecControl } from '../brokerAuth/dynsecControl';
import type { Finding } from './doctor';

const TIMEOUT_MS = 10_000;

/**
 * `npm run doctor` on the broker's gateway accounts: with Mosquitto, that its dynamic security
 * plugin takes Roost's commands as ROOST_DYNSEC_USER; with EMQX, that its API takes Roost's key
 * and that it asks Roost about gateways. A broker refusing here refuses every change the
 * console makes to a gateway, and a revoked gateway would keep its session.
 */
export async function brokerAuthFindings(config: Config): Promise<Finding[]> {
  const { dynsec, emqxSecret, emqxApi } = config.brokerAuth;
  const findings: Finding[] = [];
  if (dynsec) findings.push(await dynsecFinding(dynsec));
  if (emqxApi) findings.push(...(await emqxFindings(emqxApi, emqxSecret !== null)));
  else if (emqxSecret)
    findings.push({
      level: 'warning',
      text: 'EMQX asks Roost about gateways, but Roost cannot end a revoked gateway’s session there',
      fix: 'give ROOST_EMQX_API_URL, ROOST_EMQX_API_KEY and ROOST_EMQX_API_SECRET (an EMQX API key)',
    });
  return findings;
}

async function dynsecFinding(
  dynsec: NonNullable<Config['brokerAuth']['dynsec']>,
): Promise<Finding> {
  const where = new URL(dynsec.url).host;
  let control: DynsecControl;
  try {
    const connecting = DynsecControl.connect(dynsec.url, dynsec.username, dynsec.password);
    control = await withTimeout(connecting, 'Mosquitto did not answer').catch((error: Error) => {
      // A connection that comes after the doctor gave up must not keep it running.
      void connecting.then((late) => late.close()).catch(() => undefined);
      throw error;
    });
  } catch (error) {
    const message = (error as Error).message;
    // Signed in, but not allowed to hear the plugin's answers: not its administrator.
    if (/subscribe/i.test(message)) return notTaken(where, dynsec.username, message);
    const refused = /not authori[sz]ed|bad user|password/i.test(message);
    return {
      level: 'problem',
      text: refused
        ? `Mosquitto at ${where} refuses ROOST_DYNSEC_USER ${dynsec.username}: ${message}`
        : `Mosquitto at ${where} cannot be reached to manage gateway accounts: ${message}`,
      fix: refused
        ? 'give the dynamic security administrator and its password (deploy/mosquitto/init-dynsec.sh made them)'
        : 'check the host and port in MQTT_URL and that Mosquitto runs',
    };
  }
  try {
    await control.run({ command: 'listClients', count: 1, offset: 0 });
    return {
      level: 'ok',
      text: `Mosquitto's dynamic security plugin at ${where} takes Roost's commands as ${dynsec.username}`,
    };
  } catch (error) {
    return notTaken(where, dynsec.username, (error as Error).message);
  } finally {
    await control.close().catch(() => undefined);
  }
}

function notTaken(where: string, username: string, message: string): Finding {
  return {
    level: 'problem',
    text: `Mosquitto at ${where} lets ${username} in but its dynamic security plugin does not take Roost's commands: ${message}`,
    fix: 'load the plugin (plugin … mosquitto_dynamic_security.so) and give its administrator as ROOST_DYNSEC_USER',
  };
}

async function emqxFindings(api: EmqxApiConfig, asksRoost: boolean): Promise<Finding[]> {
  const get = (path: string) =>
    fetch(`${api.url}${path}`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${api.key}:${api.secret}`).toString('base64')}`,
        accept: 'application/json',
      },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  let clients: Response;
  try {
    clients = await get('/api/v5/clients?limit=1');
  } catch (error) {
    return [
      {
        level: 'problem',
        text: `EMQX's API at ${api.url} cannot be reached: ${(error as Error).message}`,
        fix: 'check ROOST_EMQX_API_URL (EMQX listens for its API and dashboard on 18083)',
      },
    ];
  }
  await clients.body?.cancel();
  if (clients.status === 401 || clients.status === 403)
    return [
      {
        level: 'problem',
        text: `EMQX at ${api.url} refuses Roost's API key ${api.key} (${clients.status})`,
        fix: 'make an API key in EMQX’s dashboard (System, API Keys) and give it as ROOST_EMQX_API_KEY and ROOST_EMQX_API_SECRET',
      },
    ];
  if (!clients.ok)
    return [
      {
        level: 'problem',
        text: `EMQX at ${api.url} answered ${clients.status} to its client list`,
        fix: 'give ROOST_EMQX_API_URL as EMQX’s own address (http://host:18083), EMQX 5',
      },
    ];
  const findings: Finding[] = [
    { level: 'ok', text: `EMQX's API at ${api.url} takes Roost's key: revoked sessions are ended` },
  ];
  if (!asksRoost) return findings;
  // EMQX lists its authenticators; Roost's is the HTTP one calling /broker/emqx/authn.
  const chain = await get('/api/v5/authentication').then(
    async (r) => (r.ok ? ((await r.json()) as unknown) : null),
    () => null,
  );
  const asks =
    Array.isArray(chain) &&
    chain.some(
      (a: { backend?: unknown; url?: unknown; enable?: unknown }) =>
        a.backend === 'http' &&
        a.enable !== false &&
        typeof a.url === 'string' &&
        a.url.includes('/broker/emqx/authn'),
    );
  findings.push(
    asks
      ? { level: 'ok', text: 'EMQX asks Roost whether a gateway may connect' }
      : {
          level: 'problem',
          text: 'EMQX has no HTTP authenticator calling Roost’s /broker/emqx/authn: it does not ask Roost about gateways',
          fix: 'add one in EMQX (Access Control, Authentication) as the README’s "Broker accounts kept in sync" says',
        },
  );
  return findings;
}

function withTimeout<T>(promise: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}
