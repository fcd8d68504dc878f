// One autocannon measurement with sub-millisecond latency percentiles. autocannon's own histogram
// has 1 ms resolution, too coarse for a "< 2 ms added" target, so the latency of every 2xx response
// is kept here (autocannon reports it in fractional ms) and the percentiles are computed exactly.
'use strict';
const autocannon = require('autocannon');

/** Grows as needed; a 10 s run at 20k req/s is 200k doubles (1.6 MB). */
class LatencySamples {
  constructor(initialCapacity = 65_536) {
    this.values = new Float64Array(initialCapacity);
    this.count = 0;
  }

  add(value) {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count] = value;
    this.count += 1;
  }

  percentiles(points) {
    const sorted = this.values.slice(0, this.count).sort();
    return Object.fromEntries(
      points.map((point) => {
        if (sorted.length === 0) return [point, null];
        const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((point / 100) * sorted.length) - 1));
        return [point, sorted[index]];
      }),
    );
  }
}

/**
 * Drives `url` for `durationSeconds` with `connections` keep-alive connections and resolves
 * { requestsPerSecond, p50Ms, p90Ms, p99Ms, ok, non2xx, errors, timeouts, durationSeconds }.
 * Each connection sends its next request when the previous answer arrives (closed loop).
 * `method` defaults to GET; `setupRequest(request)` may change each request before it is sent
 * (path, body), as autocannon's option of that name does.
 */
function measure({ url, method = 'GET', headers = {}, setupRequest, connections, durationSeconds }) {
  const samples = new LatencySamples();
  let ok = 0;
  let firstFailure;
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
      if (firstFailure === undefined) firstFailure = error.message;
    });
  });
}

module.exports = { measure, LatencySamples };
