import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * docs/gateway-protocol.md read as a firmware team reads it: topics, flags, examples, the will,
 * the subscription, the download request and the broker ACL, taken from the page's text and
 * nothing else. A gateway test built on this reader fails when the page leaves out something a
 * gateway needs.
 */

const DOC = path.resolve(import.meta.dirname, '../../docs/gateway-protocol.md');

export interface DocTopic {
  kind: string;
  /** With `{networkId}` in it. */
  topic: string;
  toServer: boolean;
  qos: number;
  retained: boolean;
  example: Record<string, unknown>;
}

export interface GatewayDoc {
  topics: Map<string, DocTopic>;
  will: { topic: string; payload: string; qos: number; retain: boolean };
  /** A wildcard filter below the gateway's own id that the page says is accepted. */
  wildcard: string;
  /** The download request's header line, with `<device token>` to fill in. */
  downloadHeader: { name: string; value: string };
  /** The lines of the external broker's ACL file. */
  acl: string[];
}

function section(page: string, heading: string): string {
  const start = page.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`the page has no "${heading}"`);
  const next = page.slice(start + heading.length).search(/\n#{2,3} /);
  return next < 0 ? page.slice(start) : page.slice(start, start + heading.length + next);
}

const block = (text: string, lang: string) => {
  const match = text.match(new RegExp('```' + lang + '\\n([^]*?)\\n```'));
  if (!match) throw new Error(`no ${lang} block`);
  return match[1]!;
};

export function readGatewayDoc(): GatewayDoc {
  const page = readFileSync(DOC, 'utf8');
  const topics = new Map<string, DocTopic>();
  for (const match of page.matchAll(/\n### ([a-z/]+)\n/g)) {
    const kind = match[1]!;
    const text = section(page, `### ${kind}`);
    const topic = text.match(/- Topic: `([^`]+)`/)?.[1];
    const direction = text.match(
      /- Direction: (gateway → server|server → gateway), QoS (\d)(, retained)?/,
    );
    if (!topic || !direction) continue;
    topics.set(kind, {
      kind,
      topic,
      toServer: direction[1] === 'gateway → server',
      qos: Number(direction[2]),
      retained: direction[3] !== undefined,
      example: JSON.parse(block(text, 'json')) as Record<string, unknown>,
    });
  }
  const steps = section(page, '## A session, step by step');
  const will = steps.match(
    /the will: topic\s+`([^`]+)`, payload\s+`([^`]+)`, QoS (\d),\s+(retained)?/,
  );
  if (!will) throw new Error('the page does not say what the will is');
  const subscribing = section(page, '## Subscribing');
  const wildcard = [...subscribing.matchAll(/`([^`]+\/#)`/g)]
    .map((m) => m[1]!)
    .find((f) => f.includes('{networkId}'));
  if (!wildcard) throw new Error('the page names no wildcard a gateway may subscribe to');
  const request = block(section(page, '## Downloading an upgrade'), 'http').split('\n');
  const header = request.find((line) => /^authorization:/i.test(line));
  if (!header) throw new Error('the page names no header for the download');
  const acl = block(section(page, '## External broker: sign-in and ACL'), 'text')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  return {
    topics,
    will: {
      topic: will[1]!,
      payload: will[2]!,
      qos: Number(will[3]),
      retain: will[4] === 'retained',
    },
    wildcard,
    downloadHeader: {
      name: header.slice(0, header.indexOf(':')),
      value: header.slice(header.indexOf(':') + 1).trim(),
    },
    acl,
  };
}

/** A documented topic for one gateway. */
export function topicFor(doc: GatewayDoc, kind: string, networkId: string): string {
  const topic = doc.topics.get(kind);
  if (!topic) throw new Error(`the page documents no topic ${kind}`);
  return topic.topic.replace('{networkId}', networkId);
}
