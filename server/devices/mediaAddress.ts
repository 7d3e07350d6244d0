import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Which addresses the camera relay may fetch from. The relay returns what it fetched, so an
 * address a camera names must not reach the server itself, the cloud's metadata service or the
 * farm's other machines unless an administrator said so (ROOST_MEDIA_ALLOW, or the origin of
 * ROOST_MEDIA_URL, which is an administrator's setting by definition: that scheme, host and port
 * only, not every service of its host). The check is made on the
 * resolved address, and the caller connects to exactly that address (no second lookup).
 */

/** Refused unless allowed: loopback, link-local and metadata, unspecified, private, multicast. */
const REFUSED_RANGES: Array<[string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['224.0.0.0', 3, 'ipv4'],
  // ::, ::1 and the old IPv4-compatible form.
  ['::', 96, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  // Unique local, fd00:ec2::254 (a cloud's metadata service) included.
  ['fc00::', 7, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

/** One entry of ROOST_MEDIA_ALLOW: an address, a CIDR range or a host name. */
const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)*$/i;

/** Why an entry of ROOST_MEDIA_ALLOW is not understood; null when it is. */
export function badAllowEntry(entry: string): string | null {
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return entry;
  const family = isIP(address);
  if (bits === undefined) return family || HOST_NAME.test(address) ? null : entry;
  const max = family === 4 ? 32 : family === 6 ? 128 : 0;
  return max > 0 && /^\d{1,3}$/.test(bits) && Number(bits) <= max ? null : entry;
}

export class MediaAddressRefused extends Error {}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** `::ffff:127.0.0.1` and `::ffff:7f00:1` are IPv4 addresses and are judged as such. */
function plain(address: string): ResolvedAddress {
  const mapped = /^::ffff:(.+)$/i.exec(address)?.[1];
  if (mapped && isIP(mapped) === 4) return { address: mapped, family: 4 };
  const hex = mapped && /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(mapped);
  if (hex) {
    const n = (parseInt(hex[1]!, 16) << 16) | parseInt(hex[2]!, 16);
    return { address: [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.'), family: 4 };
  }
  return { address, family: isIP(address) === 4 ? 4 : 6 };
}

export class MediaAddressRule {
  private readonly refused = new BlockList();
  private readonly allowed = new BlockList();
  private readonly hosts = new Set<string>();
  private readonly mediaOrigin: string | null;

  /** `allow`: ROOST_MEDIA_ALLOW's entries; `mediaUrl`: ROOST_MEDIA_URL, whose origin is allowed. */
  constructor(allow: readonly string[], mediaUrl: string | null) {
    for (const [net, bits, type] of REFUSED_RANGES) this.refused.addSubnet(net, bits, type);
    this.mediaOrigin = mediaUrl ? new URL(mediaUrl).origin : null;
    for (const entry of allow) {
      const [address = '', bits] = entry.split('/');
      const family = isIP(address);
      if (!family) this.hosts.add(address.toLowerCase());
      else if (bits === undefined) this.allowed.addAddress(address, family === 4 ? 'ipv4' : 'ipv6');
      else this.allowed.addSubnet(address, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
    }
  }

  /** Whether `address`, reached under the name `host`, may be fetched. */
  permits(host: string, address: string): boolean {
    if (this.hosts.has(host.toLowerCase())) return true;
    const ip = plain(address);
    const type = ip.family === 4 ? 'ipv4' : 'ipv6';
    if (this.allowed.check(ip.address, type) || this.allowed.check(address, 'ipv6')) return true;
    return !this.refused.check(ip.address, type);
  }

  /** The address to connect to for `url`: resolved once, checked, refused if none may be used. */
  async resolve(url: URL): Promise<ResolvedAddress> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const candidates = isIP(host)
      ? [{ address: host, family: isIP(host) as 4 | 6 }]
      : ((await lookup(host, { all: true })) as ResolvedAddress[]);
    const usable =
      url.origin === this.mediaOrigin
        ? candidates[0]
        : candidates.find((c) => this.permits(host, c.address));
    if (!usable) throw new MediaAddressRefused(host);
    return usable;
  }
}
