import { baseServiceConfigSchema, fields, loadConfig, z } from '@pwa/config';

/** The spec's processing budget of one transfer call; the gateway's transfer timeout (30 s) stays above it. */
export const disbursementBudgetMsDefault = 25_000;

export const disbursementsConfigSchema = baseServiceConfigSchema.extend({
  PORT: fields.port(4105),
  /** Graceful stop (docs/operations.md): /readyz answers 503 this long before the listener closes, so load balancers stop sending first. */
  SHUTDOWN_DRAIN_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  /** Bound of the whole graceful stop, from the signal to the exit; past it the process exits 1. Keep it below the pod's termination grace period (40 s). */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  AMQP_URL: fields.amqpUrl,
  BUS_EXCHANGE: fields.busExchange,
  OUTBOX_POLL_INTERVAL_MS: fields.milliseconds(200),
  /** Failed publish attempts after which the relay parks an outbox row the broker refuses (or that is not a valid event), so the rows behind it go on (docs/operations.md, Parked outbox rows). */
  OUTBOX_PUBLISH_ATTEMPTS_MAX: z.coerce.number().int().min(1).max(1_000).default(5),
  /** Crash-safety tests only (refused in production): the outbox relay starts this long after boot; 0 = at once. */
  OUTBOX_RELAY_START_DELAY_MS: z.coerce.number().int().min(0).max(3_600_000).default(0),
  QUOTES_URL: fields.url.default('http://127.0.0.1:4103'),
  WALLET_URL: fields.url.default('http://127.0.0.1:4102'),
  /** Measured from the request's arrival; covers quote consumption and the wallet posting. Tests shorten it. */
  DISBURSEMENT_BUDGET_MS: z.coerce.number().int().min(1).max(28_000).default(disbursementBudgetMsDefault),
  /** Deadline of the quote consumption call, further capped by what is left of the budget. */
  QUOTES_TIMEOUT_MS: fields.milliseconds(5_000),
  /**
   * Deadline of the cancellation sent after the budget ran out. It runs after the budget, so
   * budget + this must stay below the gateway's transfer timeout (30 s) for the partner to get our answer.
   */
  WALLET_CANCEL_TIMEOUT_MS: z.coerce.number().int().min(1).max(10_000).default(4_000),
  UPSTREAM_BREAKER_ERROR_THRESHOLD_PERCENT: z.coerce.number().int().min(1).max(100).default(50),
  UPSTREAM_BREAKER_VOLUME_THRESHOLD: fields.positiveInt(5),
  UPSTREAM_BREAKER_RESET_TIMEOUT_MS: fields.milliseconds(5_000),
  UPSTREAM_BREAKER_ROLLING_WINDOW_MS: fields.milliseconds(10_000),
  /** How often disbursements left processing (crash, unreachable wallet) are settled by cancelling their transfer id. */
  SETTLEMENT_SWEEP_INTERVAL_MS: fields.milliseconds(5_000),
  OTEL_ENABLED: fields.boolean(false),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
}).refine((env) => env.ENVIRONMENT !== 'production' || env.OUTBOX_RELAY_START_DELAY_MS === 0, {
  message: 'OUTBOX_RELAY_START_DELAY_MS is a crash-test setting and must be 0 (or unset) in production',
  path: ['OUTBOX_RELAY_START_DELAY_MS'],
});

export type DisbursementsConfig = z.infer<typeof disbursementsConfigSchema>;

export function readDisbursementsConfig(env: Record<string, string | undefined>): Readonly<DisbursementsConfig> {
  return loadConfig(disbursementsConfigSchema, env);
}
