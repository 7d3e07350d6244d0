import path from 'node:path';
import { readConfig } from '../server/config';
import { startRoost, type RunningRoost } from '../server/roost';

/**
 * A demo server without simulated gateways or a demo past (the bench alone decides what is
 * there), that serves the built console from BENCH_DIST_DIR (default dist/): what the browser
 * parts of the bench load. In memory on PGlite, or on the PostgreSQL database `databaseUrl`.
 */
export async function startConsoleServer(
  databaseUrl?: string,
  /** `broker`: the embedded MQTT broker on a free port, for gateways the bench connects. */
  { broker = false }: { broker?: boolean } = {},
): Promise<RunningRoost> {
  const config = readConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: 'memory://',
    MQTT_PORT: '0',
    ROOST_DEMO: '1',
    ROOST_DEMO_HISTORY: 'off',
    ROOST_CAPTCHA: 'off',
    ROOST_SIMULATOR: 'off',
    LOG_LEVEL: 'silent',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  return startRoost({
    ...config,
    ...(broker ? { mqttPort: 0 } : {}),
    staticDir: path.resolve(process.env.BENCH_DIST_DIR ?? 'dist'),
  });
}
