import { randomUUID } from 'node:crypto';
import { connect } from 'amqplib';
import { createPool, dropDatabase, ensureDatabase, type Pool } from '@pwa/db';
import { createLogger, type Logger } from '@pwa/logging';
import { deadLetterNames } from '@pwa/bus';
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

/** Same tables as every service's outbox migrations (1700000000000_outbox-and-inbox, 1700000000900_outbox-parking). */
const outboxAndInboxDdl = `
  CREATE TABLE outbox (id uuid PRIMARY KEY, routing_key text NOT NULL, payload jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(), published_at timestamptz,
    attempts integer NOT NULL DEFAULT 0, last_error text, parked_at timestamptz);
  CREATE INDEX outbox_unpublished_idx ON outbox (created_at) WHERE published_at IS NULL;
  CREATE INDEX outbox_parked_idx ON outbox (parked_at) WHERE parked_at IS NOT NULL;
  CREATE TABLE processed_events (consumer text NOT NULL, event_id uuid NOT NULL,
    processed_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (consumer, event_id));
`;

export interface TestDatabase {
  pool: Pool;
  drop: () => Promise<void>;
}

/** A database of its own for one test file, with the outbox and inbox tables in schema bus_test. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = new URL(serverUrls().postgres);
  url.pathname = `/pwa_bus_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const databaseUrl = url.toString();
  await ensureDatabase(databaseUrl);
  const schema = 'bus_test';
  const pool = createPool({ connectionString: databaseUrl, applicationName: 'bus-test', schema, maxConnections: 12 });
  await pool.query(`CREATE SCHEMA ${schema}`);
  await pool.query(outboxAndInboxDdl);
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
