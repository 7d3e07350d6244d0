/**
 * Messages of one connection read ahead of their acknowledgement. Beyond this many, aedes reads
 * no more of a gateway's socket until the oldest is acknowledged: a flooding gateway holds
 * bounded memory. Towards an external broker it is our Receive Maximum, so the broker holds back.
 */
export const READ_AHEAD = 1_000;

/**
 * One MQTT connection whose QoS 1 messages we acknowledge: an aedes client (a gateway's
 * connection to the embedded broker) is one as it is; `externalIngest.ts` makes one per
 * connection of its mqtt.js clients to an external broker.
 */
export interface AckLink {
  /** False once the connection closed: its PUBACKs are then not written (a resend follows). */
  readonly connected: boolean;
  readonly conn: { write(bytes: Buffer): unknown };
  /** Closes the connection without acknowledging more, so the sender sends the rest again. */
  close(): void;
}

const WAITING = 0;
const STORED = 1;
const FAILED = 2;

/** One message of a gateway between its arrival and its acknowledgement. */
interface Unacknowledged {
  messageId: number | undefined;
  outcome: typeof WAITING | typeof STORED | typeof FAILED;
  /** aedes' callback, kept only when the message was read beyond READ_AHEAD. */
  handled: ((error: Error | null) => void) | null;
}

/** A gateway's messages in arrival order, from `head` on, and PUBACKs not yet written. */
interface Acknowledgements {
  arrived: Unacknowledged[];
  head: number;
  /** Message ids acknowledged in this tick, written together at its end. */
  due: number[];
}

const acknowledgementsOf = new WeakMap<AckLink, Acknowledgements>();

/**
 * Acknowledges a QoS 1 message once `work` (its commit) is done, in the order the messages
 * arrived on its connection (MQTT-4.6.0-2), and lets the connection's next messages be read
 * meanwhile.
 *
 * aedes reads a client's next packets only once every packet of its last read is handled, and
 * handling a QoS 1 PUBLISH ends with the PUBACK. Acknowledging after the commit inside aedes
 * therefore left a gateway's next readings in its socket for a whole batch write: the
 * monitor's live values waited behind the database (p50 159 ms, p99 879 ms at 5,000
 * readings/s), and decoding never overlapped writing. mqtt.js, towards an external broker, does
 * the same: it reads on only after its PUBACK, so each connection stored one reading at a time.
 * So the library is handed the message as QoS 0 (it sends no PUBACK of its own) at once, and
 * the PUBACK is written here after the commit.
 * Nothing is acknowledged before it is stored; a failed message closes the connection, so the
 * gateway sends again everything not acknowledged, as it did when aedes closed it.
 *
 * This runs for every reading: one small record and one `then` each, and the PUBACKs of a
 * tick in one write. A chain of promises per message, and a stream write per PUBACK, made
 * about 1.5 KB of garbage a reading at 18,000 readings a second.
 */
export function acknowledgeInOrder(
  client: AckLink,
  packet: { qos: number; messageId?: number | undefined },
  work: Promise<unknown>,
  handled: (error: Error | null) => void,
): void {
  let acks = acknowledgementsOf.get(client);
  if (!acks) {
    acks = { arrived: [], head: 0, due: [] };
    acknowledgementsOf.set(client, acks);
  }
  const message: Unacknowledged = { messageId: packet.messageId, outcome: WAITING, handled: null };
  packet.qos = 0;
  acks.arrived.push(message);
  if (acks.arrived.length - acks.head <= READ_AHEAD) handled(null);
  else message.handled = handled;
  const state = acks;
  work.then(
    () => settle(client, state, message, STORED),
    () => settle(client, state, message, FAILED),
  );
}

/** Records a message's outcome and acknowledges every message up to the first still waiting. */
function settle(
  client: AckLink,
  acks: Acknowledgements,
  message: Unacknowledged,
  outcome: typeof STORED | typeof FAILED,
): void {
  message.outcome = outcome;
  const arrived = acks.arrived;
  while (acks.head < arrived.length) {
    const first = arrived[acks.head]!;
    if (first.outcome === WAITING) break;
    acks.head += 1;
    if (client.connected) {
      if (first.outcome === FAILED) {
        // What was acknowledged before it goes out first; the rest is sent again.
        writeDue(client, acks);
        client.close();
      } else if (first.messageId !== undefined) {
        if (acks.due.length === 0) process.nextTick(writeDue, client, acks);
        acks.due.push(first.messageId);
      }
    }
    first.handled?.(null);
  }
  if (acks.head === arrived.length) {
    arrived.length = 0;
    acks.head = 0;
  } else if (acks.head >= 1_024 && acks.head * 2 >= arrived.length) {
    arrived.splice(0, acks.head);
    acks.head = 0;
  }
}

/** PUBACK is 0x40, remaining length 2, the message id: one buffer for all that are due. */
function writeDue(client: AckLink, acks: Acknowledgements): void {
  const due = acks.due;
  if (due.length === 0) return;
  if (client.connected) {
    const bytes = Buffer.allocUnsafe(due.length * 4);
    for (let i = 0; i < due.length; i += 1) {
      const at = i * 4;
      bytes[at] = 0x40;
      bytes[at + 1] = 2;
      bytes.writeUInt16BE(due[i]!, at + 2);
    }
    client.conn.write(bytes);
  }
  due.length = 0;
}
