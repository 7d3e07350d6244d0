import { randomUUID } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';

/** Where Mosquitto's dynamic security plugin takes commands and answers them. */
const CONTROL_TOPIC = '$CONTROL/dynamic-security/v1';
const RESPONSE_TOPIC = `${CONTROL_TOPIC}/response`;
/** A command the plugin has not answered in this long failed (a broker without the plugin never answers). */
const ANSWER_TIMEOUT_MS = 10_000;

export type DynsecCommand = { command: string } & Record<string, unknown>;

export interface DynsecResponse {
  command: string;
  error?: string;
  data?: Record<string, unknown>;
  correlationData?: string;
}

/** A refusal by the plugin ("Client not found", "Client already exists"). */
export class DynsecError extends Error {
  constructor(
    readonly command: string,
    readonly reason: string,
  ) {
    super(`${command}: ${reason}`);
  }
}

/**
 * One MQTT connection, as the plugin's administrator, that sends commands to
 * `$CONTROL/dynamic-security/v1` and matches each answer by its correlation data.
 */
export class DynsecControl {
  private readonly pending = new Map<
    string,
    { resolve(r: DynsecResponse): void; reject(e: Error): void; timer: NodeJS.Timeout }
  >();

  private constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload) => {
      if (topic !== RESPONSE_TOPIC) return;
      let body: { responses?: DynsecResponse[] };
      try {
        body = JSON.parse(payload.toString('utf8')) as { responses?: DynsecResponse[] };
      } catch {
        return;
      }
      for (const response of body.responses ?? []) {
        const waiting = response.correlationData
          ? this.pending.get(response.correlationData)
          : undefined;
        if (!waiting) continue;
        this.pending.delete(response.correlationData!);
        clearTimeout(waiting.timer);
        waiting.resolve(response);
      }
    });
  }

  /**
   * Connects as the plugin's administrator (the broker's address, with user and password) and
   * subscribes to the answers. Keeps reconnecting afterwards; `onConnect` hears each (re)connection.
   */
  static async connect(
    url: string,
    username: string,
    password: string,
    onConnect?: () => void,
  ): Promise<DynsecControl> {
    const client = await mqtt.connectAsync(url, {
      username,
      password,
      clientId: `roost-dynsec-${randomUUID().slice(0, 8)}`,
      reconnectPeriod: 2_000,
      connectTimeout: 10_000,
    });
    const control = new DynsecControl(client);
    await client.subscribeAsync(RESPONSE_TOPIC, { qos: 1 });
    client.on('connect', () => {
      void client.subscribeAsync(RESPONSE_TOPIC, { qos: 1 }).then(
        () => onConnect?.(),
        () => {},
      );
    });
    return control;
  }

  connected(): boolean {
    return this.client.connected;
  }

  /** Sends the commands in one message; resolves with each one's answer, in order. */
  async send(commands: readonly DynsecCommand[]): Promise<DynsecResponse[]> {
    if (commands.length === 0) return [];
    const tagged = commands.map((c) => ({ ...c, correlationData: randomUUID() }));
    const answers = tagged.map(
      (c) =>
        new Promise<DynsecResponse>((resolve, reject) => {
          const timer = setTimeout(() => {
            this.pending.delete(c.correlationData);
            reject(new Error(`Mosquitto did not answer ${c.command} (dynamic security plugin?)`));
          }, ANSWER_TIMEOUT_MS);
          this.pending.set(c.correlationData, { resolve, reject, timer });
        }),
    );
    await this.client.publishAsync(CONTROL_TOPIC, JSON.stringify({ commands: tagged }), {
      qos: 1,
    });
    return Promise.all(answers);
  }

  /** One command; a refusal throws DynsecError. */
  async run(command: DynsecCommand): Promise<Record<string, unknown>> {
    const [answer] = await this.send([command]);
    if (answer?.error) throw new DynsecError(command.command, answer.error);
    return answer?.data ?? {};
  }

  async close(): Promise<void> {
    for (const waiting of this.pending.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(new Error('closed'));
    }
    this.pending.clear();
    await this.client.endAsync(true);
  }
}
