import { connect, type Socket } from 'node:net';

/**
 * A bare MQTT 3.1.1 client that does what a gateway does under load and nothing more: sign in,
 * publish QoS 1, count PUBACKs. The bench's 42 gateways share the server's 2 cores; mqtt.js (its
 * stores, promises, options and timers per message) took a third of a core at 9,000
 * readings/s, which the server under measurement then lacked. Each PUBLISH is still its own
 * write on its own TCP connection, as from a real gateway.
 */
export class BenchGateway {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiter>();
  private received = Buffer.alloc(0);
  private closed: Error | null = null;

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('close', () => this.fail(new Error('connection closed')));
    socket.on('error', (error) => this.fail(error));
  }

  /**
   * `keepAliveSeconds`: the broker drops a client silent for 1.5 times this; a bench that
   * connects thousands of gateways before any of them publishes needs it longer than that wait.
   */
  static async connect(
    port: number,
    username: string,
    password: string,
    keepAliveSeconds = 60,
  ): Promise<BenchGateway> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const client = new BenchGateway(socket);
    await client.signIn(username, password, keepAliveSeconds);
    return client;
  }

  /** Publishes at QoS 1; resolves on the PUBACK, which the server sends once it has stored it. */
  publishAsync(topic: string, payload: string): Promise<void> {
    return new Promise<void>((resolve, reject) =>
      this.publish(topic, payload, { resolve, reject }),
    );
  }

  /**
   * Publishes at QoS 1 and tells `done` of the PUBACK (or the failure): the load's tens of
   * thousands of messages a second without two promises each.
   */
  publish(topic: string, payload: string, done: Waiter): void {
    if (this.closed) {
      done.reject(this.closed);
      return;
    }
    const id = this.nextId;
    this.nextId = (this.nextId % 65_535) + 1;
    const topicBytes = Buffer.byteLength(topic);
    const payloadBytes = Buffer.byteLength(payload);
    const remaining = 2 + topicBytes + 2 + payloadBytes;
    const lengthBytes = varintLength(remaining);
    const packet = Buffer.allocUnsafe(1 + lengthBytes + remaining);
    packet[0] = 0x32; // PUBLISH, QoS 1
    let at = writeVarint(packet, 1, remaining);
    at = packet.writeUInt16BE(topicBytes, at);
    at += packet.write(topic, at, 'utf8');
    at = packet.writeUInt16BE(id, at);
    packet.write(payload, at, 'utf8');
    this.waiting.set(id, done);
    this.socket.write(packet);
  }

  end(): void {
    this.socket.end(Buffer.from([0xe0, 0x00])); // DISCONNECT
  }

  private signIn(username: string, password: string, keepAliveSeconds: number): Promise<void> {
    const field = (text: string) => {
      const bytes = Buffer.from(text, 'utf8');
      const length = Buffer.alloc(2);
      length.writeUInt16BE(bytes.length);
      return Buffer.concat([length, bytes]);
    };
    const body = Buffer.concat([
      field('MQTT'),
      // level 4, user name + password + clean session, keep-alive
      Buffer.from([4, 0xc2, keepAliveSeconds >> 8, keepAliveSeconds & 0xff]),
      field(`bench-${username}`),
      field(username),
      field(password),
    ]);
    const header = Buffer.alloc(1 + varintLength(body.length));
    header[0] = 0x10;
    writeVarint(header, 1, body.length);
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(0, { resolve, reject });
      this.socket.write(Buffer.concat([header, body]));
    });
  }

  private read(chunk: Buffer): void {
    let data = this.received.length > 0 ? Buffer.concat([this.received, chunk]) : chunk;
    for (;;) {
      if (data.length < 2) break;
      let length = 0;
      let multiplier = 1;
      let at = 1;
      let complete = false;
      while (at < data.length && at <= 4) {
        const byte = data[at]!;
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
        at += 1;
        if ((byte & 0x80) === 0) {
          complete = true;
          break;
        }
      }
      if (!complete || data.length < at + length) break;
      const type = data[0]! >> 4;
      if (type === 4) this.settle(data.readUInt16BE(at), null); // PUBACK
      if (type === 2)
        this.settle(0, data[at + 1] === 0 ? null : new Error(`CONNACK ${data[at + 1]}`));
      data = data.subarray(at + length);
    }
    this.received = data.length > 0 ? Buffer.from(data) : Buffer.alloc(0);
  }

  private settle(id: number, error: Error | null): void {
    const waiter = this.waiting.get(id);
    if (!waiter) return;
    this.waiting.delete(id);
    if (error) waiter.reject(error);
    else waiter.resolve();
  }

  private fail(error: Error): void {
    this.closed ??= error;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}

/** Who hears of a message's PUBACK (resolve) or of its failure (reject). */
export interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

function varintLength(n: number): number {
  return n < 128 ? 1 : n < 16_384 ? 2 : n < 2_097_152 ? 3 : 4;
}

function writeVarint(buffer: Buffer, at: number, n: number): number {
  let rest = n;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    buffer[at] = byte;
    at += 1;
  } while (rest > 0);
  return at;
}
