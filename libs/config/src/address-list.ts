import { z } from 'zod';

/** One server's address, as an address list names it. */
export interface NetworkAddress {
  host: string;
  port: number;
}

/** What a list of addresses of one kind allows: the port when left out, how many, what to call them. */
export interface AddressListShape {
  defaultPort: number;
  /** The bound only catches a pasted list gone wrong (a cluster has three or five). */
  max: number;
  /** The servers' name in the plural, for messages: "sentinels", "brokers". */
  noun: string;
}

const hostShape = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const ipv6Shape = /^[0-9A-Fa-f:.]+$/;

/** An unset variable and an empty one (as compose and Helm render an unset value) mean the same. */
export function unsetWhenBlank(value: unknown): unknown {
  return typeof value === 'string' && value.trim() === '' ? undefined : value;
}

/** `host:port` (port optional), `[ipv6]:port`; the problem with it, or the address. */
function parseAddress(entry: string, defaultPort: number): NetworkAddress | string {
  // A pasted URL may carry a password: say what is wrong without repeating it.
  if (entry.includes('@') || entry.includes('/')) return 'an entry is a URL or holds credentials, not host:port (credentials belong in the URL setting)';
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(entry);
  if (match === null) return `"${entry}" is not host:port`;
  const [, ipv6, name, portText] = match;
  const host = ipv6 ?? name ?? '';
  if (ipv6 !== undefined ? !ipv6Shape.test(ipv6) : !hostShape.test(host)) return `"${entry}" has no valid host name or address`;
  const port = portText === undefined ? defaultPort : Number(portText);
  if (port < 1 || port > 65_535) return `"${entry}" has a port outside 1-65535`;
  return { host, port };
}

/**
 * A list of addresses as written: comma-separated `host:port` (IPv6 in brackets, the shape's port
 * when left out), no duplicates, at most `max`. Answers the addresses, or the problems (naming
 * the entries, which are addresses, not secrets).
 */
export function parseAddressList(text: string, shape: AddressListShape): { addresses: NetworkAddress[]; problems: string[] } {
  const entries = text.split(',').map((entry) => entry.trim());
  const problems: string[] = [];
  const addresses: NetworkAddress[] = [];
  if (entries.length > shape.max) problems.push(`at most ${String(shape.max)} ${shape.noun}`);
  for (const entry of entries.slice(0, shape.max)) {
    if (entry === '') {
      problems.push('an empty entry (two commas, or a comma at an end)');
      continue;
    }
    const parsed = parseAddress(entry, shape.defaultPort);
    if (typeof parsed === 'string') problems.push(parsed);
    else if (addresses.some((known) => known.host === parsed.host && known.port === parsed.port)) problems.push(`"${entry}" is listed twice`);
    else addresses.push(parsed);
  }
  return { addresses, problems };
}

/** An optional setting holding such a list: unset or blank is undefined; each problem is an issue that says what the list is. */
export function addressListField(shape: AddressListShape) {
  const list = z
    .string()
    .superRefine((text, context) => {
      for (const problem of parseAddressList(text, shape).problems) context.addIssue({ code: 'custom', message: `comma-separated host:port of the ${shape.noun}: ${problem}` });
    })
    .transform((text) => parseAddressList(text, shape).addresses);
  return z.preprocess(unsetWhenBlank, list.optional());
}
