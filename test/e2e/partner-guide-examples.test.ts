import { readFileSync } from 'node:fs';
import path from 'node:path';
import { webhookEventTypes } from '@pwa/contracts';
import type { JsonResponse } from '../support/https-client';
import { accessTokenFor, pollUntil, type OnboardedPartner } from '../support/partners';
import { startStack, type Stack } from '../support/stack';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * The partner guide's examples, sent to a sandbox stack as a new partner would send them, in the
 * guide's order: each request block (```http example=<name>) is sent as written, and the answer
 * must be its answer block (```json example=<name> [status=<code>]) field for field, fees included.
 * Ids and times cannot be the guide's: the first time a sample id meets the sandbox's, the test
 * learns the pair and puts the live id wherever the guide uses that sample id later (the quote's
 * quoteId in the confirm call, a collection's referenceId in its status path), so one sample id
 * must always stand for one thing; a time only has to be a time. The webhook bodies the guide shows
 * (```json webhook=<event>) are compared with the ones the sandbox sent for those transactions,
 * field order included. The partner is set up as npm start sets up its sandbox partner (the
 * sandbox's test users, 1,000,000 LRD and 10,000 USD), with a webhook URL at a receiver that
 * answers 500, so its deliveries fail as in the guide's delivery-log example.
 */
const guidePath = path.resolve(__dirname, '../../docs/partner-guide.md');

/** The examples the guide marks, in its order: a marker lost or renamed fails the test rather than leaving an example unchecked. */
const expectedExamples = [
  'account-lookup',
  'balance',
  'collection-quote',
  'disbursement-quote',
  'collection-request',
  'collection-status',
  'refund',
  'disbursement-transfer',
  'disbursement-status',
  'bulk-quote',
  'bulk-transfer',
  'bulk-status',
  'webhook-deliveries',
  'webhook-test',
];
const expectedWebhookSamples = ['collection.completed', 'disbursement.reversed', 'bulk.completed', 'webhook.test'];

/**
 * Parts of an answer that are illustrations, compared by shape only (every field there, of the
 * same type): the delivery log's attempts show one failure of each kind (401, timeout, reset,
 * 500), where the test's receiver can only answer 500.
 */
const illustrativePaths: Readonly<Record<string, readonly string[]>> = {
  'webhook-deliveries': ['data.items[].attempts', 'data.deliveries[].attempts'],
};

interface Fence {
  language: string;
  attributes: Record<string, string>;
  text: string;
}

interface GuideExample {
  name: string;
  request: string;
  answer: string;
  status: number;
}

/** Every fenced block at the start of a line, with its info string's `key=value` attributes. */
function fencesOf(markdown: string): Fence[] {
  return [...markdown.matchAll(/^```([^\n]*)\n([\s\S]*?)\n```$/gm)].map((match) => {
    const [language = '', ...words] = (match[1] ?? '').trim().split(/\s+/);
    const attributes = Object.fromEntries(words.map((word) => (word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, ''])));
    return { language, attributes, text: match[2] ?? '' };
  });
}

function examplesOf(fences: readonly Fence[]): GuideExample[] {
  const requests = fences.filter((fence) => fence.language === 'http' && fence.attributes.example !== undefined);
  return requests.map((request) => {
    const name = request.attributes.example ?? '';
    const answers = fences.filter((fence) => fence.language === 'json' && fence.attributes.example === name);
    if (answers.length !== 1 || answers[0] === undefined) throw new Error(`the guide's example ${name} has ${answers.length} answer blocks, not 1`);
    return { name, request: request.text, answer: answers[0].text, status: Number(answers[0].attributes.status ?? '200') };
  });
}

function webhookSamplesOf(fences: readonly Fence[]): Map<string, string> {
  return new Map(fences.filter((fence) => fence.language === 'json' && fence.attributes.webhook !== undefined).map((fence) => [fence.attributes.webhook ?? '', fence.text]));
}

// ---- Comparing a sample with what the sandbox answered ------------------------------------------

const idPatterns: readonly RegExp[] = [/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, /^PKC-\d+-[0-9A-F]+$/, /^PKD-\d+-[0-9A-F]+$/, /^PKR-\d+-[0-9A-F]+$/, /^PKB-\d+-[0-9A-F]+$/, /^PKT-\d+-[0-9A-F]+$/, /^TXN-[0-9A-F]+$/];
const timePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
const idKindOf = (value: string): number => idPatterns.findIndex((pattern) => pattern.test(value));
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What the walk learned: each sample id's live id (for the whole walk), and each sample time's live
 * time (for one answer: the guide reuses its sample times across examples).
 */
class Substitutions {
  readonly ids = new Map<string, string>();
  times = new Map<string, string>();

  /** Replaces every known sample id in a text by its live id; with `times`, this answer's times too. */
  apply(text: string, { times = false } = {}): string {
    let replaced = text;
    for (const [sample, live] of [...this.ids, ...(times ? this.times : [])]) replaced = replaced.split(sample).join(live);
    return replaced;
  }
}

class Comparison {
  readonly mismatches: string[] = [];

  constructor(
    private readonly substitutions: Substitutions,
    private readonly label: string,
    private readonly illustrative: readonly string[] = [],
    private readonly ordered = false,
  ) {}

  /** First pass: pairs the sample's ids and times with the live ones at the same places. */
  learn(sample: unknown, live: unknown): void {
    if (Array.isArray(sample) && Array.isArray(live)) sample.forEach((item, index) => this.learn(item, live[index]));
    else if (isRecord(sample) && isRecord(live)) for (const [key, value] of Object.entries(sample)) this.learn(value, live[key]);
    else if (typeof sample === 'string' && typeof live === 'string') {
      if (idKindOf(sample) >= 0 && idKindOf(sample) === idKindOf(live)) {
        const known = this.substitutions.ids.get(sample);
        if (known !== undefined && known !== live) this.report('', `the guide's ${sample} stood for ${known} before, and here for ${live}`);
        else this.substitutions.ids.set(sample, live);
      } else if (timePattern.test(sample) && timePattern.test(live)) this.substitutions.times.set(sample, live);
    }
  }

  /** Second pass: the same fields, and the same values once ids and times are the live ones. */
  compare(sample: unknown, live: unknown, at: string): void {
    if (this.illustrative.includes(at.replace(/\[\d+\]/g, '[]'))) {
      this.compareShape(sample, live, at);
      return;
    }
    if (Array.isArray(sample)) {
      if (!Array.isArray(live) || live.length !== sample.length) this.report(at, `the guide shows ${sample.length} items, the sandbox answered ${JSON.stringify(live)}`);
      else sample.forEach((item, index) => this.compare(item, live[index], `${at}[${index}]`));
      return;
    }
    if (isRecord(sample)) {
      if (!isRecord(live)) {
        this.report(at, `the guide shows an object, the sandbox answered ${JSON.stringify(live)}`);
        return;
      }
      this.compareKeys(Object.keys(sample), Object.keys(live), at);
      for (const [key, value] of Object.entries(sample)) if (key in live) this.compare(value, live[key], at === '' ? key : `${at}.${key}`);
      return;
    }
    if (typeof sample === 'string' && typeof live === 'string') {
      if (idKindOf(sample) >= 0 ? this.substitutions.ids.get(sample) !== live : timePattern.test(sample) ? !timePattern.test(live) : this.substitutions.apply(sample, { times: true }) !== live) {
        this.report(at, `the guide shows ${JSON.stringify(sample)}, the sandbox answered ${JSON.stringify(live)}`);
      }
      return;
    }
    if (!Object.is(sample, live)) this.report(at, `the guide shows ${JSON.stringify(sample)}, the sandbox answered ${JSON.stringify(live)}`);
  }

  private compareKeys(sampleKeys: string[], liveKeys: string[], at: string): void {
    const missing = liveKeys.filter((key) => !sampleKeys.includes(key));
    const extra = sampleKeys.filter((key) => !liveKeys.includes(key));
    if (missing.length > 0) this.report(at, `the guide does not show ${missing.join(', ')}, which the sandbox answers`);
    if (extra.length > 0) this.report(at, `the guide shows ${extra.join(', ')}, which the sandbox does not answer`);
    if (this.ordered && missing.length === 0 && extra.length === 0 && sampleKeys.join() !== liveKeys.join()) this.report(at, `the guide's field order ${sampleKeys.join(', ')} is not the sandbox's ${liveKeys.join(', ')}`);
  }

  /** Every item of the live list has the fields of the guide's first item, each of the same type. */
  private compareShape(sample: unknown, live: unknown, at: string): void {
    const kind = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
    if (Array.isArray(sample) && Array.isArray(live)) {
      if (sample[0] !== undefined) live.forEach((item, index) => this.compareShape(sample[0], item, `${at}[${index}]`));
    } else if (isRecord(sample) && isRecord(live)) {
      this.compareKeys(Object.keys(sample), Object.keys(live), at);
      // A field the guide shows as null may hold a value on another attempt, and the other way round.
      for (const [key, value] of Object.entries(sample)) if (key in live && value !== null && live[key] !== null) this.compareShape(value, live[key], `${at}.${key}`);
    } else if (kind(sample) !== kind(live)) this.report(at, `the guide shows a ${kind(sample)}, the sandbox answered ${JSON.stringify(live)}`);
  }

  private report(at: string, what: string): void {
    this.mismatches.push(`${this.label}${at === '' ? '' : ` ${at}`}: ${what}`);
  }
}

// ---- The walk -----------------------------------------------------------------------------------

interface SentRequest {
  method: string;
  /** Below the base URL. */
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** "METHOD {base_url}/path", headers, a blank line and the body, with every learned id put in. */
function requestOf(text: string, substitutions: Substitutions): SentRequest {
  const [requestLine = '', ...rest] = substitutions.apply(text).split('\n');
  const match = /^(GET|POST) \{base_url\}(\/\S+)$/.exec(requestLine);
  if (!match) throw new Error(`not a request line: ${requestLine}`);
  const blank = rest.indexOf('');
  const headerLines = blank === -1 ? rest : rest.slice(0, blank);
  const body = blank === -1 ? undefined : rest.slice(blank + 1).join('\n');
  const headers = Object.fromEntries(
    headerLines.filter((line) => !/^authorization:/i.test(line)).map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { method: match[1] ?? '', path: match[2] ?? '', headers, body };
}

describe('the partner guide’s examples against the sandbox', () => {
  const guide = readFileSync(guidePath, 'utf8');
  const fences = fencesOf(guide);
  const examples = examplesOf(fences);
  const webhookSamples = webhookSamplesOf(fences);
  const substitutions = new Substitutions();
  const answerMismatches: string[] = [];
  const webhookMismatches: string[] = [];
  let stack: Stack;
  let receiver: WebhookReceiver;
  let partner: OnboardedPartner;
  let token: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver(() => 500);
    stack = await startStack({
      logLevel: 'warn',
      serviceEnv: {
        collections: { OUTBOX_POLL_INTERVAL_MS: '100' },
        disbursements: { OUTBOX_POLL_INTERVAL_MS: '100' },
        webhooks: { WEBHOOK_POLL_INTERVAL_MS: '100', WEBHOOK_ATTEMPT_TIMEOUT_MS: '1000', WEBHOOK_RETRY_DELAYS_MS: '100,100,100' },
      },
    });
    const onboarded = await stack.operator(['onboard', '--name', 'Guide examples partner', '--permissions', 'collection,disbursement', '--rate-limit', '100000', '--webhook-url', receiver.url]);
    partner = { partnerId: String(onboarded.partnerId), clientId: String(onboarded.clientId), clientSecret: String(onboarded.clientSecret), name: String(onboarded.name) };
    // What npm start does for its sandbox partner: the test users, and 1,000,000 LRD and 10,000 USD.
    await stack.walletOperator(['seed-sandbox', '--partner', partner.partnerId]);
    token = await accessTokenFor(stack.client, partner);

    for (const example of examples) {
      await stepsBefore(example.name);
      answerMismatches.push(...(await sendAndCompare(example)));
    }
    await stepsAfterTheExamples();
    webhookMismatches.push(...compareWebhooks());
  }, 240_000);

  afterAll(async () => {
    try {
      if (stack) expect(await stack.walletOperator(['check-ledger'])).toMatchObject({ ok: true, problems: [] });
    } finally {
      await receiver?.close();
      await stack?.stop();
    }
  });

  const liveIdOf = (sample: string): string => {
    const live = substitutions.ids.get(sample);
    if (live === undefined) throw new Error(`the walk has not met the guide's ${sample} yet`);
    return live;
  };
  const read = (pathBelowBase: string): Promise<JsonResponse> => stack.client.get(pathBelowBase, { bearer: token });

  /** What the reader does between two examples, as the guide's text says (the user approves, the bulk is paid, the webhook fails). */
  async function stepsBefore(name: string): Promise<void> {
    switch (name) {
      case 'collection-status': {
        const collection = liveIdOf('PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E');
        const approved = await stack.client.post(`/partner/v1/sandbox/collection/${collection}/approve`, {}, { bearer: token });
        if (approved.status !== 200) throw new Error(`the sandbox approval answered ${approved.status} ${approved.text}`);
        await pollUntil(() => read(`/partner/v1/collection/${collection}`), (answer) => answer.body?.data?.status === 'completed', 20_000);
        return;
      }
      case 'bulk-status': {
        const bulk = liveIdOf('PKB-1718000000000-2A9C4E6F8B1D3F5A7C9E0B2D');
        await pollUntil(() => read(`/partner/v1/disbursement/bulk/${bulk}`), (answer) => answer.body?.data?.status !== 'processing', 30_000);
        return;
      }
      case 'webhook-deliveries': {
        const collection = liveIdOf('PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E');
        await pollUntil(() => read(`/partner/v1/webhooks/deliveries?referenceId=${collection}&event=collection.completed`), (answer) => answer.body?.data?.items?.[0]?.status === 'failed', 30_000);
        return;
      }
      default:
        return;
    }
  }

  async function sendAndCompare(example: GuideExample): Promise<string[]> {
    const request = requestOf(example.request, substitutions);
    const answer = await stack.client.request(request.method, request.path, { bearer: token, headers: request.headers, ...(request.body === undefined ? {} : { rawBody: request.body }) });
    if (answer.status !== example.status) return [`${example.name}: the guide shows ${example.status}, the sandbox answered ${answer.status} ${answer.text}`];
    const comparison = new Comparison(substitutions, example.name, illustrativePaths[example.name]);
    const sample = JSON.parse(example.answer) as unknown;
    substitutions.times = new Map();
    comparison.learn(sample, answer.body);
    comparison.compare(sample, answer.body, '');
    return comparison.mismatches;
  }

  /** The operator reverses the guide's disbursement; then every webhook the guide shows has arrived. */
  async function stepsAfterTheExamples(): Promise<void> {
    await stack.walletOperator(['reverse-disbursement', '--reference-id', liveIdOf('PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4'), '--reason', 'sent in error']);
    await pollUntil(
      () => Promise.resolve(receiver.received.slice()),
      (received) => expectedWebhookSamples.every((event) => received.some((webhook) => eventOf(webhook) === event)),
      30_000,
    );
  }

  function eventOf(webhook: ReceivedWebhook): unknown {
    return (JSON.parse(webhook.body) as { event?: unknown }).event;
  }

  /** The first body of each kind the guide shows, against the guide's, in the same field order. */
  function compareWebhooks(): string[] {
    const mismatches: string[] = [];
    for (const [event, sampleText] of webhookSamples) {
      const webhook = receiver.received.find((candidate) => eventOf(candidate) === event);
      if (webhook === undefined) {
        mismatches.push(`webhook ${event}: the sandbox sent none`);
        continue;
      }
      const comparison = new Comparison(substitutions, `webhook ${event}`, [], true);
      const sample = JSON.parse(sampleText) as unknown;
      const live = JSON.parse(webhook.body) as unknown;
      substitutions.times = new Map();
      comparison.learn(sample, live);
      comparison.compare(sample, live, '');
      mismatches.push(...comparison.mismatches);
    }
    return mismatches;
  }

  test('when the guide is read, then it marks the examples this test sends, each request with one answer, and the webhook bodies it compares', () => {
    const answerNames = fences.filter((fence) => fence.language === 'json' && fence.attributes.example !== undefined).map((fence) => fence.attributes.example);

    expect(examples.map((example) => example.name)).toEqual(expectedExamples);
    expect(answerNames).toEqual(expectedExamples);
    expect([...webhookSamples.keys()]).toEqual(expectedWebhookSamples);
  });

  test('when the guide’s requests are sent in its order, then each is accepted and answered with the guide’s status, fields and values (fees included), ids and times aside', () => {
    expect(answerMismatches).toEqual([]);
  });

  test('when the sandbox sends the webhooks of the guide’s transactions, then each body is the guide’s, field for field and in its order', () => {
    expect(webhookMismatches).toEqual([]);
    expect(receiver.contractMismatches).toEqual([]);
  });

  test('when the guide lists the event kinds, then its table has exactly the kinds the API sends', () => {
    const section = guide.slice(guide.indexOf('### Event kinds'), guide.indexOf('### Payload'));
    const listed = [...section.matchAll(/^\| `([a-z]+\.[a-z]+)` \|/gm)].map((match) => match[1]);
    expect(listed).toEqual([...webhookEventTypes]);
  });
});
