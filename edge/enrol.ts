import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { enrolAnswerSchema, normaliseEnrolCode } from '../src/contract/enrol';

/**
 * `roost-edge enroll <code> --server <url> --house <name> [--config <file>] [--credentials <file>]`:
 * trades a console's enrolment code for the house's network id, device token and broker URL, and
 * writes them to the credentials file (mode 0600), beside the other houses already in it. The
 * token is written to that file only: never to stdout, stderr or a log.
 */

export interface CredentialsFile {
  houses: Record<string, { networkId: string; token: string; mqttUrl: string }>;
}

const USAGE =
  'usage: roost-edge enroll <code> --server <https-or-http-url> --house <name> [--config <file>] [--credentials <file>]';

/** Where the credentials go: `--credentials`, else the config's name with `.credentials.json`. */
export function credentialsPathOf(configPath: string): string {
  const ext = path.extname(configPath);
  const base = ['.json', '.yaml', '.yml', '.toml'].includes(ext)
    ? configPath.slice(0, -ext.length)
    : configPath;
  return `${base}.credentials.json`;
}

interface Args {
  code: string;
  server: URL;
  house: string;
  credentials: string;
}

function parseArgs(argv: string[]): Args | string {
  const rest = argv[0] === 'enroll' || argv[0] === 'enrol' ? argv.slice(1) : [...argv];
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      const value = inline ?? rest[++i];
      if (value === undefined) return `--${name} needs a value`;
      flags.set(name, value);
    } else positional.push(arg);
  }
  const unknown = [...flags.keys()].filter(
    (f) => !['server', 'house', 'config', 'credentials'].includes(f),
  );
  if (unknown.length > 0) return `unknown option --${unknown[0]}`;
  if (positional.length !== 1) return 'give exactly one enrolment code';
  const server = flags.get('server');
  const house = flags.get('house')?.trim();
  if (!server) return '--server is required (the console address, e.g. https://roost.example.com)';
  if (!house) return '--house is required (the name this edge gives the house in its config)';
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return `--server ${server} is not a URL`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `--server must start with https:// or http://`;
  const config = flags.get('config') ?? 'roost-edge.json';
  return {
    code: normaliseEnrolCode(positional[0]!),
    server: url,
    house,
    credentials: flags.get('credentials') ?? credentialsPathOf(config),
  };
}

async function readExisting(file: string): Promise<CredentialsFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { houses: {} };
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<CredentialsFile>;
  if (typeof parsed !== 'object' || parsed === null || typeof parsed.houses !== 'object')
    throw new Error(`${file} is not a credentials file ({ "houses": { ... } })`);
  return { houses: { ...parsed.houses } };
}

/** Writes the file whole or not at all (a temporary file renamed), readable by its owner only. */
async function writePrivate(file: string, content: CredentialsFile): Promise<void> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  // The mode given to writeFile is masked by the umask; set it outright.
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}

/** The server's message in the envelope, or the status. */
async function refusalOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { msg?: string };
    if (body.msg) return body.msg;
  } catch {
    // Not an envelope (a proxy's page): the status says enough.
  }
  return `the server answered ${response.status} ${response.statusText}`;
}

export async function enrolCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    process.stderr.write(`roost-edge enroll: ${args}\n${USAGE}\n`);
    return 2;
  }
  const locale = /^zh/i.test(process.env.LANG ?? '') ? 'zh' : 'en';
  const endpoint = new URL('/api/edge/enrol', args.server);
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', Locale: locale },
      body: JSON.stringify({ code: args.code }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    process.stderr.write(
      `roost-edge enroll: cannot reach ${endpoint.origin}: ${(error as Error).message}\n`,
    );
    return 1;
  }
  if (!response.ok) {
    process.stderr.write(`roost-edge enroll: ${await refusalOf(response)}\n`);
    return 1;
  }
  const body = (await response.json()) as { data?: unknown };
  const answer = enrolAnswerSchema.safeParse(body.data);
  if (!answer.success) {
    process.stderr.write('roost-edge enroll: the server gave no credentials (is it Roost?)\n');
    return 1;
  }
  try {
    const existing = await readExisting(args.credentials);
    existing.houses[args.house] = answer.data;
    await writePrivate(args.credentials, existing);
  } catch (error) {
    // The code is spent: say so, so the person asks for a new one after fixing the file.
    process.stderr.write(
      `roost-edge enroll: could not write ${args.credentials}: ${(error as Error).message}; the code is used, make a new one\n`,
    );
    return 1;
  }
  process.stdout.write(
    `Enrolled house "${args.house}" as gateway ${answer.data.networkId} (broker ${answer.data.mqttUrl}).\n` +
      `Credentials written to ${args.credentials} (mode 600).\n`,
  );
  return 0;
}
