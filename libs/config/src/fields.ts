import { z } from 'zod';

/** Shared field schemas so every service spells the same variable the same way. */
export const fields = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  host: (fallback: string) => z.string().min(1).default(fallback),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  environment: z.enum(['sandbox', 'production']).default('sandbox'),
  url: z.string().url(),
  databaseUrl: z.string().url().default('postgres://postgres@127.0.0.1:5432/partner_wallet'),
  amqpUrl: z.string().url().default('amqp://guest:guest@127.0.0.1:5672'),
  redisUrl: z.string().url().default('redis://127.0.0.1:6379'),
  busExchange: z.string().min(1).default('pwa.events'),
  redisKeyPrefix: z.string().default('pwa:'),
  milliseconds: (fallback: number) => z.coerce.number().int().min(1).default(fallback),
  positiveInt: (fallback: number) => z.coerce.number().int().min(1).default(fallback),
  boolean: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'])
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1' || v === 'yes'),
};
