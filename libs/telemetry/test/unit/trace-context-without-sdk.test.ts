import { currentTraceparent, runWithTraceparent, startTelemetry } from '@pwa/telemetry';

const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('trace context when telemetry is disabled', () => {
  test('when telemetry is not enabled, then starting it does nothing and shutdown resolves', async () => {
    const telemetry = startTelemetry({ serviceName: 'test', environment: 'sandbox', enabled: false });
    await expect(telemetry.shutdown()).resolves.toBeUndefined();
  });

  test('when no trace is active, then there is no current traceparent', () => {
    expect(currentTraceparent()).toBeUndefined();
  });

  test('when running with a traceparent and no SDK, then fn still runs and its result is returned', async () => {
    expect(runWithTraceparent(traceparent, () => 42)).toBe(42);
    await expect(runWithTraceparent(traceparent, () => Promise.resolve('done'))).resolves.toBe('done');
  });

  test('when fn throws, then the error reaches the caller', () => {
    expect(() =>
      runWithTraceparent(undefined, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
  });
});
