import type { PublishPacket } from 'aedes';
import type { EmbeddedBroker } from '../mqtt/broker';
import type { GatewayPublish } from './dispatcher';

export type { GatewayPublish } from './dispatcher';

/** Publishes a command through the embedded broker at QoS 1, to the gateway's subscription. */
export function embeddedPublish(broker: EmbeddedBroker): GatewayPublish {
  return (topic, payload) =>
    new Promise<void>((resolve, reject) => {
      const packet = {
        cmd: 'publish',
        topic,
        payload: Buffer.from(payload),
        qos: 1,
        retain: false,
        dup: false,
      } as PublishPacket;
      broker.aedes.publish(packet, (error) => (error ? reject(error) : resolve()));
    });
}
