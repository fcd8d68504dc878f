/**
 * Collect from a wallet user and wait for the answer by polling the status endpoint (webhooks are
 * the better way; this is for when you cannot receive them). In the sandbox the user's approval
 * can be simulated. Run: PWA_BASE_URL=… PWA_CLIENT_ID=… PWA_CLIENT_SECRET=… node
 * collection-with-polling.js 0770000001 10.00 USD --approve-in-sandbox (after compiling with tsc;
 * 0770000001 is the sandbox's test user Comfort Gold). Against the local sandbox of npm start (base
 * URL https://localhost:8443/api/v1, a self-signed certificate) also set PWA_CA_FILE=.local/tls/cert.pem.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PartnerApiClient, type AnswerOf } from '@partner-wallet/sdk';

export type Collection = AnswerOf<'getCollection'>;

export interface CollectOptions {
  /** Between two status reads (default 2 s; the user has 10 minutes to answer). */
  pollIntervalMs?: number;
  /** Give up waiting after this long (default 11 minutes: past the approval window). */
  waitMaxMs?: number;
  /** Sandbox only: approve as the user would, right after the request. */
  approveInSandbox?: boolean;
}

const finalStatuses = new Set<Collection['status']>(['completed', 'declined', 'expired', 'failed']);

/** Quote, request, then poll until the collection is final (or the wait is over: then its last status). */
export async function collect(
  client: PartnerApiClient,
  order: { phone: string; amount: number; currency: 'LRD' | 'USD'; externalId: string; note?: string },
  options: CollectOptions = {},
): Promise<Collection> {
  const quote = await client.quoteCollection({ phone: order.phone, amount: order.amount, currency: order.currency });
  const requested = await client.requestCollection({ quoteId: quote.quoteId, externalId: order.externalId, ...(order.note === undefined ? {} : { note: order.note }) });
  if (options.approveInSandbox === true) await client.sandboxApproveCollection(requested.referenceId);

  const deadline = Date.now() + (options.waitMaxMs ?? 11 * 60_000);
  const pollIntervalMs = options.pollIntervalMs ?? 2_000;
  let collection = await client.getCollection(requested.referenceId);
  while (!finalStatuses.has(collection.status) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
    collection = await client.getCollection(requested.referenceId);
  }
  return collection;
}

async function main(argv: readonly string[]): Promise<void> {
  const [phone, amount, currency] = argv;
  if (phone === undefined || amount === undefined || (currency !== 'LRD' && currency !== 'USD')) throw new Error('usage: collection-with-polling <phone> <amount> <LRD|USD> [--approve-in-sandbox]');
  const client = new PartnerApiClient({ baseUrl: requiredEnv('PWA_BASE_URL'), clientId: requiredEnv('PWA_CLIENT_ID'), clientSecret: requiredEnv('PWA_CLIENT_SECRET'), ...trustedCertificate() });
  const collection = await collect(client, { phone, amount: Number(amount), currency, externalId: `order-${randomUUID()}` }, { approveInSandbox: argv.includes('--approve-in-sandbox') });
  process.stdout.write(`${JSON.stringify(collection, null, 2)}\n`);
}

/**
 * The local sandbox of npm start presents a self-signed certificate: PWA_CA_FILE=.local/tls/cert.pem
 * makes the client trust it (as would NODE_EXTRA_CA_CERTS=.local/tls/cert.pem for the whole process).
 * Other environments have publicly trusted certificates and need neither.
 */
function trustedCertificate(): { ca?: Buffer } {
  const caFile = process.env.PWA_CA_FILE;
  return caFile === undefined || caFile === '' ? {} : { ca: readFileSync(caFile) };
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is not set`);
  return value;
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
