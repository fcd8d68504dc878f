import { connect as connectAmqp } from 'amqplib';
import { Pool } from 'pg';
import type { HttpsJsonClient, JsonResponse } from './https-client';
import { ledgerBalances } from './ledger-balances';
import type { Stack } from './stack';
import type { WalletUser } from './wallet-users';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('./server-urls') as { serverUrls: () => { amqp: string } };

/**
 * Helpers of the disbursement e2e tests: quotes and transfers through a gateway, balances in
 * cents read from the wallet's ledger accounts, and a listener on the stack's bus exchange.
 */
export async function disbursementQuote(client: HttpsJsonClient, bearer: string, user: WalletUser, amount: number, currency: 'LRD' | 'USD' = 'USD'): Promise<{ quoteId: string; fee: number; totalDebit: number }> {
  const response = await client.post('/partner/v1/disbursement/quote', { phone: user.localPhone, amount, currency }, { bearer });
  if (response.status !== 200) throw new Error(`disbursement quote failed: ${response.status} ${response.text}`);
  const data = response.body.data as { quoteId: string; fee: number; totalDebit: number };
  return data;
}

export function transfer(client: HttpsJsonClient, bearer: string, body: unknown): Promise<JsonResponse> {
  return client.post('/partner/v1/disbursement/transfer', body, { bearer });
}

/** "1234.56" (or "-5.00") as integer cents, exactly. */
export function centsOf(decimal: string): bigint {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(decimal);
  if (!match) throw new Error(`not a 2-decimal amount: ${decimal}`);
  const cents = BigInt(match[2] ?? '0') * 100n + BigInt(match[3] ?? '0');
  return match[1] === '-' ? -cents : cents;
}

/** JSON number amount of the API (at most 2 decimals) as cents. */
export function centsOfApiAmount(amount: number): bigint {
  return centsOf(amount.toFixed(2));
}

export interface MoneySnapshot {
  partnerCents: bigint;
  userCents: bigint;
  feeRevenueCents: bigint;
}

/** Partner, user and fee revenue balances in one currency, from the ledger's accounts. */
export async function moneySnapshot(stack: Stack, partnerId: string, user: WalletUser, currency: 'LRD' | 'USD' = 'USD'): Promise<MoneySnapshot> {
  const read = await ledgerBalances(stack.databaseUrl, user.phone, partnerId, currency);
  if (read.userMinor === undefined) throw new Error(`user has no ${currency} wallet`);
  return { partnerCents: read.partnerMinor, userCents: read.userMinor, feeRevenueCents: read.feeRevenueMinor };
}

/** The stack's bus exchange (kept as a function for the suites that call it). */
export function busExchangeOf(stack: Stack): string {
  return stack.busExchange;
}

export interface BusListener {
  /** Resolves with the first message body that matches, or rejects after timeoutMs. */
  waitFor(match: (body: any, routingKey: string) => boolean, timeoutMs: number): Promise<{ body: any; routingKey: string }>;
  close(): Promise<void>;
}

/** An exclusive, auto-deleted queue bound to the exchange with the given pattern. */
export async function listenOnBus(exchange: string, pattern: string): Promise<BusListener> {
  const connection = await connectAmqp(serverUrls().amqp);
  const channel = await connection.createChannel();
  await channel.checkExchange(exchange);
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, exchange, pattern);
  const received: { body: any; routingKey: string }[] = [];
  const waiters: { match: (body: any, routingKey: string) => boolean; resolve: (message: { body: any; routingKey: string }) => void }[] = [];
  await channel.consume(queue, (message) => {
    if (!message) return;
    const entry = { body: JSON.parse(message.content.toString('utf8')) as unknown, routingKey: message.fields.routingKey };
    received.push(entry);
    for (const waiter of [...waiters]) {
      if (waiter.match(entry.body, entry.routingKey)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(entry);
      }
    }
  }, { noAck: true });
  return {
    waitFor: (match, timeoutMs) => {
      const earlier = received.find((entry) => match(entry.body, entry.routingKey));
      if (earlier) return Promise.resolve(earlier);
      return new Promise((resolve, reject) => {
        const waiter = {
          match,
          resolve: (message: { body: any; routingKey: string }) => {
            clearTimeout(timer);
            resolve(message);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no matching message on ${exchange} within ${timeoutMs} ms (received ${received.length})`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    close: async () => {
      await channel.close().catch(() => undefined);
      await connection.close().catch(() => undefined);
    },
  };
}

/** A disbursement row as stored, for tests that prove what the service recorded. */
export async function storedDisbursement(database: Pool, referenceId: string): Promise<Record<string, unknown> | undefined> {
  const result = await database.query('SELECT * FROM disbursements.disbursements WHERE reference_id = $1', [referenceId]);
  return result.rows[0] as Record<string, unknown> | undefined;
}
