import pino, { type Logger, type LoggerOptions } from 'pino';
import { logContextFields } from './log-context';

export type { Logger };
export {
  bindEmitterToLogContext,
  currentLogContext,
  logContextFields,
  runWithLogContext,
  traceIdOfTraceparent,
  type LogContext,
  type LogContextFields,
} from './log-context';

/**
 * Paths that must never reach a log line. Secrets, tokens and passwords are replaced by
 * "[redacted]" wherever they appear in a logged object, request or error.
 */
export const redactedPaths = [
  'password',
  'secret',
  'token',
  'client_secret',
  'clientSecret',
  'access_token',
  'accessToken',
  'authorization',
  'privateKey',
  'webhookSecret',
  '*.password',
  '*.secret',
  '*.token',
  '*.client_secret',
  '*.clientSecret',
  '*.access_token',
  '*.accessToken',
  '*.authorization',
  '*.privateKey',
  '*.webhookSecret',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-internal-token"]',
  'res.headers["set-cookie"]',
  'body.client_secret',
  'req.body.client_secret',
];

/** Matches anything that looks like a URL with embedded credentials, e.g. amqp://user:pass@host. */
const credentialsInUrl = /([a-z][a-z0-9+.-]*:\/\/)([^:/?#\s@]+):([^@/?#\s]+)@/gi;
/** Matches bearer tokens, HTTP Basic credentials (base64 of id:secret) and JWT-shaped strings. */
const bearerToken = /(Bearer\s+)[A-Za-z0-9\-._~+/]+=*/gi;
/** Sixteen characters at least, so that prose such as "Basic tier" is left alone. */
const basicCredentials = /(Basic\s+)[A-Za-z0-9+/]{16,}=*/gi;
const jwtShaped = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;

/** Removes credentials from free text (error messages, URLs) before it is logged or returned. */
export function scrubSecrets(text: string): string {
  return text
    .replace(credentialsInUrl, '$1$2:[redacted]@')
    .replace(bearerToken, '$1[redacted]')
    .replace(basicCredentials, '$1[redacted]')
    .replace(jwtShaped, '[redacted-jwt]');
}

export interface CreateLoggerOptions {
  service: string;
  level: LoggerOptions['level'];
  environment?: string;
  destination?: pino.DestinationStream;
}

export function createLogger(options: CreateLoggerOptions): Logger {
  const loggerOptions: LoggerOptions = {
    level: options.level ?? 'info',
    base: { service: options.service, environment: options.environment },
    redact: { paths: redactedPaths, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Every line written while a request or message is handled says which one (and which trace).
    mixin: () => logContextFields(),
    formatters: { level: (label) => ({ level: label }) },
    serializers: {
      err: (error: unknown) => {
        const serialized = pino.stdSerializers.err(error as Error);
        if (typeof serialized.message === 'string') serialized.message = scrubSecrets(serialized.message);
        if (typeof serialized.stack === 'string') serialized.stack = scrubSecrets(serialized.stack);
        return serialized;
      },
    },
  };
  return options.destination ? pino(loggerOptions, options.destination) : pino(loggerOptions);
}
