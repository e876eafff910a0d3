import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * No server-side request forgery (docs/api.md#how-delivery-works, Targets): a webhook may not reach this host's own
 * network. An address is allowed only when ipaddr.js (a maintained table of the IANA special-purpose registries) calls
 * it ordinary unicast; so refused are loopback, private, carrier-grade NAT, link-local (where the cloud metadata
 * services live), unique-local, multicast, broadcast, reserved, documentation and benchmarking ranges, and the like. An
 * IPv6 address that carries an IPv4 one is judged by the IPv4 it carries, in every embedding the registries name
 * (below), since a translator or tunnel on the way may deliver it to that IPv4 address.
 */
const { IPv4, IPv6 } = ipaddr;
type V4 = InstanceType<typeof IPv4>;
type V6 = InstanceType<typeof IPv6>;

/** Cloud platform endpoints outside every special range: Azure's (the others sit in link-local or CGNAT). */
const PLATFORM_IPV4 = new Set(['168.63.129.16']);

function forbiddenIpv4(v4: V4): boolean {
  return v4.range() !== 'unicast' || PLATFORM_IPV4.has(v4.toString());
}

/** The IPv4 address in 4 of the IPv6 address's bytes, from `at` (Teredo stores its client's with every bit flipped). */
function ipv4At(bytes: number[], at: number, flipped = false): V4 {
  return new IPv4(bytes.slice(at, at + 4).map((b) => (flipped ? b ^ 0xff : b)));
}

function forbiddenIpv6(v6: V6): boolean {
  const bytes = v6.toByteArray();
  // range() names the block; the d.ts lists fewer names than the table holds, hence the widening to string.
  switch (v6.range() as string) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d (RFC 4291)
    case 'rfc6145': // ::ffff:0:a.b.c.d, IPv4-translated (RFC 6145)
      return forbiddenIpv4(ipv4At(bytes, 12));
    case 'rfc6052':
      // NAT64: the well-known prefix 64:ff9b::/96 carries the IPv4 in its last 32 bits; the local-use prefix
      // 64:ff9b:1::/48 (RFC 8215) leads to an operator's own translator, the IPv4 wherever its prefix length puts
      // it: refused whole.
      return v6.parts[2] !== 0 || forbiddenIpv4(ipv4At(bytes, 12));
    case '6to4': // 2002:AABB:CCDD::/48 (RFC 3056)
      return forbiddenIpv4(ipv4At(bytes, 2));
    case 'teredo': // 2001:0:server:flags:port:client (RFC 4380), both ends checked
      return forbiddenIpv4(ipv4At(bytes, 4)) || forbiddenIpv4(ipv4At(bytes, 12, true));
    case 'unicast':
      // IPv4-compatible ::a.b.c.d (deprecated by RFC 4291; never a real destination): refused whole.
      if (bytes.slice(0, 12).every((b) => b === 0)) return true;
      // ISATAP (RFC 5214): an interface id of 0000:5efe or 0200:5efe followed by the IPv4 address.
      if ((bytes[8]! & 0xfd) === 0 && bytes[9] === 0 && bytes[10] === 0x5e && bytes[11] === 0xfe)
        return forbiddenIpv4(ipv4At(bytes, 12));
      return false;
    default:
      return true;
  }
}

export function isForbiddenAddress(ip: string): boolean {
  const family = isIP(ip); // strict: no `127.1` or `0x7f.1`, which URL parsing has already normalised anyway
  if (family === 4) return forbiddenIpv4(IPv4.parse(ip));
  if (family === 6) {
    // Through the URL parser's canonical form first: ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d`, a different
    // address. A zone (`%eth0`) names an interface, not an address, and URLs cannot carry one.
    return forbiddenIpv6(IPv6.parse(new URL(`http://[${ip.split('%')[0]}]/`).hostname.slice(1, -1)));
  }
  return true; // not an address at all: never connect to it
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
export class TargetRefused extends Error {
  /** Refused for where it leads (a private, loopback or link-local address), not for failing to resolve. */
  readonly privateTarget: boolean;
  constructor(message: string, privateTarget = false) {
    super(message);
    this.privateTarget = privateTarget;
  }
}

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
    throw new TargetRefused(`the host ${host} is or resolves to a private, loopback or link-local address`, true);
  return addresses[0]!;
}
