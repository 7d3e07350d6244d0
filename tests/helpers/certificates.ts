import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A certificate authority of a test's own, made with openssl, and the server pairs it signs. */
export interface TestCa {
  dir: string;
  caFile: string;
  ca: Buffer;
  /** A new key and a certificate for 127.0.0.1, 127.0.0.2 and localhost signed by this CA. */
  issue(name: string): { certFile: string; keyFile: string };
  remove(): void;
}

/** `command` is split on spaces: no argument here has one. */
function openssl(command: string, cwd: string): void {
  execFileSync('openssl', command.split(' '), { cwd, stdio: 'pipe' });
}

const NEW_KEY = '-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes';

export function makeTestCa(): TestCa {
  const dir = mkdtempSync(path.join(tmpdir(), 'roost-tls-'));
  openssl(`req -x509 ${NEW_KEY} -keyout ca.key -out ca.pem -days 2 -subj /CN=RoostTestCA`, dir);
  writeFileSync(
    path.join(dir, 'server.ext'),
    'subjectAltName=IP:127.0.0.1,IP:127.0.0.2,DNS:localhost\n',
  );
  const caFile = path.join(dir, 'ca.pem');
  return {
    dir,
    caFile,
    ca: readFileSync(caFile),
    issue(name) {
      openssl(`req ${NEW_KEY} -keyout ${name}.key -out ${name}.csr -subj /CN=${name}`, dir);
      openssl(
        `x509 -req -in ${name}.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out ${name}.pem -days 2 -extfile server.ext`,
        dir,
      );
      return { certFile: path.join(dir, `${name}.pem`), keyFile: path.join(dir, `${name}.key`) };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
