import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listening } from '../helpers/listening';
import { freePort } from '../helpers/processes';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface KitNginx {
  httpsPort: number;
  /** The self-signed certificate (PEM) nginx serves. */
  cert: string;
  stop(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1 and localhost, made by openssl. */
export function selfSignedCertificate(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  const made = spawnSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  if (made.status !== 0) throw new Error(`openssl: ${made.stderr.toString()}`);
  return { cert, key };
}

/**
 * Debian's nginx running the kit's own site file (deploy/nginx/roost.conf), its {{…}} words
 * replaced by the test's ports and paths, in front of the given Roost addresses.
 */
export async function startKitNginx(upstreams: [string, string], dist: string): Promise<KitNginx> {
  const dir = mkdtempSync(path.join(tmpdir(), 'roost-nginx-'));
  mkdirSync(path.join(dir, 'logs'));
  const { cert, key } = selfSignedCertificate(dir);
  const httpsPort = await freePort();
  const httpPort = await freePort();
  const site = readFileSync(path.join(ROOT, 'deploy/nginx/roost.conf'), 'utf8')
    .replaceAll('{{ROOST_1}}', upstreams[0])
    .replaceAll('{{ROOST_2}}', upstreams[1])
    .replaceAll('{{SERVER_NAME}}', 'localhost')
    .replaceAll('{{HTTP_PORT}}', `127.0.0.1:${httpPort}`)
    .replaceAll('{{HTTPS_PORT}}', `127.0.0.1:${httpsPort}`)
    .replaceAll('{{CERT}}', cert)
    .replaceAll('{{KEY}}', key)
    .replaceAll('{{DIST}}', dist)
    // The test listens on loopback IPv4 only.
    .split('\n')
    .filter((line) => !line.includes('listen [::]'))
    .join('\n');
  if (/{{[A-Z_0-9]+}}/.test(site))
    throw new Error('a {{word}} of the kit’s nginx file is not replaced');
  writeFileSync(path.join(dir, 'roost.conf'), site);
  const conf = path.join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    [
      // Debian's main nginx.conf, reduced to what a test's own instance needs.
      process.getuid?.() === 0 ? 'user root;' : '',
      'daemon off;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/logs/error.log warn;`,
      'events { worker_connections 256; }',
      'http {',
      '  include /etc/nginx/mime.types;',
      '  default_type application/octet-stream;',
      '  access_log off;',
      `  client_body_temp_path ${dir}/body;`,
      `  proxy_temp_path ${dir}/proxy;`,
      `  fastcgi_temp_path ${dir}/fastcgi;`,
      `  uwsgi_temp_path ${dir}/uwsgi;`,
      `  scgi_temp_path ${dir}/scgi;`,
      `  include ${dir}/roost.conf;`,
      '}',
    ].join('\n') + '\n',
  );
  const child: ChildProcess = spawn('nginx', ['-p', dir, '-c', conf], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.once('error', (error) =>
      reject(new Error(`nginx could not start (${error.message}): apt-get install nginx`)),
    );
    child.once('exit', (code) => reject(new Error(`nginx exited ${code}: ${errors}`)));
    void listening(httpsPort).then(resolve, reject);
  });
  return {
    httpsPort,
    cert: readFileSync(cert, 'utf8'),
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
