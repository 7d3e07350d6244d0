import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { createSecureContext, TLSSocket, type SecureContext } from 'node:tls';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { MqttTls } from '../config';
import { StartError } from '../startError';

/**
 * A certificate and key pair read from their files, read again when either file changes: a
 * renewal (certbot replacing the files, or the symlinks under `live/`) is served to the next
 * connection without a restart. Files are compared by what `stat` says (it follows symlinks), on
 * every new connection: two stats cost far less than the handshake that follows.
 */
export class CertificateFiles {
  private context: SecureContext | null = null;
  /** The files' identity when last read, successful or not: a bad pair is not retried until changed. */
  private seen = '';
  private checking: Promise<SecureContext> | null = null;

  constructor(
    private readonly files: Pick<MqttTls, 'certFile' | 'keyFile'>,
    private readonly log?: Logger,
  ) {}

  /** The current context; the first read throws a StartError saying what is wrong. */
  current(): Promise<SecureContext> {
    // Connections arriving together share one check.
    this.checking ??= this.check().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async check(): Promise<SecureContext> {
    const { certFile, keyFile } = this.files;
    let identity: string;
    try {
      const [cert, key] = await Promise.all([stat(certFile), stat(keyFile)]);
      identity = [cert, key].map((s) => `${s.ino}:${s.size}:${s.mtimeMs}`).join('/');
    } catch (error) {
      const unreadable = `unreadable ${pathOf(error)}`;
      const repeated = this.seen === unreadable;
      this.seen = unreadable;
      return this.keepOrFail(`cannot read ${pathOf(error) ?? 'the certificate files'}`, repeated);
    }
    if (identity === this.seen && this.context) return this.context;
    const first = this.context === null;
    this.seen = identity;
    try {
      const [cert, key] = await Promise.all([readFile(certFile), readFile(keyFile)]);
      this.context = createSecureContext({ cert, key });
      if (!first) this.log?.info({ certFile }, 'MQTT TLS certificate re-read from its file');
      return this.context;
    } catch (error) {
      const reason = (error as Error).message.includes('key values mismatch')
        ? `the key in ${keyFile} does not belong to the certificate in ${certFile}`
        : `cannot use ${certFile} with ${keyFile}: ${(error as Error).message}`;
      return this.keepOrFail(reason, false);
    }
  }

  /**
   * A renewal caught half-written (a new certificate, the old key) keeps the pair that worked:
   * the files are read again once they change again.
   */
  private keepOrFail(reason: string, repeated: boolean): SecureContext {
    if (this.context) {
      if (!repeated) this.log?.warn(`MQTT TLS keeps its previous certificate: ${reason}`);
      return this.context;
    }
    throw new StartError(`MQTT over TLS cannot start: ${reason} (MQTT_TLS_CERT, MQTT_TLS_KEY).`);
  }
}

function pathOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).path;
}

/**
 * The broker's MQTTS listener. Each TCP connection is wrapped in a server-side TLSSocket with
 * the certificate current at that moment and handed, decrypted, to `onConnection`. A client
 * speaking plain text here fails its handshake and is closed.
 */
export async function listenTls(
  files: CertificateFiles,
  port: number,
  host: string,
  onConnection: (socket: TLSSocket) => void,
  log?: Logger,
): Promise<Server> {
  await files.current();
  const server = createServer((socket: Socket) => {
    socket.on('error', () => socket.destroy());
    files.current().then(
      (secureContext) => {
        if (socket.destroyed) return;
        const secure = new TLSSocket(socket, { isServer: true, secureContext });
        onConnection(secure);
      },
      (error: Error) => {
        log?.error({ err: error }, 'MQTT TLS connection refused: no usable certificate');
        socket.destroy();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
