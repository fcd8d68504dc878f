import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Where a webhook may be sent (the SSRF rules): the webhook service applies them to every attempt
 * (and to each address the name resolves to), auth to a URL when it is set, so a production
 * partner cannot register a private, loopback or otherwise special address at all.
 */

/** Where an IP address leads. Only `public` may be a production webhook target. */
export type AddressClass = 'public' | 'private' | 'loopback' | 'link-local' | 'unspecified' | 'multicast' | 'reserved' | 'invalid';

type Family = 'ipv4' | 'ipv6';
type Range = readonly [network: string, prefix: number];

/** Ranges by class (RFC 6890 special-purpose registries); anything else is public. */
const ranges: Readonly<Record<Exclude<AddressClass, 'public' | 'invalid'>, Readonly<Record<Family, readonly Range[]>>>> = {
  unspecified: { ipv4: [['0.0.0.0', 8]], ipv6: [['::', 128]] },
  loopback: { ipv4: [['127.0.0.0', 8]], ipv6: [['::1', 128]] },
  private: {
    // RFC 1918, carrier-grade NAT (RFC 6598) and IPv6 unique local addresses.
    ipv4: [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['100.64.0.0', 10]],
    ipv6: [['fc00::', 7]],
  },
  'link-local': { ipv4: [['169.254.0.0', 16]], ipv6: [['fe80::', 10]] },
  multicast: { ipv4: [['224.0.0.0', 4]], ipv6: [['ff00::', 8]] },
  reserved: {
    // IETF protocol assignments, documentation, benchmarking, 240/4 (with broadcast).
    ipv4: [['192.0.0.0', 24], ['192.0.2.0', 24], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['240.0.0.0', 4]],
    // Discard-only, Teredo, documentation, deprecated site-local, IPv4-compatible (deprecated).
    ipv6: [['100::', 64], ['2001::', 32], ['2001:db8::', 32], ['fec0::', 10], ['::', 96]],
  },
};

const blockLists = new Map<Exclude<AddressClass, 'public' | 'invalid'>, BlockList>(
  Object.entries(ranges).map(([name, byFamily]) => {
    const list = new BlockList();
    for (const [network, prefix] of byFamily.ipv4) list.addSubnet(network, prefix, 'ipv4');
    for (const [network, prefix] of byFamily.ipv6) list.addSubnet(network, prefix, 'ipv6');
    return [name as Exclude<AddressClass, 'public' | 'invalid'>, list];
  }),
);

/**
 * Classifies an IP literal. IPv6 forms that carry an IPv4 address (IPv4-mapped ::ffff:a.b.c.d,
 * NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by that IPv4 address, since that is where
 * the packets end up. A zone id (fe80::1%eth0) is ignored.
 */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0] ?? '';
  if (isIPv4(bare)) return classifyIn(bare, 'ipv4');
  if (!isIPv6(bare)) return 'invalid';
  const embedded = embeddedIPv4(bare);
  if (embedded !== undefined) return classifyIn(embedded, 'ipv4');
  return classifyIn(bare, 'ipv6');
}

export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === 'public';
}

function classifyIn(address: string, family: Family): AddressClass {
  for (const [name, list] of blockLists) if (list.check(address, family)) return name;
  return 'public';
}

/** The IPv4 address inside an IPv4-mapped, NAT64 or 6to4 IPv6 address; undefined for any other. */
function embeddedIPv4(address: string): string | undefined {
  const groups = expandIPv6(address);
  if (!groups) return undefined;
  const isMapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  const isNat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0);
  if (isMapped || isNat64) return ipv4FromGroups(groups[6] ?? 0, groups[7] ?? 0);
  if (groups[0] === 0x2002) return ipv4FromGroups(groups[1] ?? 0, groups[2] ?? 0);
  return undefined;
}

function ipv4FromGroups(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** Eight 16-bit groups of a valid IPv6 literal (handles "::" and a trailing dotted IPv4). */
function expandIPv6(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const octets = dotted[1].split('.').map(Number);
    const [a = 0, b = 0, c = 0, d = 0] = octets;
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return undefined;
  const groups = [...headGroups, ...Array.from({ length: missing }, () => '0'), ...tailGroups].map((group) => Number.parseInt(group, 16));
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : undefined;
}

export interface TargetPolicy {
  /** Production: only https URLs. */
  requireHttps: boolean;
  /** Sandbox: local receivers are fine. Production: only public addresses. */
  allowPrivateTargets: boolean;
}

/** Why a webhook URL may not be called at all (before any lookup), or undefined when it may. */
export function urlProblem(url: string, policy: TargetPolicy): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'target refused: not a valid URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'target refused: only http(s) URLs';
  if (policy.requireHttps && parsed.protocol !== 'https:') return 'target refused: https required';
  if (parsed.username !== '' || parsed.password !== '') return 'target refused: credentials in the URL';
  return undefined;
}

/** Why a resolved (or literal) address may not be connected to, or undefined when it may. */
export function addressProblem(address: string, policy: TargetPolicy): string | undefined {
  if (policy.allowPrivateTargets) return undefined;
  const addressClass = classifyAddress(address);
  return addressClass === 'public' ? undefined : `target refused: ${addressClass} address`;
}

/** A host that is an IP literal or names this machine (localhost, *.localhost): judged without any lookup. */
export function literalHostProblem(hostname: string, policy: TargetPolicy): string | undefined {
  if (policy.allowPrivateTargets) return undefined;
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'target refused: loopback address';
  const bare = host.replace(/^\[|\]$/g, '');
  return isIPv4(bare) || isIPv6(bare) ? addressProblem(bare, policy) : undefined;
}
