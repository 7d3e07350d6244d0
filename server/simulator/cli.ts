import { CliError, loadDemoGateways, parseCliArgs, USAGE } from './cliArgs';
import { startSimulator, type RunningSimulator, type SimulatorStats } from './simulator';

/** A status line this often: frequent enough to watch, rare enough to read. */
const STATUS_EVERY_MS = 10_000;
/** Ctrl+C waits this long for the goodbye messages before exiting anyway. */
const STOP_GRACE_MS = 5_000;

async function main(): Promise<void> {
  let simulator: RunningSimulator;
  let gatewayCount: number;
  let url: string;
  try {
    const options = parseCliArgs(process.argv.slice(2), process.env);
    const gateways = loadDemoGateways(options.file, options.gateways);
    gatewayCount = gateways.length;
    url = options.url;
    simulator = await startSimulator({
      url: options.url,
      ...(options.ca ? { ca: options.ca } : {}),
      gateways,
      intervalMs: options.intervalMs,
      seed: options.seed,
      onError: (error) => console.error(`simulate: ${error.message}`),
    });
    console.log(
      `Simulating ${gateways.length} gateways → ${options.url}, one reading each every ${options.intervalMs / 1000} s (seed ${options.seed}). Stop with Ctrl+C.`,
    );
  } catch (error) {
    console.error(`simulate: ${(error as Error).message}`);
    if (error instanceof CliError && error.showUsage) console.error(USAGE);
    process.exit(1);
  }

  const status = setInterval(() => console.log(statusLine(simulator.stats())), STATUS_EVERY_MS);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      console.log(`${signal} again: exiting now.`);
      process.exit(1);
    }
    stopping = true;
    clearInterval(status);
    console.log(`${signal}: stopping ${gatewayCount} gateways on ${url}...`);
    const force = setTimeout(() => {
      console.error('simulate: gateways did not stop in time: exiting.');
      process.exit(1);
    }, STOP_GRACE_MS);
    force.unref();
    void simulator.stop().then(() => {
      console.log(statusLine(simulator.stats()));
      process.exit(0);
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

function statusLine(s: SimulatorStats): string {
  const time = new Date().toISOString().slice(11, 19);
  const parts = [
    `connected ${s.connected}/${s.gateways}`,
    `readings sent ${s.sent} of ${s.readings}`,
    `queued ${s.queued}`,
  ];
  if (s.offline > 0) parts.push(`offline (fault) ${s.offline}`);
  if (s.dropped > 0) parts.push(`dropped ${s.dropped}`);
  if (s.refused > 0) parts.push(`refused ${s.refused}`);
  if (s.errors > 0) parts.push(`errors ${s.errors}`);
  return `${time} ${parts.join(' · ')}`;
}

void main();
