import { request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import { PartnerApiError, type ErrorFields, type SdkErrorCode } from './errors.js';
import { operationTable, type AnswerForm, type OperationId, type OperationSpec } from './operations.js';
import { itemsPage, paginate, type PaginateOptions } from './pagination.js';
import { defaultRetryOptions, isRetryable, parseRetryAfter, retryDelayMs, type AttemptOutcome, type RetryOptions } from './retry.js';
import { TokenCache } from './token-cache.js';
import type { AnswerOf, BodyOf, PathOf, PkcCode, QueryOf } from './types.js';

/** The part of a fetch answer the SDK reads (the global fetch's and undici's both fit). */
export interface FetchAnswer {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface FetchRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/** A fetch: the global one by default, or your own (a proxy agent, a custom CA, a test double). */
export type FetchFunction = (url: string, init: FetchRequest) => Promise<FetchAnswer>;

/** PEM certificates as Node's TLS `ca` takes them: one (a string or a Buffer) or several. */
export type CertificateAuthorities = string | Buffer | ReadonlyArray<string | Buffer>;

export interface PartnerApiClientOptions {
  /** The environment's base URL, ending in /api/v1 (e.g. https://sandbox.example.com/api/v1). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Defaults to the global fetch (Node 18+), or to node:https when `ca` is given. */
  fetch?: FetchFunction;
  /**
   * Certificates to trust besides Node's bundled root certificates, as PEM: the local sandbox's
   * self-signed `.local/tls/cert.pem` (`ca: readFileSync('.local/tls/cert.pem')`), or the CA
   * certificate an operator gives you for a private environment. Requests then go through
   * node:https with these added to the roots (so a public certificate still verifies). Not with
   * `fetch`: give your own fetch its CA.
   */
  ca?: CertificateAuthorities;
  /** Per request, body included (default 15 s). */
  timeoutMs?: number;
  /** Per transfer request (default 30 s: longer than the server's 25-second budget, as the spec advises). */
  transferTimeoutMs?: number;
  retry?: Partial<RetryOptions>;
  /** Get a new token this long before the current one expires (default 60 s; at most a quarter of the lifetime). */
  tokenRefreshMarginSeconds?: number;
  userAgent?: string;
  /** Time, waits and randomness; replace them only in tests. */
  clock?: Partial<Clock>;
}

export interface Clock {
  now(): number;
  sleep(delayMs: number, signal?: AbortSignal): Promise<void>;
  random(): number;
}

export interface CallOptions {
  /** Cancels the call (and its waits between retries). */
  signal?: AbortSignal;
  /** This call's timeout per request, instead of the client's. */
  timeoutMs?: number;
}

interface CallRequest {
  path?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  /** Read the answer in this form instead of the operation's (the statement's CSV). */
  answer?: AnswerForm;
}

type AttemptResult = { kind: 'answer'; status: number; headers: FetchAnswer['headers']; text: string } | { kind: 'no-answer'; sent: boolean; timedOut: boolean; cause: unknown };

/** A list operation whose answer is `{ items, nextCursor, hasMore }` and that takes a cursor. */
export type ListOperationId = {
  [Id in OperationId]: AnswerOf<Id> extends { items: unknown[]; nextCursor: string | null; hasMore: boolean } ? ('cursor' extends keyof QueryOf<Id> ? Id : never) : never;
}[OperationId];
export type ItemOf<Id extends ListOperationId> = AnswerOf<Id> extends { items: (infer Item)[] } ? Item : never;
type ListQuery<Id extends ListOperationId> = Omit<QueryOf<Id>, 'cursor'>;

/** A bulk payout's progress without its items, as watchBulkDisbursement yields it. */
export type BulkProgress = Omit<AnswerOf<'getBulkDisbursement'>, 'items'>;

/** The statuses after which a bulk changes no more. */
const finalBulkStatuses: ReadonlySet<string> = new Set(['completed', 'completed_with_failures']);

export interface WatchBulkOptions {
  /** The wait between two reads (default 2,000 ms). */
  intervalMs?: number;
}

/** What disburse() pays: the quote's fields and the transfer's. */
export interface DisburseOrder {
  phone: BodyOf<'quoteDisbursement'>['phone'];
  amount: BodyOf<'quoteDisbursement'>['amount'];
  currency: BodyOf<'quoteDisbursement'>['currency'];
  /** Yours, unique per payout: kept across the attempts. */
  externalId: BodyOf<'transferDisbursement'>['externalId'];
  note?: BodyOf<'transferDisbursement'>['note'];
}

const sdkVersion = '0.1.0';

/**
 * The codes Node (and undici's fetch, on the error's cause) gives a TLS handshake that refused the
 * server's certificate, by what the partner should do about it. The handshake comes before any
 * byte of the request, so nothing was sent; and a repeat meets the same certificate, so none is retried.
 */
const untrustedCertificateCodes = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
]);
const outOfDateCertificateCodes = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const wrongHostCertificateCode = 'ERR_TLS_CERT_ALTNAME_INVALID';
const trustTheSandbox = "pass ca: readFileSync('.local/tls/cert.pem') to new PartnerApiClient, or start Node with NODE_EXTRA_CA_CERTS=.local/tls/cert.pem";

/** Connection errors that happen before a byte of the request is sent: repeating them is always safe. */
const notSentCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', ...untrustedCertificateCodes, ...outOfDateCertificateCodes, wrongHostCertificateCode]);

const systemClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (delayMs, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReasonOf(signal));
        return;
      }
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, delayMs);
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(abortReasonOf(signal));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/**
 * The Partner Wallet API client: one method per operation of docs/openapi.json (named by its
 * operationId), typed from the generated types, resolving with the answer's `data`; refusals
 * throw PartnerApiError. The token is fetched, cached, renewed before it expires and once more on
 * 401 PKC_1003; retries follow the rules in retry.ts.
 */
export class PartnerApiClient {
  private readonly baseUrl: string;
  private readonly fetchFunction: FetchFunction;
  private readonly timeoutMs: number;
  private readonly transferTimeoutMs: number;
  private readonly retry: RetryOptions;
  private readonly clock: Clock;
  private readonly userAgent: string;
  private readonly tokens: TokenCache;

  constructor(private readonly options: PartnerApiClientOptions) {
    if (!/^https?:\/\//.test(options.baseUrl)) throw new TypeError('baseUrl must be an absolute http(s) URL ending in /api/v1');
    if (options.clientId === '' || options.clientSecret === '') throw new TypeError('clientId and clientSecret are required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    if (options.ca !== undefined && options.fetch !== undefined) throw new TypeError('pass ca or fetch, not both: give your own fetch its certificate authority');
    const globalFetch = (globalThis as { fetch?: FetchFunction }).fetch;
    const chosen = options.ca === undefined ? (options.fetch ?? globalFetch) : fetchTrusting(options.ca);
    if (chosen === undefined) throw new TypeError('no fetch: use Node 18 or later, or pass options.fetch');
    this.fetchFunction = chosen;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.transferTimeoutMs = options.transferTimeoutMs ?? 30_000;
    this.retry = { ...defaultRetryOptions, ...options.retry };
    if (!Number.isInteger(this.retry.attemptsMax) || this.retry.attemptsMax < 1 || this.retry.attemptsMax > 20) throw new RangeError('retry.attemptsMax must be an integer from 1 to 20');
    this.clock = { ...systemClock, ...options.clock };
    this.userAgent = options.userAgent ?? `partner-wallet-sdk/${sdkVersion}`;
    this.tokens = new TokenCache(
      async () => {
        const token = await this.getAccessToken();
        return { accessToken: token.access_token, expiresInSeconds: token.expires_in };
      },
      options.tokenRefreshMarginSeconds ?? 60,
      () => this.clock.now(),
    );
  }

  // ---- Authentication -------------------------------------------------------------------------

  /** A new token for the client's credentials (the client caches one itself; call this only to inspect it). */
  getAccessToken(options?: CallOptions): Promise<AnswerOf<'getAccessToken'>> {
    return this.call('getAccessToken', { body: { client_id: this.options.clientId, client_secret: this.options.clientSecret } }, options);
  }

  // ---- Account and balance --------------------------------------------------------------------

  lookUpAccount(phone: PathOf<'lookUpAccount'>['phone'], options?: CallOptions): Promise<AnswerOf<'lookUpAccount'>> {
    return this.call('lookUpAccount', { path: { phone } }, options);
  }

  getBalance(options?: CallOptions): Promise<AnswerOf<'getBalance'>> {
    return this.call('getBalance', {}, options);
  }

  /** Your prices and limits: the fee schedule per type and currency, the per-transaction minimum and maximum, the allowed decimals and your rate limit. */
  getPricing(options?: CallOptions): Promise<AnswerOf<'getPricing'>> {
    return this.call('getPricing', {}, options);
  }

  // ---- Collections ----------------------------------------------------------------------------

  quoteCollection(body: BodyOf<'quoteCollection'>, options?: CallOptions): Promise<AnswerOf<'quoteCollection'>> {
    return this.call('quoteCollection', { body }, options);
  }

  /** Never retried but on 429 PKC_7001: a repeat could ask the user twice. */
  requestCollection(body: BodyOf<'requestCollection'>, options?: CallOptions): Promise<AnswerOf<'requestCollection'>> {
    return this.call('requestCollection', { body }, options);
  }

  getCollection(referenceId: PathOf<'getCollection'>['referenceId'], options?: CallOptions): Promise<AnswerOf<'getCollection'>> {
    return this.call('getCollection', { path: { referenceId } }, options);
  }

  listCollections(query: QueryOf<'listCollections'> = {}, options?: CallOptions): Promise<AnswerOf<'listCollections'>> {
    return this.call('listCollections', { query }, options);
  }

  /** Every collection matching the filters, newest first, fetching pages as you iterate. */
  iterateCollections(query: ListQuery<'listCollections'> = {}, options?: CallOptions & PaginateOptions): AsyncGenerator<ItemOf<'listCollections'>, void, undefined> {
    return this.paginate('listCollections', query, options);
  }

  /**
   * Withdraws a pending collection (it becomes cancelled; no money moves). Never retried but on 429
   * PKC_7001: after a lost answer, read the collection instead (a repeat would answer 409 PKC_6004).
   */
  cancelCollection(referenceId: PathOf<'cancelCollection'>['referenceId'], options?: CallOptions): Promise<AnswerOf<'cancelCollection'>> {
    return this.call('cancelCollection', { path: { referenceId } }, options);
  }

  // ---- Refunds --------------------------------------------------------------------------------

  /**
   * Gives money back on a completed collection (amount left out: what is left to refund). Resolves
   * with the refund, completed (200) or processing (202: it completes on its own; read it with
   * getRefund). Moves money: timeout 30 s, retried only on 429 PKC_7001; after a timeout or a lost
   * connection (`error.outcomeUnknown`), look it up with listRefunds({ externalId }) or send the
   * same externalId again (409 PKC_6001 names the refund that holds it).
   */
  refundCollection(referenceId: PathOf<'refundCollection'>['referenceId'], body: BodyOf<'refundCollection'>, options?: CallOptions): Promise<AnswerOf<'refundCollection'>> {
    return this.call('refundCollection', { path: { referenceId }, body }, options);
  }

  getRefund(referenceId: PathOf<'getRefund'>['referenceId'], options?: CallOptions): Promise<AnswerOf<'getRefund'>> {
    return this.call('getRefund', { path: { referenceId } }, options);
  }

  listRefunds(query: QueryOf<'listRefunds'> = {}, options?: CallOptions): Promise<AnswerOf<'listRefunds'>> {
    return this.call('listRefunds', { query }, options);
  }

  /** Every refund matching the filters, newest first, fetching pages as you iterate. */
  iterateRefunds(query: ListQuery<'listRefunds'> = {}, options?: CallOptions & PaginateOptions): AsyncGenerator<ItemOf<'listRefunds'>, void, undefined> {
    return this.paginate('listRefunds', query, options);
  }

  // ---- Disbursements --------------------------------------------------------------------------

  quoteDisbursement(body: BodyOf<'quoteDisbursement'>, options?: CallOptions): Promise<AnswerOf<'quoteDisbursement'>> {
    return this.call('quoteDisbursement', { body }, options);
  }

  /**
   * Moves money. Timeout 30 s by default. Retried only on 429 PKC_7001 (refused before any service
   * saw it); never after a timeout, a lost connection or a 5xx that may hide a completed transfer
   * (then `error.outcomeUnknown` is true: look it up with listDisbursements({ externalId })). A 504
   * PKC_7004 (nothing was posted) is not resent with the same quoteId: the attempt spent the quote.
   * `disburse()` re-quotes and sends the same externalId again.
   */
  transferDisbursement(body: BodyOf<'transferDisbursement'>, options?: CallOptions): Promise<AnswerOf<'transferDisbursement'>> {
    return this.call('transferDisbursement', { body }, options);
  }

  /**
   * Quote and transfer in one call, with your externalId. When the server's 25-second budget runs
   * out (504 PKC_7004: nothing was posted, the externalId is free again, the quote is spent) it
   * gets a new quote and sends the same externalId again, up to `budgetAttemptsMax` transfers
   * (default 3), waiting between them as between retries. Every other refusal is thrown as is.
   */
  async disburse(order: DisburseOrder, options: CallOptions & { budgetAttemptsMax?: number } = {}): Promise<AnswerOf<'transferDisbursement'>> {
    const budgetAttemptsMax = options.budgetAttemptsMax ?? 3;
    for (let attempt = 1; ; attempt += 1) {
      const quote = await this.quoteDisbursement({ phone: order.phone, amount: order.amount, currency: order.currency }, options);
      try {
        return await this.transferDisbursement({ quoteId: quote.quoteId, externalId: order.externalId, ...(order.note === undefined ? {} : { note: order.note }) }, options);
      } catch (error) {
        if (!(error instanceof PartnerApiError) || error.code !== 'PKC_7004' || attempt >= budgetAttemptsMax) throw error;
        await this.clock.sleep(retryDelayMs(attempt + 1, undefined, this.retry, () => this.clock.random()) ?? 0, options.signal);
      }
    }
  }

  getDisbursement(referenceId: PathOf<'getDisbursement'>['referenceId'], options?: CallOptions): Promise<AnswerOf<'getDisbursement'>> {
    return this.call('getDisbursement', { path: { referenceId } }, options);
  }

  listDisbursements(query: QueryOf<'listDisbursements'> = {}, options?: CallOptions): Promise<AnswerOf<'listDisbursements'>> {
    return this.call('listDisbursements', { query }, options);
  }

  iterateDisbursements(query: ListQuery<'listDisbursements'> = {}, options?: CallOptions & PaginateOptions): AsyncGenerator<ItemOf<'listDisbursements'>, void, undefined> {
    return this.paginate('listDisbursements', query, options);
  }

  // ---- Bulk payouts ---------------------------------------------------------------------------

  /**
   * Checks and prices 1 to 1,000 payouts in one call; resolves with one result per item (valid with
   * its fee, or invalid with its failureReason). Moves nothing, so it is retried like a read. When
   * no item is valid it throws 400 PKC_5005 with `error.fields.items` (every item's result).
   */
  quoteBulkDisbursement(body: BodyOf<'quoteBulkDisbursement'>, options?: CallOptions): Promise<AnswerOf<'quoteBulkDisbursement'>> {
    return this.call('quoteBulkDisbursement', { body }, options);
  }

  /**
   * Pays the valid items of a bulk quote: resolves with the bulk's summary (202 accepted; 200 when
   * the same bulkQuoteId and externalId were sent before). Retried only on 429 PKC_7001; after a
   * timeout or a lost connection (`error.outcomeUnknown`) send the same body again: it answers the
   * bulk that was made, if one was. Follow it with watchBulkDisbursement or getBulkDisbursement.
   */
  transferBulkDisbursement(body: BodyOf<'transferBulkDisbursement'>, options?: CallOptions): Promise<AnswerOf<'transferBulkDisbursement'>> {
    return this.call('transferBulkDisbursement', { body }, options);
  }

  /** The bulk as it is now: status, counts and totals (its `items`, a nested page, is deprecated: use listBulkDisbursementItems). */
  getBulkDisbursement(bulkId: PathOf<'getBulkDisbursement'>['bulkId'], query: QueryOf<'getBulkDisbursement'> = {}, options?: CallOptions): Promise<AnswerOf<'getBulkDisbursement'>> {
    return this.call('getBulkDisbursement', { path: { bulkId }, query }, options);
  }

  /** One page of the bulk's items in your order: `{ items, nextCursor, hasMore }`, as every list. */
  listBulkDisbursementItems(
    bulkId: PathOf<'listBulkDisbursementItems'>['bulkId'],
    query: QueryOf<'listBulkDisbursementItems'> = {},
    options?: CallOptions,
  ): Promise<AnswerOf<'listBulkDisbursementItems'>> {
    return this.call('listBulkDisbursementItems', { path: { bulkId }, query }, options);
  }

  /** Every item of the bulk, in your order, each the disbursement it became, fetching pages as you iterate. */
  iterateBulkItems(
    bulkId: PathOf<'listBulkDisbursementItems'>['bulkId'],
    query: Omit<QueryOf<'listBulkDisbursementItems'>, 'cursor'> = {},
    options?: CallOptions & PaginateOptions,
  ): AsyncGenerator<AnswerOf<'listBulkDisbursementItems'>['items'][number], void, undefined> {
    return paginate(
      (cursor) => this.listBulkDisbursementItems(bulkId, { ...query, ...(cursor === undefined ? {} : { cursor }) }, options),
      (page) => itemsPage(page),
      options,
    );
  }

  /** One page of your bulk payouts, newest first, each as its summary: `{ items, nextCursor, hasMore }`, as every list. */
  listBulkDisbursements(query: QueryOf<'listBulkDisbursements'> = {}, options?: CallOptions): Promise<AnswerOf<'listBulkDisbursements'>> {
    return this.call('listBulkDisbursements', { query }, options);
  }

  /** Every bulk payout of yours matching the filters, newest first, each as its summary, fetching pages as you iterate. */
  iterateBulkDisbursements(query: ListQuery<'listBulkDisbursements'> = {}, options?: CallOptions & PaginateOptions): AsyncGenerator<ItemOf<'listBulkDisbursements'>, void, undefined> {
    return this.paginate('listBulkDisbursements', query, options);
  }

  /**
   * The bulk's progress, read every `intervalMs` (default 2 s): yields its summary (status, counts,
   * totals; no items) after each read, the first at once, and returns after yielding a final one
   * (completed or completed_with_failures). Stop early with `break` or options.signal.
   */
  async *watchBulkDisbursement(bulkId: PathOf<'getBulkDisbursement'>['bulkId'], options: CallOptions & WatchBulkOptions = {}): AsyncGenerator<BulkProgress, void, undefined> {
    const intervalMs = options.intervalMs ?? 2_000;
    if (!Number.isFinite(intervalMs) || intervalMs < 0) throw new RangeError('intervalMs must be a number of milliseconds, 0 or more');
    for (;;) {
      // One item per read: the summary is what is watched; iterateBulkItems reads the items.
      const progress = progressOf(await this.getBulkDisbursement(bulkId, { limit: 1 }, options));
      yield progress;
      if (finalBulkStatuses.has(progress.status)) return;
      await this.clock.sleep(intervalMs, options.signal);
    }
  }

  // ---- Statement and events -------------------------------------------------------------------

  /** A page of the statement as JSON (for the CSV form, getStatementCsv). */
  getStatement(query: Omit<QueryOf<'getStatement'>, 'format'>, options?: CallOptions): Promise<AnswerOf<'getStatement'>> {
    return this.call('getStatement', { query: { ...query, format: 'json' } }, options);
  }

  /** A page of the statement as CSV text (format=csv). */
  getStatementCsv(query: Omit<QueryOf<'getStatement'>, 'format'>, options?: CallOptions): Promise<string> {
    return this.call('getStatement', { query: { ...query, format: 'csv' }, answer: 'text' }, options) as unknown as Promise<string>;
  }

  /** Every movement of the period, page after page. */
  iterateStatement(query: Omit<ListQuery<'getStatement'>, 'format'>, options?: CallOptions & PaginateOptions): AsyncGenerator<ItemOf<'getStatement'>, void, undefined> {
    return this.paginate('getStatement', { ...query, format: 'json' }, options);
  }

  listEvents(query: QueryOf<'listEvents'> = {}, options?: CallOptions): Promise<AnswerOf<'listEvents'>> {
    return this.call('listEvents', { query }, options);
  }

  iterateEvents(query: ListQuery<'listEvents'> = {}, options?: CallOptions & PaginateOptions): AsyncGenerator<ItemOf<'listEvents'>, void, undefined> {
    return this.paginate('listEvents', query, options);
  }

  getEvent(eventId: PathOf<'getEvent'>['eventId'], options?: CallOptions): Promise<AnswerOf<'getEvent'>> {
    return this.call('getEvent', { path: { eventId } }, options);
  }

  // ---- Webhook deliveries ---------------------------------------------------------------------

  listWebhookDeliveries(query: QueryOf<'listWebhookDeliveries'> = {}, options?: CallOptions): Promise<AnswerOf<'listWebhookDeliveries'>> {
    return this.call('listWebhookDeliveries', { query }, options);
  }

  /** Every delivery matching the filters, newest first, fetching pages as you iterate. */
  iterateWebhookDeliveries(
    query: Omit<QueryOf<'listWebhookDeliveries'>, 'cursor'> = {},
    options?: CallOptions & PaginateOptions,
  ): AsyncGenerator<AnswerOf<'listWebhookDeliveries'>['items'][number], void, undefined> {
    return paginate(
      (cursor) => this.listWebhookDeliveries({ ...query, ...(cursor === undefined ? {} : { cursor }) }, options),
      (page) => itemsPage(page),
      options,
    );
  }

  redeliverWebhookDelivery(deliveryId: PathOf<'redeliverWebhookDelivery'>['deliveryId'], options?: CallOptions): Promise<AnswerOf<'redeliverWebhookDelivery'>> {
    return this.call('redeliverWebhookDelivery', { path: { deliveryId } }, options);
  }

  redeliverFailedWebhookDeliveries(body: BodyOf<'redeliverFailedWebhookDeliveries'>, options?: CallOptions): Promise<AnswerOf<'redeliverFailedWebhookDeliveries'>> {
    return this.call('redeliverFailedWebhookDeliveries', { body }, options);
  }

  /**
   * Sends a webhook.test event to your registered URL, signed and retried like any other event, to
   * check your receiver; answers the pending delivery (follow it with listWebhookDeliveries({ referenceId })).
   * A retried call may send a second test: harmless, it moves no money.
   */
  sendTestWebhook(options?: CallOptions): Promise<AnswerOf<'sendTestWebhook'>> {
    return this.call('sendTestWebhook', {}, options);
  }

  // ---- Sandbox only ---------------------------------------------------------------------------

  /** Sandbox only: the user approves the collection (money moves). */
  sandboxApproveCollection(referenceId: PathOf<'sandboxApproveCollection'>['referenceId'], options?: CallOptions): Promise<AnswerOf<'sandboxApproveCollection'>> {
    return this.call('sandboxApproveCollection', { path: { referenceId } }, options);
  }

  sandboxDeclineCollection(referenceId: PathOf<'sandboxDeclineCollection'>['referenceId'], options?: CallOptions): Promise<AnswerOf<'sandboxDeclineCollection'>> {
    return this.call('sandboxDeclineCollection', { path: { referenceId } }, options);
  }

  sandboxExpireCollection(referenceId: PathOf<'sandboxExpireCollection'>['referenceId'], options?: CallOptions): Promise<AnswerOf<'sandboxExpireCollection'>> {
    return this.call('sandboxExpireCollection', { path: { referenceId } }, options);
  }

  // ---- The contract itself (no token) ---------------------------------------------------------

  getOpenApiDocument(options?: CallOptions): Promise<AnswerOf<'getOpenApiDocument'>> {
    return this.call('getOpenApiDocument', {}, options);
  }

  getApiReferencePage(options?: CallOptions): Promise<AnswerOf<'getApiReferencePage'>> {
    return this.call('getApiReferencePage', {}, options);
  }

  getPostmanCollection(options?: CallOptions): Promise<AnswerOf<'getPostmanCollection'>> {
    return this.call('getPostmanCollection', {}, options);
  }

  // ---- Generic --------------------------------------------------------------------------------

  /** Every item of any `{ items, nextCursor, hasMore }` list, by operationId (lists added later included). */
  paginate<Id extends ListOperationId>(operationId: Id, query: ListQuery<Id>, options: CallOptions & PaginateOptions = {}): AsyncGenerator<ItemOf<Id>, void, undefined> {
    const fetchPage = (cursor: string | undefined): Promise<{ items: ItemOf<Id>[]; nextCursor: string | null; hasMore: boolean }> =>
      this.call(operationId, { query: { ...(query as Record<string, unknown>), ...(cursor === undefined ? {} : { cursor }) } }, options) as Promise<{
        items: ItemOf<Id>[];
        nextCursor: string | null;
        hasMore: boolean;
      }>;
    return paginate(fetchPage, itemsPage, options);
  }

  /**
   * Any operation by operationId, with its path parameters, query and JSON body: what every method
   * above calls. Resolves with the answer's data; throws PartnerApiError.
   */
  async call<Id extends OperationId>(operationId: Id, request: CallRequest, options: CallOptions = {}): Promise<AnswerOf<Id>> {
    const spec = (operationTable as Record<OperationId, OperationSpec>)[operationId];
    const url = this.urlOf(spec, request);
    const timeoutMs = options.timeoutMs ?? (spec.retryClass === 'transfer' ? this.transferTimeoutMs : this.timeoutMs);
    const answerForm = request.answer ?? spec.answer;
    let tokenRenewed = false;
    for (let attempt = 1; ; attempt += 1) {
      const token = spec.authentication === 'bearer' ? await this.tokens.get() : undefined;
      const result = await this.attempt(spec, url, request, answerForm, token, timeoutMs, options.signal);
      if (result.kind === 'answer' && result.status >= 200 && result.status < 300) return this.answerOf(operationId, result, answerForm, attempt) as AnswerOf<Id>;
      const error = this.errorOf(operationId, spec, result, attempt);
      if (token !== undefined && error.status === 401 && error.code === 'PKC_1003' && !tokenRenewed) {
        // The token expired early (clock skew, a shortened lifetime): renew once; this does not count as a retry.
        this.tokens.invalidate(token);
        tokenRenewed = true;
        attempt -= 1;
        continue;
      }
      const outcome: AttemptOutcome = result.kind === 'answer' ? { kind: 'answer', status: result.status, code: error.code.startsWith('PKC_') ? error.code : undefined, retryAfterSeconds: error.retryAfter } : result;
      // A refused certificate is refused again on every attempt: say what to do at once instead.
      const repeatable = isRetryable(spec.retryClass, outcome) && (result.kind === 'answer' || certificateAdviceOf(causeCodeOf(result.cause)) === undefined);
      const delayMs = attempt < this.retry.attemptsMax && repeatable ? retryDelayMs(attempt + 1, error.retryAfter, this.retry, () => this.clock.random()) : undefined;
      if (delayMs === undefined) throw error;
      await this.clock.sleep(delayMs, options.signal);
    }
  }

  private urlOf(spec: OperationSpec, request: CallRequest): string {
    const path = spec.path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
      const value = request.path?.[name];
      if (value === undefined || value === '') throw new TypeError(`${name} is required`);
      return encodeURIComponent(value);
    });
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') query.append(name, String(value));
      else if (value !== undefined && value !== null) throw new TypeError(`query parameter ${name} must be a string, number or boolean`);
    }
    const search = query.toString();
    return `${this.baseUrl}${path}${search === '' ? '' : `?${search}`}`;
  }

  private async attempt(
    spec: OperationSpec,
    url: string,
    request: CallRequest,
    answerForm: AnswerForm,
    token: string | undefined,
    timeoutMs: number,
    callerSignal: AbortSignal | undefined,
  ): Promise<AttemptResult> {
    if (callerSignal?.aborted) throw callerSignal.reason;
    const headers: Record<string, string> = {
      accept: answerForm === 'text' ? (spec.path === '/docs' ? 'text/html' : 'text/csv') : 'application/json',
      'user-agent': this.userAgent,
    };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    const body = request.body === undefined ? (spec.method === 'POST' ? '{}' : undefined) : JSON.stringify(request.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const onCallerAbort = (): void => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      const answer = await this.fetchFunction(url, { method: spec.method, headers, ...(body === undefined ? {} : { body }), signal: controller.signal });
      const text = await answer.text();
      return { kind: 'answer', status: answer.status, headers: answer.headers, text };
    } catch (cause) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      return { kind: 'no-answer', sent: timedOut || !notSentCodes.has(causeCodeOf(cause)), timedOut, cause };
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }
  }

  private answerOf(operationId: OperationId, result: Extract<AttemptResult, { kind: 'answer' }>, answerForm: AnswerForm, attempts: number): unknown {
    if (answerForm === 'text') return result.text;
    const body = jsonOrUndefined(result.text);
    if (answerForm === 'bare' && typeof body === 'object' && body !== null) return body;
    if (answerForm === 'envelope' && isRecord(body) && body.success === true && 'data' in body) return body.data;
    throw new PartnerApiError({
      code: 'SDK_UNEXPECTED_ANSWER',
      status: result.status,
      message: `${operationId} answered ${result.status} with a body that is not the API's JSON`,
      operationId,
      requestId: result.headers.get('x-request-id') ?? undefined,
      attempts,
      outcomeUnknown: false,
    });
  }

  private errorOf(operationId: OperationId, spec: OperationSpec, result: AttemptResult, attempts: number): PartnerApiError {
    const mayHaveActed = spec.retryClass !== 'safe';
    if (result.kind === 'no-answer') {
      const code: SdkErrorCode = result.timedOut ? 'SDK_TIMEOUT' : 'SDK_NETWORK';
      const advice = result.timedOut ? undefined : certificateAdviceOf(causeCodeOf(result.cause));
      return new PartnerApiError({
        code,
        status: 0,
        message: `${operationId}: ${result.timedOut ? 'no answer in time' : 'the request failed before an answer'} (${messageOf(result.cause)})${advice === undefined ? '' : `. ${advice}`}`,
        operationId,
        attempts,
        outcomeUnknown: mayHaveActed && result.sent,
        cause: result.cause,
      });
    }
    const body = jsonOrUndefined(result.text);
    const requestId = result.headers.get('x-request-id') ?? undefined;
    const retryAfter = parseRetryAfter(result.headers.get('retry-after'), this.clock.now());
    if (isRecord(body) && typeof body.code === 'string' && /^PKC_\d{4}$/.test(body.code) && typeof body.message === 'string') {
      const fields: ErrorFields = Object.fromEntries(Object.entries(body).filter(([name]) => name !== 'success' && name !== 'code' && name !== 'message'));
      const code = body.code as PkcCode;
      return new PartnerApiError({
        code,
        status: result.status,
        message: body.message,
        operationId,
        fields,
        ...(requestId === undefined ? {} : { requestId }),
        ...(retryAfter === undefined ? {} : { retryAfter }),
        attempts,
        outcomeUnknown: mayHaveActed && result.status >= 500 && code !== 'PKC_7004',
      });
    }
    return new PartnerApiError({
      code: 'SDK_UNEXPECTED_ANSWER',
      status: result.status,
      message: `${operationId} answered ${result.status} without the API's error body`,
      operationId,
      ...(requestId === undefined ? {} : { requestId }),
      ...(retryAfter === undefined ? {} : { retryAfter }),
      attempts,
      outcomeUnknown: mayHaveActed && result.status >= 500,
    });
  }
}

/** The bulk without its page of items. */
function progressOf(bulk: AnswerOf<'getBulkDisbursement'>): BulkProgress {
  const progress: Partial<AnswerOf<'getBulkDisbursement'>> = { ...bulk };
  delete progress.items;
  return progress as BulkProgress;
}

function abortReasonOf(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new Error('aborted', { cause: reason });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The error's message and its cause's; read by shape, since an error from another realm (a test VM) is no instanceof Error here. */
function messageOf(error: unknown): string {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  const own = textOf(error) ?? String(error);
  const causeText = textOf(cause);
  return causeText === undefined ? own : `${own}: ${causeText}`;
}

function textOf(error: unknown): string | undefined {
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

/**
 * What to do about a certificate the TLS handshake refused, in a sentence naming the fix; undefined
 * when the code is not a certificate's.
 */
function certificateAdviceOf(code: string): string | undefined {
  if (untrustedCertificateCodes.has(code)) {
    return `The server's TLS certificate is not trusted (${code}). For the local sandbox of npm start (a self-signed certificate), ${trustTheSandbox}; for another environment, pass as ca the CA certificate its operator gives you. Do not turn certificate verification off.`;
  }
  if (outOfDateCertificateCodes.has(code)) {
    return `The server's TLS certificate is outside its validity period (${code}): check this machine's clock. The local sandbox's certificate is renewed by the next npm start; then ${trustTheSandbox} again.`;
  }
  if (code === wrongHostCertificateCode) {
    return `The server's TLS certificate does not name the host of baseUrl (${code}): use a host it was issued for (the local sandbox's names localhost and 127.0.0.1), and ${trustTheSandbox}.`;
  }
  return undefined;
}

/**
 * The fetch of a client given `ca`: node:https with one keep-alive agent that trusts Node's bundled
 * roots and `ca` (node:http for a plain http: base URL). It reads the whole answer before resolving,
 * under the request's signal, so the call's timeout covers the body as with the global fetch.
 */
function fetchTrusting(ca: CertificateAuthorities): FetchFunction {
  const added = typeof ca === 'string' || Buffer.isBuffer(ca) ? [ca] : [...ca];
  const agent = new HttpsAgent({ keepAlive: true, ca: [...rootCertificates, ...added] });
  return (url, init) =>
    new Promise<FetchAnswer>((resolve, reject) => {
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      const headers = init.body === undefined ? init.headers : { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) };
      const request = (secure ? httpsRequest : httpRequest)(target, { method: init.method, headers, signal: init.signal, ...(secure ? { agent } : {}) }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', reject);
        answer.on('close', () => {
          if (!answer.complete) reject(new Error('the connection closed before the whole answer arrived'));
        });
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: answer.statusCode ?? 0, headers: { get: (name) => headerText(answer.headers[name.toLowerCase()]) }, text: () => Promise.resolve(text) });
        });
      });
      request.on('error', reject);
      request.end(init.body);
    });
}

function headerText(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The system error code of a fetch failure (undici puts it on the cause). */
function causeCodeOf(error: unknown): string {
  const direct = (error as { code?: unknown } | undefined)?.code;
  if (typeof direct === 'string') return direct;
  const nested = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return typeof nested === 'string' ? nested : '';
}
