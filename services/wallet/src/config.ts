import { baseServiceConfigSchema, fields, loadConfig, z } from '@pwa/config';

export const walletConfigSchema = baseServiceConfigSchema.extend({
  PORT: fields.port(4102),
});

/** Settings the operator CLI needs: the database and the environment (sandbox tools refuse production). */
export const walletStoreConfigSchema = z.object({
  LOG_LEVEL: fields.logLevel,
  ENVIRONMENT: fields.environment,
  DATABASE_URL: fields.databaseUrl,
});

export type WalletConfig = z.infer<typeof walletConfigSchema>;
export type WalletStoreConfig = z.infer<typeof walletStoreConfigSchema>;

export function readWalletConfig(env: Record<string, string | undefined>): Readonly<WalletConfig> {
  return loadConfig(walletConfigSchema, env);
}

export function readWalletStoreConfig(env: Record<string, string | undefined>): Readonly<WalletStoreConfig> {
  return loadConfig(walletStoreConfigSchema, env);
}
