import { amqpConfigFields, baseServiceConfigSchema, breakerConfigFields, fields, loadConfig, z } from '@pwa/config';
import { sealingKeyLengthBytes } from '@pwa/sealing';

/** "10000,60000,300000": the delay before each retry, in order; their count is the number of retries. */
const retryDelays = z
  .string()
  .default('10000,60000,300000')
  .transform((value, context) => {
    const delays = value.split(',').map((part) => Number(part.trim()));
    if (delays.length === 0 || delays.length > 10 || delays.some((delay) => !Number.isInteger(delay) || delay < 1 || delay > 86_400_000)) {
      context.addIssue({ code: 'custom', message: 'must be 1 to 10 comma-separated integers of milliseconds (1 to 86400000)' });
      return z.NEVER;
    }
    return delays;
  });

const sealingKey = z.string().refine((value) => Buffer.from(value, 'base64').length === sealingKeyLengthBytes, {
  message: `must be base64 of exactly ${sealingKeyLengthBytes} bytes`,
});

export const webhooksConfigSchema = baseServiceConfigSchema
  .extend({
    PORT: fields.port(4106),
    ...amqpConfigFields,
    BUS_EXCHANGE: fields.busExchange,
    /** Opens the partners' webhook secrets carried sealed in partner events; the same key as auth's. No default. */
    WEBHOOK_SECRET_SEALING_KEY: sealingKey,
    /**
     * Only while WEBHOOK_SECRET_SEALING_KEY is being replaced (docs/operations.md, Rotating
     * secrets): the old key, tried when the current one does not open a secret, until
     * reseal-webhook-secrets has re-sealed every stored secret under the new one.
     */
    WEBHOOK_SECRET_SEALING_KEY_PREVIOUS: sealingKey.optional(),
    /** The auth service's internal address: its partner directory rebuilds the local copy of partners. */
    AUTH_URL: fields.url.default('http://127.0.0.1:4101'),
    /** The partner directory is read at start, and again after this long (doubling up to a minute) until a read succeeds (auth may start later). */
    PARTNER_DIRECTORY_RETRY_MS: fields.milliseconds(5_000),
    /** One request to the partner directory, whole. */
    PARTNER_DIRECTORY_TIMEOUT_MS: fields.milliseconds(5_000).pipe(z.number().max(60_000)),
    /** The breaker of calls to auth (libs/http upstream client), as in every service. */
    ...breakerConfigFields,
    /** One attempt's whole deadline: DNS, connect, TLS, request and the response's status line. The spec's 10 s. */
    WEBHOOK_ATTEMPT_TIMEOUT_MS: fields.milliseconds(10_000).pipe(z.number().max(60_000)),
    WEBHOOK_RETRY_DELAYS_MS: retryDelays,
    /** Each retry delay is multiplied by a random factor in [1 - ratio, 1 + ratio]. */
    WEBHOOK_RETRY_JITTER_RATIO: z.coerce.number().min(0).max(0.5).default(0.2),
    /** Unset: true in the sandbox (local receivers), false in production. Production refuses true. */
    WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false']).optional(),
    /** How often the worker looks for due deliveries. */
    WEBHOOK_POLL_INTERVAL_MS: fields.milliseconds(500),
    /** Attempts in flight in this process, all partners together. */
    WEBHOOK_CONCURRENCY_MAX: fields.positiveInt(50),
    /** Attempts in flight for one partner, all replicas together (see README on races). */
    WEBHOOK_PARTNER_CONCURRENCY_MAX: fields.positiveInt(4),
    /** A claimed attempt's lease is the attempt deadline plus this margin; after it another replica may recover it. */
    WEBHOOK_LEASE_MARGIN_MS: fields.milliseconds(5_000),
    /** Bound of one "redeliver everything failed since" request. */
    WEBHOOK_REDELIVER_BATCH_MAX: fields.positiveInt(1_000),
    /** How often settled deliveries older than the 30-day event retention are deleted (decision 0051). */
    WEBHOOK_EVENT_PRUNE_INTERVAL_MS: fields.milliseconds(3_600_000).pipe(z.number().min(1_000).max(86_400_000)),
  })
  .refine((env) => env.ENVIRONMENT !== 'production' || env.WEBHOOK_ALLOW_PRIVATE_TARGETS !== 'true', {
    message: 'private webhook targets cannot be allowed in production',
    path: ['WEBHOOK_ALLOW_PRIVATE_TARGETS'],
  })
  .transform((env) => ({
    ...env,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: env.WEBHOOK_ALLOW_PRIVATE_TARGETS === undefined ? env.ENVIRONMENT === 'sandbox' : env.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
  }));

export type WebhooksConfig = z.infer<typeof webhooksConfigSchema>;

/** The one place that reads the process environment; tests pass their own. */
export function readWebhooksConfig(env: Record<string, string | undefined>): Readonly<WebhooksConfig> {
  return loadConfig(webhooksConfigSchema, env);
}
