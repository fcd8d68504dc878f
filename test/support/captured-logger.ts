/**
 * A logger of @pwa/logging whose lines stay in memory, for tests that read what was logged
 * (redaction, the error handler's lines). The lines are the real ones: the same pino options and
 * redaction as a service's logger, only the destination differs.
 */
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../libs/logging/src';

export interface CapturedLogger {
  logger: Logger;
  /** Everything logged so far, line after line as written. */
  text(): string;
}

export function createCapturedLogger(service: string): CapturedLogger {
  const lines: string[] = [];
  const logger = createLogger({
    service,
    level: 'info',
    destination: new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    }),
  });
  return { logger, text: () => lines.join('') };
}
