import { connect, type ChannelModel } from 'amqplib';

/**
 * Heartbeats let both sides notice a dead peer (a half-open TCP connection) within seconds rather
 * than minutes; the broker's suggestion is 60 s.
 */
const heartbeatSeconds = 10;

/**
 * Opens a connection, or rejects within timeoutMs. amqplib's socket timeout covers only an idle
 * socket, so a broker that accepts TCP but never finishes the AMQP handshake would otherwise hang
 * the caller forever. A connection that opens after the deadline is closed, not leaked.
 */
export async function connectWithTimeout(url: string, timeoutMs: number, connectionName: string): Promise<ChannelModel> {
  const attempt = connect(withHeartbeat(url), {
    timeout: timeoutMs,
    // Without it, Nagle's algorithm holds the body frame of a publish until the broker's delayed
    // ACK (about 40 ms), which caps a relay that waits for each confirm at some 25 events a second.
    noDelay: true,
    clientProperties: { connection_name: connectionName },
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`AMQP connection not established within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([attempt, deadline]);
  } catch (error) {
    attempt.then((late) => late.close(), () => undefined).catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function withHeartbeat(url: string): string {
  const parsed = new URL(url);
  if (!parsed.searchParams.has('heartbeat')) parsed.searchParams.set('heartbeat', String(heartbeatSeconds));
  return parsed.toString();
}

/** A broker address of a cluster (AMQP_HOSTS). */
export interface BrokerAddress {
  host: string;
  port: number;
}

/**
 * The URLs to try, one per node: AMQP_URL with each address's host and port (its credentials,
 * virtual host, scheme and query kept), or AMQP_URL alone when no address is given.
 */
export function brokerUrls(url: string, hosts: readonly BrokerAddress[] | undefined): string[] {
  if (hosts === undefined || hosts.length === 0) return [url];
  return hosts.map(({ host, port }) => {
    const parsed = new URL(url);
    parsed.hostname = host.includes(':') ? `[${host}]` : host;
    parsed.port = String(port);
    return parsed.toString();
  });
}

/** A URL as a log line or an error may show it: scheme, host and port, never the credentials. */
export function brokerAddressOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
}

/**
 * Connects to the first node that answers, trying them in turn from `startAt` (the node after the
 * one a lost connection was on, so a node that went down is tried last). Rejects when none does,
 * naming each node (never the credentials) and why.
 */
export async function connectToFirstBroker(urls: readonly string[], startAt: number, timeoutMs: number, connectionName: string): Promise<{ model: ChannelModel; index: number }> {
  const failures: string[] = [];
  for (let offset = 0; offset < urls.length; offset += 1) {
    const index = (startAt + offset) % urls.length;
    const url = urls[index] ?? '';
    try {
      return { model: await connectWithTimeout(url, timeoutMs, connectionName), index };
    } catch (error) {
      if (urls.length === 1) throw error;
      failures.push(`${brokerAddressOf(url)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`no RabbitMQ node answered (${failures.join('; ')})`);
}
