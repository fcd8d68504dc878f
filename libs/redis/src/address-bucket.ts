/**
 * The key an address's failures count under. An IPv6 client usually controls a whole /64 and can
 * take a new address per request, so IPv6 addresses share their /64's count; IPv4 addresses
 * (also written IPv4-mapped in IPv6) count one by one. The gateway's token endpoint budget and
 * the consoles' sign-in throttle both count by it.
 */
export function addressBucketOf(address: string): string {
  const mappedIpv4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mappedIpv4?.[1] !== undefined) return mappedIpv4[1];
  if (!address.includes(':')) return address;
  const hextets = expandIpv6(address.split('%')[0] ?? '');
  return hextets === undefined ? address : `${hextets.slice(0, 4).join(':')}::/64`;
}

function expandIpv6(address: string): string[] | undefined {
  const halves = address.toLowerCase().split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] === '' || halves[0] === undefined ? [] : halves[0].split(':');
  const tail = halves.length === 2 && halves[1] !== '' && halves[1] !== undefined ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return undefined;
  return [...head, ...Array.from({ length: missing }, () => '0'), ...tail].map((hextet) => hextet.replace(/^0+(?=.)/, ''));
}
