import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { createSecureContext } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import mqtt from 'mqtt';
import pg from 'pg';
import { ConfigError, readConfig, type Config } from '../config';
import { migrationState } from '../db/migrationState';
import { secretBoxFrom } from '../devices/secrets';
import { brokerAuthFindings } from './doctorBrokerAuth';

/**
 * `npm run doctor`: checks a configuration before a start, on the machine it will run on, and
 * says in words what to fix. A problem stops a start or leaves farms unconnected or exposed; a
 * warning is worth a look. Nothing is changed: no migration, no file written.
 */
export interface Finding {
  level: 'ok' | 'warning' | 'problem';
  /** What was checked, and what was found. */
  text: string;
  /** What to do about it (problems and warnings). */
  fix?: string;
}

/** An administrator's password shorter than this is guessed too easily on a public address. */
export const MIN_ADMIN_PASSWORD = 12;
/** A certificate expiring sooner than this is worth renewing now. */
const RENEW_WITHIN_DAYS = 14;
const CONNECT_TIMEOUT_MS = 10_000;

export async function runDoctor(env: NodeJS.ProcessEnv, cwd = process.cwd()): Promise<Finding[]> {
  let config: Config;
  try {
    config = readConfig(env, cwd);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return [{ level: 'problem', text: error.message, fix: 'correct that variable' }];
  }
  const findings: Finding[] = [{ level: 'ok', text: 'every variable is well formed' }];
  findings.push(...secrets(env));
  findings.push(...certificate(config));
  findings.push(await database(config));
  findings.push(await broker(config));
  findings.push(...(await brokerAuthFindings(config)));
  findings.push(publicAddress(config));
  return findings;
}

export const hasProblem = (findings: Finding[]) => findings.some((f) => f.level === 'problem');

function secrets(env: NodeJS.ProcessEnv): Finding[] {
  const password = env.ROOST_ADMIN_PASSWORD?.trim();
  if (password && password.length < MIN_ADMIN_PASSWORD)
    return [
      {
        level: 'problem',
        text: `ROOST_ADMIN_PASSWORD has ${password.length} characters`,
        fix: `give it at least ${MIN_ADMIN_PASSWORD}, or leave it unset: the first start then prints a generated one`,
      },
    ];
  try {
    // With the variable set, no file is read or made.
    if (env.ROOST_SECRET_KEY) secretBoxFrom(env, '.');
  } catch (error) {
    return [
      {
        level: 'problem',
        text: (error as Error).message,
        fix: 'make one with `openssl rand -hex 32`; keep it: without it sealed camera passwords cannot be read',
      },
    ];
  }
  return [{ level: 'ok', text: 'secrets are long enough' }];
}

function certificate(config: Config): Finding[] {
  if (!config.mqttTls) {
    const exposed = config.mqttPort !== null && !['127.0.0.1', '::1'].includes(config.host);
    return exposed
      ? [
          {
            level: 'warning',
            text: `the embedded broker listens in plain text on ${config.host}: device tokens cross the network in clear`,
            fix: 'give MQTT_TLS_CERT and MQTT_TLS_KEY (gateways then connect to port 8883)',
          },
        ]
      : [];
  }
  const { certFile, keyFile } = config.mqttTls;
  for (const [name, file] of [
    ['MQTT_TLS_CERT', certFile],
    ['MQTT_TLS_KEY', keyFile],
  ] as const) {
    try {
      accessSync(file, constants.R_OK);
    } catch {
      return [
        {
          level: 'problem',
          text: `${name}: ${file} ${existsSync(file) ? 'cannot be read by this user' : 'does not exist'}`,
          fix: `point ${name} at the file, readable by the user Roost runs as`,
        },
      ];
    }
  }
  const cert = readFileSync(certFile);
  const key = readFileSync(keyFile);
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch {
    return [
      {
        level: 'problem',
        text: `${certFile} holds no PEM certificate`,
        fix: 'use the certificate file (fullchain.pem with certbot)',
      },
    ];
  }
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    const mismatch = (error as Error).message.includes('key values mismatch');
    return [
      {
        level: 'problem',
        text: mismatch
          ? `the key in ${keyFile} does not belong to the certificate in ${certFile}`
          : `${keyFile} cannot be used as the key: ${(error as Error).message}`,
        fix: 'give the private key issued with this certificate (privkey.pem with certbot)',
      },
    ];
  }
  const daysLeft = (Date.parse(x509.validTo) - Date.now()) / 86_400_000;
  if (daysLeft < 0)
    return [
      {
        level: 'problem',
        text: `the certificate in ${certFile} expired on ${x509.validTo}`,
        fix: 'renew it',
      },
    ];
  if (daysLeft < RENEW_WITHIN_DAYS)
    return [
      {
        level: 'warning',
        text: `the certificate in ${certFile} expires on ${x509.validTo}`,
        fix: 'renew it soon (Roost reads the new files without a restart)',
      },
    ];
  return [{ level: 'ok', text: `MQTT TLS certificate and key match, valid until ${x509.validTo}` }];
}

async function database(config: Config): Promise<Finding> {
  if (!config.databaseUrl) {
    if (config.dataDir === 'memory://')
      return {
        level: 'warning',
        text: 'the database is in memory: nothing is kept',
        fix: 'set DATA_DIR or DATABASE_URL',
      };
    const dir = existsSync(config.dataDir) ? config.dataDir : path.dirname(config.dataDir);
    try {
      if (!statSync(dir).isDirectory()) throw new Error('not a folder');
      accessSync(dir, constants.W_OK);
    } catch {
      return {
        level: 'problem',
        text: `DATA_DIR ${config.dataDir} cannot be created or written`,
        fix: 'make it a folder the user Roost runs as may write',
      };
    }
    return { level: 'ok', text: `embedded database in ${config.dataDir} (migrated at start)` };
  }
  const where = new URL(config.databaseUrl).host;
  const client = new pg.Client({
    connectionString: config.databaseUrl,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  try {
    await client.connect();
  } catch (error) {
    return {
      level: 'problem',
      text: `the PostgreSQL database at ${where} cannot be reached: ${(error as Error).message}`,
      fix: 'check DATABASE_URL (host, port, user, password, database) and that PostgreSQL runs',
    };
  }
  try {
    const { known, applied } = await migrationState(client);
    if (applied > known)
      return {
        level: 'problem',
        text: `the database at ${where} has ${applied} migrations, this Roost knows ${known}: it belongs to a newer Roost`,
        fix: 'run the newer Roost, or restore a backup made for this one',
      };
    if (applied < known)
      return {
        level: 'ok',
        text: `PostgreSQL at ${where} reached; ${known - applied} migrations to apply at the next start`,
      };
    return { level: 'ok', text: `PostgreSQL at ${where} reached and migrated` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function broker(config: Config): Promise<Finding> {
  if (!config.mqttUrl)
    return config.mqttPort === null
      ? {
          level: 'warning',
          text: 'no MQTT broker (MQTT_PORT=0): gateways cannot connect',
          fix: 'unset MQTT_PORT, or set MQTT_URL',
        }
      : {
          level: 'ok',
          text: `embedded broker${config.mqttTls ? `, MQTT over TLS on port ${config.mqttTls.port}` : ''}`,
        };
  const url = new URL(config.mqttUrl);
  const where = `${url.protocol}//${url.host}`;
  const answer = await new Promise<string | null>((resolve) => {
    const client = mqtt.connect(config.mqttUrl!, {
      clientId: `roost-doctor-${hostname()}`,
      protocolVersion: 5,
      reconnectPeriod: 0,
      connectTimeout: CONNECT_TIMEOUT_MS,
    });
    const done = (result: string | null) => {
      client.end(true);
      resolve(result);
    };
    client.once('connect', () => done(null));
    client.once('error', (error) => done(error.message));
    client.once('close', () => done('the connection closed before the broker answered'));
  });
  if (answer === null) return { level: 'ok', text: `the broker at ${where} lets Roost in` };
  if (/protocol version/i.test(answer))
    return {
      level: 'problem',
      text: `the broker at ${where} does not speak MQTT 5, which Roost uses with an external broker`,
      fix: 'use Mosquitto 2 or EMQX 5 (or the embedded broker: unset MQTT_URL)',
    };
  const refused =
    /not authori[sz]ed|bad user|password|refused/i.test(answer) && !/ECONNREFUSED/.test(answer);
  return refused
    ? {
        level: 'problem',
        text: `the broker at ${where} refuses Roost: ${answer}`,
        fix: "give Roost's user and password in MQTT_URL (mqtt://user:password@host) as the broker knows them",
      }
    : {
        level: 'problem',
        text: `the broker at ${where} cannot be reached: ${answer}`,
        fix: 'check the host and port in MQTT_URL and that the broker runs',
      };
}

function publicAddress(config: Config): Finding {
  const url = config.notify.publicUrl;
  if (!url)
    return {
      level: 'warning',
      text: 'ROOST_PUBLIC_URL is not set',
      fix: 'set it to the https address people open (links in alarm messages use it)',
    };
  if (new URL(url).protocol !== 'https:')
    return {
      level: 'problem',
      text: `ROOST_PUBLIC_URL ${url} is not https: passwords and sessions would cross the internet in clear`,
      fix: 'serve Roost behind a TLS proxy (nginx) and give its https:// address',
    };
  return { level: 'ok', text: `public address ${url}` };
}
