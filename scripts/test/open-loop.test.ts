import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkBounds, offerLoad, openLoopTarget, poolMeasurements } from '../bench/open-loop';

/** A loopback server that answers 201 {"ok":true}, after `delayMs()` for each request. */
async function slowServer(delayMs: () => number): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => setTimeout(() => response.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}'), delayMs()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const oneStep = [{ name: 'only', status: 201, path: () => '/', body: () => '{}', take: (json: unknown) => (json as { ok?: boolean }).ok === true }];

describe('open-loop load', () => {
  test('when the target stalls, then later flows still start on time and their wait counts from the planned start', async () => {
    const startedAt = Date.now();
    // Every request planned in the first 300 ms is answered only at 300 ms; the rest at once.
    const server = await slowServer(() => Math.max(0, 300 - (Date.now() - startedAt)));
    try {
      const target = openLoopTarget({ name: 'stalling', baseUrl: server.url, steps: oneStep, headers: {}, nextContext: () => ({}) });
      const measured = await offerLoad(target, { ratePerSecond: 50, durationSeconds: 1 });
      expect(measured.offered).toBe(50);
      expect(measured.completed).toBe(50);
      expect(measured.skipped).toBe(0);
      // A closed loop would have sent one request and waited: here ~15 flows were in flight at once,
      // and the first one's latency is the whole stall, measured from its planned start.
      const { max, p50 } = poolMeasurements([measured]).requests;
      expect(max).toBeGreaterThanOrEqual(250);
      expect(p50).toBeLessThan(250);
      expect(measured.startLateness.percentiles([100])[100]).toBeLessThan(100);
    } finally {
      await server.close();
    }
  });

  test('when a target is not on 127.0.0.1, then it is refused', () => {
    expect(() => openLoopTarget({ name: 'away', baseUrl: 'http://example.com', steps: oneStep, headers: {}, nextContext: () => ({}) })).toThrow(/127\.0\.0\.1 only/);
  });

  test('when the rate, duration or flow count is out of bounds, then the measurement is refused', () => {
    expect(() => checkBounds(0, 10)).toThrow(/rate/);
    expect(() => checkBounds(40, 601)).toThrow(/duration/);
    expect(() => checkBounds(1000, 200)).toThrow(/more than/);
    expect(checkBounds(40, 20)).toBe(800);
  });
});
