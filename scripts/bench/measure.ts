// One autocannon measurement with sub-millisecond latency percentiles. autocannon's own histogram
// has 1 ms resolution, too coarse for a "< 2 ms added" target, so the latency of every 2xx response
// is kept here (autocannon reports it in fractional ms) and the percentiles are computed exactly.
import autocannon from 'autocannon';

/** Grows as needed; a 10 s run at 20k req/s is 200k doubles (1.6 MB). */
export class LatencySamples {
  values: Float64Array;
  count = 0;

  constructor(initialCapacity = 65_536) {
    this.values = new Float64Array(initialCapacity);
  }

  add(value: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count] = value;
    this.count += 1;
  }

  /** The samples at each point (0–100, nearest rank; 100 is the maximum); null when there are none. */
  percentiles<const Point extends number>(points: readonly Point[]): Record<Point, number | null> {
    const sorted = this.values.slice(0, this.count).sort();
    const result = {} as Record<Point, number | null>;
    for (const point of points) {
      const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((point / 100) * sorted.length) - 1));
      result[point] = sorted.length === 0 ? null : (sorted[index] ?? null);
    }
    return result;
  }
}

export interface Measured {
  requestsPerSecond: number;
  p50Ms: number | null;
  p90Ms: number | null;
  p99Ms: number | null;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  durationSeconds: number;
  firstFailure: string | undefined;
}

export interface MeasureOptions {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  /** Changes each request before it is sent (path, body), as autocannon's option of that name does. */
  setupRequest?: (request: autocannon.RequestParams) => autocannon.RequestParams;
  connections: number;
  durationSeconds: number;
}

/**
 * Drives `url` for `durationSeconds` with `connections` keep-alive connections. Each connection
 * sends its next request when the previous answer arrives (closed loop).
 */
export function measure({ url, method = 'GET', headers = {}, setupRequest, connections, durationSeconds }: MeasureOptions): Promise<Measured> {
  const samples = new LatencySamples();
  let ok = 0;
  let firstFailure: string | undefined;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        method,
        headers,
        ...(setupRequest ? { requests: [{ method, setupRequest }] } : {}),
        connections,
        duration: durationSeconds,
        pipelining: 1,
        timeout: 10,
      },
      (error, result) => {
        if (error) {
          reject(error);
          return;
        }
        const { 50: p50Ms, 90: p90Ms, 99: p99Ms } = samples.percentiles([50, 90, 99]);
        resolve({
          requestsPerSecond: ok / result.duration,
          p50Ms,
          p90Ms,
          p99Ms,
          ok,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          durationSeconds: result.duration,
          firstFailure,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      if (statusCode >= 200 && statusCode < 300) {
        ok += 1;
        samples.add(responseTimeMs);
      } else if (firstFailure === undefined) {
        firstFailure = `HTTP ${statusCode}`;
      }
    });
    instance.on('reqError', (error) => {
      firstFailure ??= error.message;
    });
  });
}

/** The mean of the numbers among values; null when there are none. */
export function mean(values: readonly (number | null | undefined)[]): number | null {
  const present = values.filter((value): value is number => typeof value === 'number');
  return present.length === 0 ? null : present.reduce((sum, value) => sum + value, 0) / present.length;
}

export function format(value: number | null | undefined, digits = 2): string {
  return typeof value === 'number' ? value.toFixed(digits) : 'n/a';
}
