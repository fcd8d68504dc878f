import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { bindEmitterToLogContext, createLogger, currentLogContext, runWithLogContext, traceIdOfTraceparent } from '../../src';

const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

function captureLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    service: 'log-context-test',
    level: 'info',
    destination: new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        callback();
      },
    }),
  });
  return { logger, lines };
}

describe('log context', () => {
  test('when a line is logged inside a context, then it carries the request id and the trace id of its traceparent', async () => {
    const { logger, lines } = captureLogger();
    await runWithLogContext({ requestId: 'req-1', traceparent }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.info('inside');
    });
    logger.info('outside');
    expect(lines[0]).toMatchObject({ service: 'log-context-test', requestId: 'req-1', traceId: '4bf92f3577b34da6a3ce929d0e0e4736', msg: 'inside' });
    expect(lines[0]).not.toHaveProperty('spanId');
    expect(lines[1]).not.toHaveProperty('requestId');
    expect(lines[1]).not.toHaveProperty('traceId');
  });

  test('when a nested context sets a field to undefined, then it is cleared and the others are kept', () => {
    const seen = runWithLogContext({ requestId: 'req-2', traceparent }, () => runWithLogContext({ traceparent: undefined }, () => currentLogContext()));
    expect(seen).toEqual({ requestId: 'req-2', traceparent: undefined });
  });

  test('when an emitter is bound, then its listeners run in the context it was bound in, wherever it emits from', () => {
    const emitter = new EventEmitter();
    runWithLogContext({ requestId: 'req-3' }, () => bindEmitterToLogContext(emitter));
    let seen: string | undefined;
    emitter.on('data', () => {
      seen = currentLogContext()?.requestId;
    });
    emitter.emit('data');
    expect(seen).toBe('req-3');
  });

  test('when a traceparent is malformed or all zeros, then it has no trace id', () => {
    expect(traceIdOfTraceparent('00-not-a-trace-01')).toBeUndefined();
    expect(traceIdOfTraceparent(`00-${'0'.repeat(32)}-00f067aa0ba902b7-01`)).toBeUndefined();
    expect(traceIdOfTraceparent(traceparent)).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });
});
