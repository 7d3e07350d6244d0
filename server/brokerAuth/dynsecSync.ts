import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { gateways } from '../db/schema';
import type { SecretBox } from '../devices/secrets';
import {
  GATEWAY_PUBLISHES,
  GATEWAY_SUBSCRIBES,
  TOPIC_ROOT,
  gatewayTopic,
} from '../../src/contract/gateway';
import { DynsecControl, DynsecError, type DynsecCommand } from './dynsecControl';

/**
 * Every gateway's role at Mosquitto is named with this prefix: a client or role holding it is
 * Roost's to create, change and delete; every other client (the plugin's administrator,
 * Roost's own ingest user, a person's tools) is left alone.
 */
export const GATEWAY_ROLE_PREFIX = 'roost-gateway-';
/** Commands per control message when mending many gateways at once. */
const BATCH = 100;

export const gatewayRole = (networkId: string) => `${GATEWAY_ROLE_PREFIX}${networkId}`;

/**
 * The topic rights of one gateway, as the gateway contract gives them: it publishes its seven
 * topics, may subscribe to its three command topics (or the wildcard below its own id) and
 * receives only those commands, never its own or another gateway's messages.
 */
export function gatewayAcls(networkId: string): Array<Record<string, unknown>> {
  const own = `${TOPIC_ROOT}/${networkId}/#`;
  return [
    ...GATEWAY_PUBLISHES.map((kind) => ({
      acltype: 'publishClientSend',
      topic: gatewayTopic(networkId, kind),
      allow: true,
    })),
    ...GATEWAY_SUBSCRIBES.map((kind) => ({
      acltype: 'subscribeLiteral',
      topic: gatewayTopic(networkId, kind),
      allow: true,
    })),
    { acltype: 'subscribeLiteral', topic: own, allow: true },
    ...GATEWAY_SUBSCRIBES.map((kind) => ({
      acltype: 'publishClientReceive',
      topic: gatewayTopic(networkId, kind),
      priority: 1,
      allow: true,
    })),
    { acltype: 'publishClientReceive', topic: own, priority: 0, allow: false },
  ];
}

/** What a check found different at Mosquitto, and mended. */
export interface DriftReport {
  /** Gateways Mosquitto did not know (created there). */
  created: string[];
  /** Clients or roles of gateways Roost does not have (deleted there). */
  removed: string[];
  /** Gateways whose client was disabled or had other roles (put back to their one role). */
  repaired: string[];
  /**
   * Gateways Roost holds no broker password for (made before Roost managed Mosquitto): they
   * need a new token in the console to be admitted.
   */
  withoutPassword: string[];
}

interface ClientInfo {
  username: string;
  disabled?: boolean;
  roles?: Array<{ rolename: string }>;
}

export interface DynsecSyncOptions {
  /** The broker's address (MQTT_URL without its user). */
  url: string;
  username: string;
  password: string;
  db: Db;
  box: SecretBox;
  log: FastifyBaseLogger;
}

/**
 * Keeps Mosquitto's dynamic security plugin holding exactly Roost's gateways: one client per
 * gateway (user name = network id, password = its device token) with its one role. Changes in
 * the console reach Mosquitto at once; a check at start (and after each reconnection, or a
 * change that could not be made) finds and mends what differs.
 */
export class DynsecSync {
  private mending: Promise<DriftReport> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;

  private constructor(
    private readonly control: DynsecControl,
    private readonly options: DynsecSyncOptions,
  ) {}

  static async start(
    options: DynsecSyncOptions,
  ): Promise<{ sync: DynsecSync; drift: DriftReport }> {
    let sync: DynsecSync | null = null;
    const control = await DynsecControl.connect(
      options.url,
      options.username,
      options.password,
      () => sync?.mendSoon(),
    );
    sync = new DynsecSync(control, options);
    try {
      return { sync, drift: await sync.mend() };
    } catch (error) {
      await sync.close();
      throw error;
    }
  }

  /** Seals a device token for keeping in the gateway's row. */
  seal(token: string): string {
    return this.options.box.seal(token);
  }

  /** The device token a gateway's row keeps sealed. */
  open(sealed: string): string {
    return this.options.box.open(sealed);
  }

  /** A gateway was created, or given a new token: its client has that password now. */
  async gatewaySaved(networkId: string, token: string): Promise<void> {
    await this.guard(async () => {
      await this.ensureRole(networkId);
      try {
        await this.control.run({
          command: 'setClientPassword',
          username: networkId,
          password: token,
        });
        // The plugin ends the client's open sessions on a new password.
      } catch (error) {
        if (!(error instanceof DynsecError)) throw error;
        await this.control.run({
          command: 'createClient',
          username: networkId,
          password: token,
          textname: 'Roost gateway',
          roles: [{ rolename: gatewayRole(networkId) }],
        });
      }
    });
  }

  /** A gateway was deleted or renamed: its client and role go, and its session ends. */
  async gatewayRemoved(networkId: string): Promise<void> {
    await this.guard(async () => {
      await this.control.send([
        { command: 'deleteClient', username: networkId },
        { command: 'deleteRole', rolename: gatewayRole(networkId) },
      ]);
    });
  }

  /** Compares Mosquitto with the database and mends every difference; one at a time. */
  mend(): Promise<DriftReport> {
    this.mending ??= this.mendOnce().finally(() => {
      this.mending = null;
    });
    return this.mending;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.mending?.catch(() => undefined);
    await this.control.close();
  }

  private mendSoon(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.mend().then(
        (drift) => this.logDrift(drift),
        (error: Error) => {
          this.options.log.error({ err: error }, 'Mosquitto accounts could not be checked');
          this.mendSoon();
        },
      );
    }, 5_000);
  }

  /** A change Mosquitto did not take is mended by the next check, a few seconds later. */
  private async guard(change: () => Promise<void>): Promise<void> {
    try {
      await change();
    } catch (error) {
      this.options.log.error({ err: error }, 'Mosquitto did not take a gateway change; retrying');
      this.mendSoon();
    }
  }

  private async ensureRole(networkId: string): Promise<void> {
    const [answer] = await this.control.send([
      { command: 'createRole', rolename: gatewayRole(networkId), acls: gatewayAcls(networkId) },
    ]);
    // An existing role is fine: its rights come from the same contract.
    if (answer?.error && !/exist/i.test(answer.error))
      throw new DynsecError('createRole', answer.error);
  }

  logDrift(drift: DriftReport): void {
    const { created, removed, repaired, withoutPassword } = drift;
    if (created.length + removed.length + repaired.length > 0)
      this.options.log.warn(
        { created, removed, repaired },
        'Mosquitto accounts differed from Roost gateways; mended',
      );
    if (withoutPassword.length > 0)
      this.options.log.warn(
        { gateways: withoutPassword },
        'gateways without a broker password: give each a new token in the console',
      );
  }

  private async mendOnce(): Promise<DriftReport> {
    const rows = await this.options.db
      .select({ networkId: gateways.networkId, secret: gateways.brokerSecret })
      .from(gateways);
    const clients = await this.listAll<ClientInfo>('listClients', 'clients');
    const roles = await this.listAll<{ rolename: string }>('listRoles', 'roles');
    const wanted = new Map(rows.map((r) => [r.networkId, r.secret]));
    const clientByName = new Map(clients.map((c) => [c.username, c]));
    const roleNames = new Set(roles.map((r) => r.rolename));
    const drift: DriftReport = { created: [], removed: [], repaired: [], withoutPassword: [] };
    const commands: DynsecCommand[] = [];

    for (const [networkId, secret] of wanted) {
      const role = gatewayRole(networkId);
      if (!roleNames.has(role))
        commands.push({ command: 'createRole', rolename: role, acls: gatewayAcls(networkId) });
      const client = clientByName.get(networkId);
      if (!client) {
        if (secret === null) {
          drift.withoutPassword.push(networkId);
          continue;
        }
        commands.push({
          command: 'createClient',
          username: networkId,
          password: this.options.box.open(secret),
          textname: 'Roost gateway',
          roles: [{ rolename: role }],
        });
        drift.created.push(networkId);
        continue;
      }
      const held = (client.roles ?? []).map((r) => r.rolename);
      const foreign = held.filter((r) => r !== role);
      let repaired = false;
      for (const rolename of foreign) {
        commands.push({ command: 'removeClientRole', username: networkId, rolename });
        repaired = true;
      }
      if (!held.includes(role)) {
        commands.push({ command: 'addClientRole', username: networkId, rolename: role });
        repaired = true;
      }
      if (client.disabled) {
        commands.push({ command: 'enableClient', username: networkId });
        repaired = true;
      }
      if (repaired) drift.repaired.push(networkId);
    }
    for (const client of clients) {
      const ours = (client.roles ?? []).some((r) => r.rolename.startsWith(GATEWAY_ROLE_PREFIX));
      if (ours && !wanted.has(client.username)) {
        commands.push({ command: 'deleteClient', username: client.username });
        drift.removed.push(client.username);
      }
    }
    for (const role of roleNames) {
      if (!role.startsWith(GATEWAY_ROLE_PREFIX)) continue;
      if (wanted.has(role.slice(GATEWAY_ROLE_PREFIX.length))) continue;
      commands.push({ command: 'deleteRole', rolename: role });
      if (!drift.removed.includes(role.slice(GATEWAY_ROLE_PREFIX.length)))
        drift.removed.push(role.slice(GATEWAY_ROLE_PREFIX.length));
    }
    for (let i = 0; i < commands.length; i += BATCH) {
      const answers = await this.control.send(commands.slice(i, i + BATCH));
      const failed = answers.find((a) => a.error && !/exist/i.test(a.error));
      if (failed) throw new DynsecError(failed.command, failed.error!);
    }
    return drift;
  }

  private async listAll<T>(command: string, key: string): Promise<T[]> {
    const data = await this.control.run({ command, verbose: true, count: -1, offset: 0 });
    return (data[key] as T[] | undefined) ?? [];
  }
}
