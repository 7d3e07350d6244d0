import { gatewayKind, isGatewayTypeKey } from '../../src/contract/gatewayTypes';
import type { DemoGateway } from '../demo/seed';
import { ConfigAgent, type ConfigAgentOptions } from './configAgent';
import { GatewayLink, type GatewayIdentity } from './gatewayLink';
import { createFleet, type HouseModel } from './houseModel';
import { hashString } from './random';
import { LogAgent } from './logAgent';
import { UpgradeAgent, type UpgradeAgentOptions } from './upgradeAgent';

export interface SimulatorOptions {
  /** mqtt://host:port (also mqtts, tcp, ws, wss). */
  url: string;
  /**
   * For mqtts:// and wss://: the certificate authority the broker's certificate must chain to
   * (PEM), when it is not one the system trusts (a self-signed or private CA).
   */
  ca?: Buffer;
  gateways: DemoGateway[];
  /** Time between two readings of one gateway. */
  intervalMs: number;
  seed: number;
  /**
   * House models to carry on with, one per gateway in the same order (a new demo's history
   * ends where they stand): the live readings continue its curves without a jump.
   */
  models?: HouseModel[];
  /** A connection error, once per gateway and distinct message until it connects again. */
  onError?: (error: Error) => void;
  /** The controllers' timing (apply delay, local changes); tests make them quick and quiet. */
  controller?: ConfigAgentOptions;
  /** How upgrades go (speed, refusals, failures); tests make them quick and certain. */
  upgrade?: UpgradeAgentOptions;
}

/** One simulated gateway, for tests that hold it offline or change it at its keypad. */
export interface SimulatedGateway {
  controller: ConfigAgent;
  /** Holds the gateway off the network (true) until released (false). */
  holdOffline(offline: boolean): void;
  readonly connected: boolean;
  /** The firmware version it runs now. */
  readonly version: string;
}

export interface SimulatorStats {
  gateways: number;
  /** Gateways connected to the broker now. */
  connected: number;
  /** Connections made since the start, reconnects included. */
  connects: number;
  /** Readings the house models made. */
  readings: number;
  /** Readings the broker acknowledged. */
  sent: number;
  /** Messages waiting for an acknowledgement (readings and controller events). */
  queued: number;
  /** Messages sent again because a publish failed or its connection was lost unacknowledged. */
  requeued: number;
  /** Readings dropped because a gateway's outbox was full. */
  dropped: number;
  /** Gateways held off the network by an offline fault. */
  offline: number;
  /** Gateways the broker refused (wrong network id or token): they do not retry. */
  refused: number;
  /** Connection errors seen, repeats included. */
  errors: number;
}

export interface RunningSimulator {
  stop(): Promise<void>;
  stats(): SimulatorStats;
  gateway(networkId: string): SimulatedGateway | undefined;
}

const PROTOCOLS = ['mqtt:', 'mqtts:', 'tcp:', 'ws:', 'wss:'];

/**
 * Simulated gateways: one house model and one MQTT connection per demo gateway, one reading
 * per gateway per interval, the gateways staggered evenly over the interval. Resolves once
 * every gateway has started connecting; a broker that is not there yet is retried.
 */
export async function startSimulator(options: SimulatorOptions): Promise<RunningSimulator> {
  const { url, gateways, intervalMs, seed } = options;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`not a broker URL: ${url}`);
  }
  if (!PROTOCOLS.includes(parsed.protocol)) {
    throw new Error(`broker URL must start with ${PROTOCOLS.map((p) => `${p}//`).join(', ')}`);
  }
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) {
    throw new Error('intervalMs must be a positive number');
  }
  const onError = options.onError ?? (() => undefined);
  const startMs = Date.now();
  const models = options.models ?? createFleet(gateways, seed, startMs, intervalMs);
  if (models.length !== gateways.length) throw new Error('one house model per gateway');
  const links = gateways.map(
    (gateway) => new GatewayLink(url, identityOf(gateway), onError, options.ca),
  );
  const controllers = gateways.map(
    (gateway, i) => new ConfigAgent(gateway.typeKey, links[i]!, options.controller),
  );
  const upgraders = gateways.map(
    (gateway, i) => new UpgradeAgent(links[i]!, gateway.token, options.upgrade),
  );
  const logs = links.map((link) => new LogAgent(link));
  const held = new Set<number>();
  let readings = 0;
  const timers: NodeJS.Timeout[] = [];
  const tick = (index: number) => {
    const step = models[index]!.next(Date.now());
    const link = links[index]!;
    readings += 1;
    link.setOfflineFault(step.offline || held.has(index));
    controllers[index]!.tick();
    link.enqueue('telemetry', step.message);
    // Now and then the climate, as a controller logs it.
    if (readings % 10 === index % 10) logs[index]!.note(climateLine(step.message));
    for (const event of step.events) link.enqueue('event', event);
  };

  links.forEach((link, index) => {
    link.start();
    // Stagger: gateway i reads at i/N of the interval, so N gateways never publish together.
    const offsetMs = (index / Math.max(1, links.length)) * intervalMs;
    timers.push(
      setTimeout(() => {
        tick(index);
        timers.push(setInterval(() => tick(index), intervalMs));
      }, offsetMs),
    );
  });

  let stopping: Promise<void> | null = null;
  return {
    stop() {
      stopping ??= (async () => {
        for (const timer of timers) clearTimeout(timer);
        for (const controller of controllers) controller.stop();
        for (const upgrader of upgraders) upgrader.stop();
        for (const log of logs) log.stop();
        await Promise.all(links.map((link) => link.stop()));
      })();
      return stopping;
    },
    gateway(networkId) {
      const index = gateways.findIndex((g) => g.networkId === networkId);
      if (index < 0) return undefined;
      const link = links[index]!;
      return {
        controller: controllers[index]!,
        holdOffline(offline) {
          if (offline) held.add(index);
          else held.delete(index);
          link.setOfflineFault(offline);
        },
        get connected() {
          return link.connected;
        },
        get version() {
          return link.version;
        },
      };
    },
    stats() {
      const stats: SimulatorStats = {
        gateways: links.length,
        connected: 0,
        connects: 0,
        readings,
        sent: 0,
        queued: 0,
        requeued: 0,
        dropped: 0,
        offline: 0,
        refused: 0,
        errors: 0,
      };
      for (const link of links) {
        if (link.connected) stats.connected += 1;
        if (link.state === 'faultOffline') stats.offline += 1;
        if (link.state === 'refused') stats.refused += 1;
        stats.connects += link.counters.connects;
        stats.sent += link.counters.sent;
        stats.queued += link.outbox.size;
        stats.requeued += link.outbox.requeued;
        stats.dropped += link.outbox.droppedReadings;
        stats.errors += link.counters.errors;
      }
      return stats;
    },
  };
}

/**
 * What a gateway says about itself in its status. The version mirrors the demo seed's (3.2.1
 * for the AI6000, 2.8.4 for the others); collectors and alarm units, and some controllers,
 * report over the mobile network.
 */
function identityOf(gateway: DemoGateway): GatewayIdentity {
  const kind = isGatewayTypeKey(gateway.typeKey) ? gatewayKind(gateway.typeKey) : 'controller';
  const wireless = kind !== 'controller' || hashString(gateway.networkId) % 4 === 0;
  return {
    networkId: gateway.networkId,
    token: gateway.token,
    network: wireless ? 'wireless' : 'wired',
    version: gateway.typeKey === 60 ? '3.2.1' : '2.8.4',
  };
}

/** "climate 24.1 ℃ 62 % CO2 1450 ppm": what a controller writes to its log now and then. */
function climateLine(message: unknown): string {
  const metrics = (message as { metrics?: Record<string, number> }).metrics ?? {};
  const parts = [
    metrics.temperature === undefined ? null : `${metrics.temperature.toFixed(1)} ℃`,
    metrics.humidity === undefined ? null : `${Math.round(metrics.humidity)} %`,
    metrics.co2 === undefined ? null : `CO2 ${Math.round(metrics.co2)} ppm`,
  ].filter((p) => p !== null);
  return `climate ${parts.join(' ')}`;
}
