import { currentTraceparent, runWithTraceparent, startTelemetry, type Telemetry } from '@pwa/telemetry';

const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('trace context when telemetry is enabled', () => {
  let telemetry: Telemetry;

  beforeAll(() => {
    // Nothing listens on port 9; no span is ended in these tests, so nothing is ever sent there.
    telemetry = startTelemetry({ serviceName: 'telemetry-test', environment: 'sandbox', enabled: true, otlpEndpoint: 'http://127.0.0.1:9' });
  });

  afterAll(async () => {
    await telemetry.shutdown();
  });

  test('when started twice, then the second call returns the first handle', () => {
    expect(startTelemetry({ serviceName: 'telemetry-test', environment: 'sandbox', enabled: true })).toBe(telemetry);
  });

  test('when running with a traceparent, then it is the current traceparent inside fn, also after an await', async () => {
    const seen = await runWithTraceparent(traceparent, async () => {
      const before = currentTraceparent();
      await new Promise((resolve) => setTimeout(resolve, 5));
      return [before, currentTraceparent()];
    });
    expect(seen).toEqual([traceparent, traceparent]);
    expect(currentTraceparent()).toBeUndefined();
  });

  test('when the traceparent is malformed, then fn runs outside any trace', () => {
    expect(runWithTraceparent('00-not-a-trace-01', () => currentTraceparent())).toBeUndefined();
  });

  test('when running without a traceparent inside a trace, then fn does not inherit the outer trace', () => {
    const inner = runWithTraceparent(traceparent, () => runWithTraceparent(undefined, () => currentTraceparent()));
    expect(inner).toBeUndefined();
  });
});
