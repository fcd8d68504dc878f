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
