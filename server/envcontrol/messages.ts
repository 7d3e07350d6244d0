import { DEVICE_LOG_LINES, type ConfigSet, type LogGet } from '../../src/contract/gateway';
import type { Db } from '../db/client';
import { upgradeOrder } from '../upgrade/commands';

/** A stored command not finished yet, as the dispatcher reads it to send. */
export interface OpenCommand {
  id: string;
  kind: string;
  gatewayId: number;
  networkId: string;
  params: unknown;
  expiresAt: Date;
  state: string;
}

export interface CommandMessage {
  topic: 'config/set' | 'upgrade' | 'log/get';
  payload: string;
}

/**
 * What sends a command: its topic and payload by kind; null when it cannot go yet (an upgrade
 * while the server does not know where gateways download from, or without its upgrade row).
 */
export async function commandMessage(
  db: Db,
  command: OpenCommand,
  downloadBase: string | null,
): Promise<CommandMessage | null> {
  if (command.kind === 'log')
    return {
      topic: 'log/get',
      payload: JSON.stringify({ id: command.id, lines: DEVICE_LOG_LINES } satisfies LogGet),
    };
  if (command.kind === 'upgrade') {
    if (!downloadBase) return null;
    const order = await upgradeOrder(
      db,
      { id: command.id, gatewayId: command.gatewayId, networkId: command.networkId },
      downloadBase,
    );
    return order ? { topic: 'upgrade', payload: JSON.stringify(order) } : null;
  }
  const params = (
    typeof command.params === 'string' ? JSON.parse(command.params) : command.params
  ) as Record<string, number>;
  const payload = JSON.stringify({
    id: command.id,
    params,
    expiresAt: command.expiresAt.toISOString(),
  } satisfies ConfigSet);
  return { topic: 'config/set', payload };
}
