import {
  GATEWAY_CONTRACT,
  GATEWAY_PUBLISHES,
  GATEWAY_SUBSCRIBES,
  TOPIC_ROOT,
  UPGRADE_TOKEN_SECONDS,
  type GatewayTopic,
} from '../src/contract/gateway';

/**
 * The parts of docs/gateway-protocol.md a firmware team needs beyond the payloads: a whole
 * session on the wire, what may be subscribed, the upgrade download, and an external broker's
 * ACL. A gateway built from the README alone once subscribed to `roost/v1/<id>/#` and was
 * dropped without a reason, sent its download without the bearer token, and met an ACL that
 * blocked four of its topics; everything below is made from the contract module, so it cannot
 * name a topic the server does not use.
 */

const code = (text: string) => `\`${text}\``;
const EXAMPLE_ID = 'GW-0001';
const topicOf = (kind: GatewayTopic, id = '{networkId}') => `${TOPIC_ROOT}/${id}/${kind}`;
const exampleOf = (kind: GatewayTopic) =>
  JSON.stringify(GATEWAY_CONTRACT.find((t) => t.kind === kind)!.example);

/** The will, as the broker must be told it on CONNECT. */
export const WILL = { topic: 'status', payload: { online: false }, qos: 1, retain: true } as const;

export function sessionSection(): string {
  const commands = GATEWAY_SUBSCRIBES.map((kind) => `-t ${topicOf(kind, EXAMPLE_ID)}`).join(' ');
  return `## A session, step by step

1. **CONNECT** with client id, user name and password as above, and the will: topic
   ${code(topicOf(WILL.topic))}, payload ${code(JSON.stringify(WILL.payload))}, QoS ${WILL.qos},
   retained.
2. **SUBSCRIBE** at QoS 1 to the command topics (see _Subscribing_ below) and wait for the SUBACK.
3. **PUBLISH** the retained status ${code(exampleOf('status'))} on ${code(topicOf('status'))}.
4. **PUBLISH** the controller's whole parameter set on ${code(topicOf('config/report'))}
   (${code('source: "device"')}), then readings on ${code(topicOf('telemetry'))} at the gateway's
   interval, and whatever was not acknowledged before.
5. **Answer** each command on its answer topic with the command's id: ${GATEWAY_CONTRACT.filter(
    (t) => t.direction === 'server → gateway' && t.pairedWith,
  )
    .map((t) => `${code(t.kind)} → ${code(t.pairedWith!)}`)
    .join(', ')}.
6. **Before a deliberate disconnect**, publish the retained status ${code(JSON.stringify(WILL.payload))}
   (the will covers every other ending).

The same session with Mosquitto's command-line clients (a listener in one shell, the status in
another):

\`\`\`sh
mosquitto_sub -h roost.example.com -i ${EXAMPLE_ID} -u ${EXAMPLE_ID} -P "$DEVICE_TOKEN" -q 1 -v \\
  --will-topic ${topicOf(WILL.topic, EXAMPLE_ID)} --will-payload '${JSON.stringify(WILL.payload)}' --will-qos 1 --will-retain \\
  ${commands}
mosquitto_pub -h roost.example.com -i ${EXAMPLE_ID}-pub -u ${EXAMPLE_ID} -P "$DEVICE_TOKEN" -q 1 -r \\
  -t ${topicOf('status', EXAMPLE_ID)} -m '${exampleOf('status')}'
\`\`\``;
}

export function subscribingSection(): string {
  return `## Subscribing

- Subscribe at QoS 1 to your own command topics: ${GATEWAY_SUBSCRIBES.map((k) => code(topicOf(k))).join(', ')}.
- Or to one wildcard below your own network id, such as ${code(`${TOPIC_ROOT}/{networkId}/#`)}:
  Roost's embedded broker accepts it and forwards only these command topics through it (never
  your own messages, nor your retained status).
- Any other filter is refused in the SUBACK with return code ${code('0x80')} (128, failure), and
  the connection stays open: another gateway's topics (${code(`${TOPIC_ROOT}/+/config/set`)},
  ${code('#')}), or a filter that matches no command (${code(topicOf('telemetry'))}). The server
  logs the refusal (${code('badTopic')}).
- Publish only to your own topics of the table below; MQTT 3.1.1 cannot refuse a PUBLISH, so a
  message to any other topic ends the connection.
- On an external broker its ACL decides (_External broker_ below): subscribe to the three
  command topics themselves.`;
}

export function downloadSection(): string {
  return `## Downloading an upgrade

The ${code('upgrade')} order's ${code('url')} is fetched with an HTTP GET carrying the gateway's
device token (the password it signs in with):

\`\`\`http
GET <url>
Authorization: Bearer <device token>
\`\`\`

The link works once and for ${UPGRADE_TOKEN_SECONDS} s after it was sent; an order sent again
carries a new one.

| answer | meaning |
| --- | --- |
| 200 | the file (${code('application/octet-stream')}, header ${code('x-content-sha256')}): check its size and SHA-256 against the order before installing |
| 401 | the device token or network id is wrong (or the header is missing) |
| 403 | the link was used already, has expired, or its upgrade has finished |
| 404 | no such link, or the file is no longer stored |

A refusal answers JSON ${code('{ "success": false, "code": …, "msg": "…" }')}; report it on
${code('upgrade/progress')} as ${code('failed')} with the ${code('msg')} as the reason.`;
}

export function externalBrokerSection(): string {
  const writes = GATEWAY_PUBLISHES.map((kind) => `pattern write ${topicOf(kind, '%u')}`);
  const reads = GATEWAY_SUBSCRIBES.map((kind) => `pattern read ${topicOf(kind, '%u')}`);
  return `## External broker: sign-in and ACL

With an external broker (Roost's ${code('MQTT_URL')}) the broker signs gateways in and holds
them to their topics. Give each gateway a user named by its network id with its device token as
password, and Roost's own user (the one in ${code('MQTT_URL')}) every topic under
${code(`${TOPIC_ROOT}/#`)} (it subscribes through ${code('$share/roost/…')}). A Mosquitto
${code('acl_file')} that gives every gateway exactly the topics of this protocol:

\`\`\`text
# Every gateway, user name = its network id (%u): what it publishes …
${writes.join('\n')}
# … and the commands it receives.
${reads.join('\n')}

# Roost itself (the user in MQTT_URL).
user roost
topic readwrite ${TOPIC_ROOT}/#
\`\`\``;
}
