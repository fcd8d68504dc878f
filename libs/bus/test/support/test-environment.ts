import { randomUUID } from 'node:crypto';
import { connect } from 'amqplib';
import { createPool, dropDatabase, ensureDatabase, migrate, type Pool } from '@pwa/db';
import { createLogger, type Logger } from '@pwa/logging';
import { busMigrationsDirectory, deadLetterNames } from '@pwa/bus';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string; amqp: string } };

export const amqpUrl = serverUrls().amqp;

/** LOG_LEVEL=debug npx jest libs/bus shows what the bus logs while a test runs. */
export function testLogger(): Logger {
  return createLogger({ service: 'bus-test', level: process.env.LOG_LEVEL ?? 'silent' });
}

/** A fresh exchange name per test file, so runs in parallel (and leftovers of old runs) never meet. */
export function uniqueExchange(): string {
  return `test.bus.${randomUUID()}`;
}

/** Deletes what a test declared, including the dead-letter exchange and queue the bus derives. */
export async function deleteTopology(exchange: string, queues: string[]): Promise<void> {
  const connection = await connect(amqpUrl);
  try {
    const channel = await connection.createChannel();
    const deadLetter = deadLetterNames(exchange);
    for (const queue of [...queues, deadLetter.queue]) await channel.deleteQueue(queue);
    await channel.deleteExchange(exchange);
    await channel.deleteExchange(deadLetter.exchange);
  } finally {
    await connection.close();
  }
}

export interface TestDatabase {
  pool: Pool;
  drop: () => Promise<void>;
}

/** A database of its own for one test file, with the outbox and inbox tables in schema bus_test, made by the migrations every service applies. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = new URL(serverUrls().postgres);
  url.pathname = `/pwa_bus_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const databaseUrl = url.toString();
  await ensureDatabase(databaseUrl);
  const schema = 'bus_test';
  await migrate({ databaseUrl, schema, directories: [busMigrationsDirectory] });
  const pool = createPool({ connectionString: databaseUrl, applicationName: 'bus-test', schema, maxConnections: 12 });
  return {
    pool,
    drop: async () => {
      await pool.end();
      await dropDatabase(databaseUrl);
    },
  };
}

/** Polls until the check passes or the deadline passes (then returns false, for a readable assertion). */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(20);
  }
  return check();
}

export function sleep(delayMs: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, delayMs));
}
