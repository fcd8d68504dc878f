import { amqpConfigFields, baseServiceConfigSchema, fields, loadConfig, outboxConfigFields, z } from '@pwa/config';

const encryptionKeySchema = z
  .string({ error: 'AUTH_KEY_ENCRYPTION_KEY is required (base64 of 32 random bytes)' })
  .refine((value) => Buffer.from(value, 'base64').length === 32, 'must be base64 of exactly 32 bytes');

const webhookSecretSealingKeySchema = z
  .string({ error: 'WEBHOOK_SECRET_SEALING_KEY is required (base64 of 32 random bytes)' })
  .refine((value) => Buffer.from(value, 'base64').length === 32, 'must be base64 of exactly 32 bytes');

/**
 * Settings the operator CLI needs: the database and the environment. The keys are optional here
 * because most commands need neither; the commands that do (rotate-signing-key; onboard and
 * rotate-webhook-secret, which seal a new webhook secret) refuse to run without theirs.
 */
export const authStoreConfigSchema = z.object({
  LOG_LEVEL: fields.logLevel,
  ENVIRONMENT: fields.environment,
  DATABASE_URL: fields.databaseUrl,
  AUTH_KEY_ENCRYPTION_KEY: encryptionKeySchema.optional(),
  WEBHOOK_SECRET_SEALING_KEY: webhookSecretSealingKeySchema.optional(),
});

export const authConfigSchema = baseServiceConfigSchema
  .extend({
    PORT: fields.port(4101),
    ...amqpConfigFields,
    BUS_EXCHANGE: fields.busExchange,
    TOKEN_ISSUER: z.string().min(1).optional(),
    TOKEN_AUDIENCE: z.string().min(1).optional(),
    TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
    AUTH_KEY_ENCRYPTION_KEY: encryptionKeySchema,
    /** During a rotation of AUTH_KEY_ENCRYPTION_KEY: the old key, which still decrypts (never encrypts) until reencrypt-signing-keys has run. */
    AUTH_KEY_ENCRYPTION_KEY_PREVIOUS: encryptionKeySchema.optional(),
    WEBHOOK_SECRET_SEALING_KEY: webhookSecretSealingKeySchema,
    ...outboxConfigFields,
  })
  .transform((env) => ({
    ...env,
    TOKEN_ISSUER: env.TOKEN_ISSUER ?? defaultTokenIssuer(env.ENVIRONMENT),
    TOKEN_AUDIENCE: env.TOKEN_AUDIENCE ?? defaultTokenAudience(env.ENVIRONMENT),
  }));

export type AuthConfig = z.infer<typeof authConfigSchema>;
export type AuthStoreConfig = z.infer<typeof authStoreConfigSchema>;

export function defaultTokenIssuer(environment: string): string {
  return `https://auth.${environment}.partner-wallet.example`;
}

export function defaultTokenAudience(environment: string): string {
  return `partner-wallet-api:${environment}`;
}

export function readAuthConfig(env: Record<string, string | undefined>): Readonly<AuthConfig> {
  return loadConfig(authConfigSchema, env);
}

export function readAuthStoreConfig(env: Record<string, string | undefined>): Readonly<AuthStoreConfig> {
  return loadConfig(authStoreConfigSchema, env);
}
