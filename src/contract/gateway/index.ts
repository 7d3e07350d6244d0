/**
 * The gateway contract: every MQTT topic a gateway publishes or subscribes to, its direction,
 * QoS, retain rule and byte cap, and its payload's schema. The server, the simulator and any
 * other gateway program use this module; docs/gateway-protocol.md is generated from it
 * (`npm run gateway-doc`).
 */
export * from './topics';
export * from './telemetry';
export * from './plainTelemetry';
export * from './status';
export * from './config';
export * from './upgrade';
export * from './deviceLog';
export * from './catalogue';
