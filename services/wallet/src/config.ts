import { baseServiceConfigSchema, fields, loadConfig, z } from '@pwa/config';

export const walletConfigSchema = baseServiceConfigSchema.extend({
  PORT: fields.port(4102),
});

export type WalletConfig = z.infer<typeof walletConfigSchema>;

export function readWalletConfig(env: Record<string, string | undefined>): Readonly<WalletConfig> {
  return loadConfig(walletConfigSchema, env);
}
