import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * No server-side request forgery (CONTRACT §12): a webhook may not reach this host's own network. The addresses
 * refused: loopback, private, carrier-grade NAT, link-local (where the cloud metadata services live), unique-local,
 * multicast, reserved and documentation ranges, and IPv4 hidden inside IPv6 (mapped, NAT64).
 */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT; Alibaba's metadata service is 100.100.100.200
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local; AWS, GCP and Azure metadata at 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
blocked.addAddress('168.63.129.16', 'ipv4'); // Azure's platform endpoint, outside any private range
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

/** The 16 bytes of an IPv6 address (`::` and a trailing dotted quad expanded). */
function ipv6Bytes(ip: string): number[] {
  let text = ip.split('%')[0]!;
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -quad[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.flatMap((g) => [(Number.parseInt(g, 16) >> 8) & 255, Number.parseInt(g, 16) & 255]);
}

/** The IPv4 address an IPv6 one carries (IPv4-mapped `::ffff:a.b.c.d` or NAT64 `64:ff9b::a.b.c.d`), if any. */
function embeddedIpv4(ip: string): string | null {
  const b = ipv6Bytes(ip);
  const mapped = b.slice(0, 10).every((x) => x === 0) && b[10] === 255 && b[11] === 255;
  const nat64 = b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && b.slice(4, 12).every((x) => x === 0);
  return mapped || nat64 ? b.slice(12).join('.') : null;
}

export function isForbiddenAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return blocked.check(ip, 'ipv4');
  if (family !== 6) return true; // not an address at all: never connect to it
  const v4 = embeddedIpv4(ip);
  return v4 !== null ? blocked.check(v4, 'ipv4') : blocked.check(ip, 'ipv6');
}

export interface Resolved {
  address: string;
  family: 4 | 6;
}

/** Name resolution, injected so that tests can make any name resolve anywhere without asking a DNS server. */
export type Resolver = (hostname: string) => Promise<Resolved[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family as 4 | 6,
  }));

/** A host refused as a target; the message says why, for the API's detail and the delivery log. */
export class TargetRefused extends Error {}

/**
 * Resolves the URL's host and checks every address it gives (one bad answer refuses the host: the resolver could
 * hand it out next time). Returns the address to connect to, so that the connection goes where the check looked.
 */
export async function checkTarget(url: URL, resolve: Resolver, allowPrivate: boolean): Promise<Resolved> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  let addresses: Resolved[];
  if (literal !== 0) addresses = [{ address: host, family: literal as 4 | 6 }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new TargetRefused(`the host ${host} could not be resolved`);
    }
  }
  if (addresses.length === 0) throw new TargetRefused(`the host ${host} could not be resolved`);
  const bad = addresses.find((a) => isForbiddenAddress(a.address));
  if (bad !== undefined && !allowPrivate)
    throw new TargetRefused(`the host ${host} is or resolves to a private, loopback or link-local address`);
  return addresses[0]!;
}
