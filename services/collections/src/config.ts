import { amqpConfigFields, baseServiceConfigSchema, breakerConfigFields, breakerKeysRenamedFrom, fields, loadConfig, outboxConfigFields, outboxRelayTestHooks, z } from '@pwa/config';

export const collectionsConfigSchema = baseServiceConfigSchema.extend({
  PORT: fields.port(4104),
  ...amqpConfigFields,
  BUS_EXCHANGE: fields.busExchange,
  ...outboxConfigFields,
  QUOTES_URL: fields.url.default('http://127.0.0.1:4103'),
  WALLET_URL: fields.url.default('http://127.0.0.1:4102'),
  /** Deadline of one internal call (quote consumption, wallet check or posting); the gateway's 10 s stays above it. */
  UPSTREAM_TIMEOUT_MS: fields.milliseconds(3_000),
  /** One breaker each towards quotes and the wallet. */
  ...breakerConfigFields,
  /** The spec fixes 10 minutes; tests shorten it to observe expiry. */
  COLLECTION_APPROVAL_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  EXPIRY_SWEEP_INTERVAL_MS: fields.milliseconds(5_000),
  EXPIRY_SWEEP_BATCH_SIZE: fields.positiveInt(100),
  /** Bound of batches per sweep, so one tick cannot run forever; the next tick continues. */
  EXPIRY_SWEEP_BATCHES_MAX: fields.positiveInt(20),
  RECOVERY_INTERVAL_MS: fields.milliseconds(2_000),
  RECOVERY_BATCH_SIZE: fields.positiveInt(20),
  /** First re-drive delay of a posting the wallet did not answer; doubles per attempt up to the max. */
  RECOVERY_DELAY_MS: fields.milliseconds(2_000),
  RECOVERY_DELAY_MS_MAX: fields.milliseconds(60_000),
  /** After this many posting attempts the worker cancels the transfer id instead of posting it. */
  RECOVERY_POSTING_ATTEMPTS_MAX: fields.positiveInt(10),
  /** Sandbox only: how long the test phones' collections wait before they resolve on their own. */
  SANDBOX_AUTO_RESOLVE_DELAY_MS: z.coerce.number().int().min(0).default(3_000),
  SANDBOX_AUTO_RESOLVE_INTERVAL_MS: fields.milliseconds(500),
});

/** UPSTREAM_BREAKER_* are now BREAKER_*; the old names are read for one more release, and main.ts warns of them. */
export const collectionsRenamedKeys = breakerKeysRenamedFrom('UPSTREAM_');

/** The production settings and, in the sandbox only, the crash-safety tests' OUTBOX_RELAY_START_DELAY_MS (0 in production). */
export type CollectionsConfig = z.infer<typeof collectionsConfigSchema> & z.infer<typeof outboxRelayTestHooks.schema>;

/** The one place that reads the process environment; tests pass their own. */
export function readCollectionsConfig(env: Record<string, string | undefined>): Readonly<CollectionsConfig> {
  return loadConfig(collectionsConfigSchema, env, { renamedKeys: collectionsRenamedKeys, testHooks: outboxRelayTestHooks });
}
