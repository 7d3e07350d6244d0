import { ConfigError, readConfig } from './config';
import { DEMO_PASSWORD, DEMO_USERS } from './demo/demoFarms';
import { startRoost, type RunningRoost } from './roost';
import { StartError } from './startError';

/** How long a graceful stop may take before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let roost: RunningRoost;
  try {
    const config = readConfig(process.env);
    roost = await startRoost(config);
    printBanner(roost, config.databaseUrl, config.dataDir, config.mqttUrl);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof StartError) {
      console.error(`Roost cannot start: ${error.message}`);
    } else {
      console.error(`Roost cannot start: ${(error as Error).stack ?? String(error)}`);
    }
    process.exit(1);
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      console.log(`${signal} again: exiting now.`);
      process.exit(1);
    }
    stopping = true;
    console.log(`${signal}: stopping Roost...`);
    const force = setTimeout(() => {
      console.error('Roost did not stop in time: exiting.');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    roost.close().then(
      () => {
        console.log('Roost stopped.');
        process.exit(0);
      },
      (error: unknown) => {
        console.error(`Roost stopped with an error: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

function printBanner(
  roost: RunningRoost,
  databaseUrl: string | null,
  dataDir: string,
  mqttUrl: string | null,
): void {
  const lines = [
    '',
    `Roost is running: open ${roost.url}`,
    `  Database  ${databaseUrl ? `PostgreSQL (${new URL(databaseUrl).host})` : `embedded PGlite in ${dataDir}`}`,
    `  MQTT      ${
      mqttUrl
        ? `external broker ${new URL(mqttUrl).host}`
        : roost.mqttPort
          ? `embedded broker on port ${roost.mqttPort}`
          : 'off (MQTT_PORT=0)'
    }`,
  ];
  if (roost.mqttTlsPort !== null)
    lines.push(
      `            MQTT over TLS on port ${roost.mqttTlsPort} (plain text: see MQTT_PLAIN_LOOPBACK)`,
    );
  if (roost.mqttMoved) {
    lines.push(
      `            (port 1883 is taken by another broker; set MQTT_PORT, or MQTT_URL=mqtt://127.0.0.1:1883 to use that broker)`,
    );
  }
  if (roost.boot.demo) {
    lines.push(
      `  Demo      sign in as admin / ${roost.boot.generatedAdminPassword ?? (process.env.ROOST_ADMIN_PASSWORD ? '(ROOST_ADMIN_PASSWORD)' : DEMO_PASSWORD)}`,
      `            other roles: ${DEMO_USERS.filter((u) => u.username !== 'admin')
        .map((u) => u.username)
        .join(', ')} (password ${DEMO_PASSWORD})`,
    );
  } else if (roost.boot.generatedAdminPassword) {
    lines.push(
      `  Admin     sign in as admin / ${roost.boot.generatedAdminPassword}  (shown once: change it after signing in)`,
    );
  }
  lines.push('  Stop with Ctrl+C.', '');
  console.log(lines.join('\n'));
}

void main();
