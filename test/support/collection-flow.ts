import { connectBus, type Bus } from '@pwa/bus';
import type { EventEnvelope } from '@pwa/contracts';
import { createLogger } from '@pwa/logging';
import type { HttpsJsonClient, JsonResponse } from './https-client';
import { ledgerBalances } from './ledger-balances';
import type { Stack } from './stack';

/**
 * Helpers for the collections e2e suite: a partner's quote-then-request, the user's internal app
 * API, balances read through the wallet CLI in minor units, and a listener on the stack's bus.
 */
export interface CollectionAsked {
  phone: string;
  amount: number;
  currency: 'LRD' | 'USD';
  externalId?: string;
  note?: string;
}

let externalIdSequence = 0;

export function nextExternalId(): string {
  externalIdSequence += 1;
  return `e2e-${Date.now()}-${externalIdSequence}`;
}

export async function quoteCollection(client: HttpsJsonClient, bearer: string, asked: CollectionAsked): Promise<string> {
  const quote = await client.post('/partner/v1/collection/quote', { phone: asked.phone, amount: asked.amount, currency: asked.currency }, { bearer });
  const quoteId = (quote.body as { data?: { quoteId?: unknown } } | undefined)?.data?.quoteId;
  if (quote.status !== 200 || typeof quoteId !== 'string') throw new Error(`quote failed: ${quote.status} ${quote.text}`);
  return quoteId;
}

/** Quote, then confirm; resolves the confirm call's response (whatever it is). */
export async function requestCollection(client: HttpsJsonClient, bearer: string, asked: CollectionAsked): Promise<JsonResponse> {
  const quoteId = await quoteCollection(client, bearer, asked);
  return client.post(
    '/partner/v1/collection/request',
    { quoteId, externalId: asked.externalId ?? nextExternalId(), ...(asked.note === undefined ? {} : { note: asked.note }) },
    { bearer },
  );
}

/** Quote and confirm; resolves the referenceId, or throws when the confirm was not 202. */
export async function createCollection(client: HttpsJsonClient, bearer: string, asked: CollectionAsked): Promise<string> {
  const response = await requestCollection(client, bearer, asked);
  const referenceId = (response.body as { data?: { referenceId?: unknown } } | undefined)?.data?.referenceId;
  if (response.status !== 202 || typeof referenceId !== 'string') throw new Error(`collection request failed: ${response.status} ${response.text}`);
  return referenceId;
}

export interface PlainResponse {
  status: number;
  body: any;
}

/** The user's side: POST /internal/app/collections/:referenceId/(approve|decline) on a collections process. */
export async function actAsUser(collectionsUrl: string, referenceId: string, action: 'approve' | 'decline', body: unknown = {}): Promise<PlainResponse> {
  const response = await fetch(`${collectionsUrl}/internal/app/collections/${encodeURIComponent(referenceId)}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) };
}

export async function getJson(url: string): Promise<PlainResponse> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) };
}

export async function postJson(url: string, body: unknown): Promise<PlainResponse> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) };
}

/** "1234.56" or "-10.00" → minor units. */
export function minorOf(decimal: unknown): bigint {
  if (typeof decimal !== 'string' || !/^-?\d+\.\d{2}$/.test(decimal)) throw new Error(`not a decimal amount: ${String(decimal)}`);
  const negative = decimal.startsWith('-');
  const [whole = '0', fraction = '00'] = decimal.replace('-', '').split('.');
  const minor = BigInt(whole) * 100n + BigInt(fraction);
  return negative ? -minor : minor;
}

export interface Balances {
  userMinor: bigint;
  partnerMinor: bigint;
  feeRevenueMinor: bigint;
}

/** The user's wallet, the partner's account and fee revenue in one currency, from the ledger's accounts. */
export async function balancesOf(stack: Stack, phone: string, partnerId: string, currency: 'LRD' | 'USD'): Promise<Balances> {
  const read = await ledgerBalances(stack.databaseUrl, phone, partnerId, currency);
  if (read.userMinor === undefined) throw new Error(`${phone} has no ${currency} wallet`);
  return { userMinor: read.userMinor, partnerMinor: read.partnerMinor, feeRevenueMinor: read.feeRevenueMinor };
}

/** The stack's bus exchange (kept as a function for the suites that call it). */
export function busExchangeOf(stack: Stack): string {
  return stack.busExchange;
}

export interface EventListener {
  events: EventEnvelope[];
  /** Waits until an event passes the check (or the time is up, then throws). */
  waitFor(check: (event: EventEnvelope) => boolean, timeoutMs?: number): Promise<EventEnvelope>;
  close(): Promise<void>;
}

/** Listens on the stack's exchange with an ephemeral queue; start it before the events are published. */
export async function listenToEvents(stack: Stack, amqpUrl: string, routingKeys: string[]): Promise<EventListener> {
  const events: EventEnvelope[] = [];
  const bus: Bus = await connectBus({
    url: amqpUrl,
    exchange: busExchangeOf(stack),
    serviceName: 'e2e-collections-listener',
    logger: createLogger({ service: 'e2e-listener', level: 'silent' }),
  });
  await bus.subscribe({
    queue: `${busExchangeOf(stack)}.e2e-listener.${Date.now()}`,
    routingKeys,
    kind: 'ephemeral',
    handler: (envelope) => {
      events.push(envelope);
      return Promise.resolve();
    },
  });
  return {
    events,
    waitFor: async (check, timeoutMs = 5_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find(check);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no such event within ${timeoutMs} ms; got ${events.map((event) => event.type).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => bus.close(),
  };
}
