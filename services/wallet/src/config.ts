import { amqpConfigFields, baseServiceConfigSchema, defineTestHooks, fields, loadConfig, outboxConfigFields, z } from '@pwa/config';

/**
 * Where the sandbox fault-injection delay of a posting sits. before_claim: after the checks pass,
 * before the transfer id is claimed, so a cancellation that arrives meanwhile wins and the late
 * posting is refused (the caller's timeout path). before_commit: after the entries are written,
 * before COMMIT, so a cancellation waits for the posting and then learns it was posted.
 */
export const postDelayPoints = ['before_claim', 'before_commit'] as const;
export type PostDelayPoint = (typeof postDelayPoints)[number];

export const walletConfigSchema = baseServiceConfigSchema.extend({
  PORT: fields.port(4102),
  /** How often the invariant monitor checks the whole ledger (ledger_invariant_ok); 60 s by default. */
  LEDGER_INVARIANT_CHECK_INTERVAL_MS: fields.milliseconds(60_000),
  /**
   * Group commit of single disbursement postings (decision 0056): the most postings of one partner
   * posted together as one batch when they arrive while that partner's previous group is being
   * posted. 0 turns it off (every posting its own transaction). A posting waits at most for one
   * group in flight, so this also bounds the extra wait.
   */
  WALLET_GROUP_COMMIT_MAX_ITEMS: z.coerce.number().int().min(0).max(200).default(50),
  /**
   * The broker the outbox relay publishes the wallet's events to (wallet.disbursement_reversed,
   * decision 0063). Without it the service starts, warns, and the events wait in wallet.outbox
   * until a wallet with AMQP_URL runs: no default, so a wallet never publishes to a broker that
   * nobody configured.
   */
  AMQP_URL: z.string().url().optional(),
  AMQP_HOSTS: amqpConfigFields.AMQP_HOSTS,
  BUS_EXCHANGE: fields.busExchange,
  ...outboxConfigFields,
});

/**
 * Sandbox-only fault injection for the callers' timeout tests: every collection or disbursement
 * posting is delayed by WALLET_POST_DELAY_MS (0, the default, turns it off) at
 * WALLET_POST_DELAY_POINT. Read in the sandbox only; production refuses a non-zero delay.
 */
export const walletTestHooks = defineTestHooks(
  {
    WALLET_POST_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
    WALLET_POST_DELAY_POINT: z.enum(postDelayPoints).default('before_claim'),
  },
  ['WALLET_POST_DELAY_MS'],
);

/** Settings the operator CLI needs: the database and the environment (sandbox tools refuse production). */
export const walletStoreConfigSchema = z.object({
  LOG_LEVEL: fields.logLevel,
  ENVIRONMENT: fields.environment,
  DATABASE_URL: fields.databaseUrl,
});

export type WalletConfig = z.infer<typeof walletConfigSchema> & z.infer<typeof walletTestHooks.schema>;
export type WalletStoreConfig = z.infer<typeof walletStoreConfigSchema>;

export interface PostingFaultInjection {
  postDelayMs: number;
  postDelayPoint: PostDelayPoint;
}

export const noPostingFaultInjection: PostingFaultInjection = Object.freeze({ postDelayMs: 0, postDelayPoint: 'before_claim' });

export function readWalletConfig(env: Record<string, string | undefined>): Readonly<WalletConfig> {
  return loadConfig(walletConfigSchema, env, { testHooks: walletTestHooks });
}

/**
 * The posting fault injection a configuration asks for; startWalletService passes it down to the
 * posting use case. Production never gets a delay, even from a configuration built without the
 * schema (the schema already refuses one).
 */
export function postingFaultInjectionOf(config: Pick<WalletConfig, 'ENVIRONMENT' | 'WALLET_POST_DELAY_MS' | 'WALLET_POST_DELAY_POINT'>): PostingFaultInjection {
  if (config.ENVIRONMENT === 'production') return noPostingFaultInjection;
  return Object.freeze({ postDelayMs: config.WALLET_POST_DELAY_MS, postDelayPoint: config.WALLET_POST_DELAY_POINT });
}

export function readWalletStoreConfig(env: Record<string, string | undefined>): Readonly<WalletStoreConfig> {
  return loadConfig(walletStoreConfigSchema, env);
}
