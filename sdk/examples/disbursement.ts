/**
 * Send money to a wallet user: quote, then transfer with your own externalId (client.disburse),
 * and know what happened even when the network fails. Run: PWA_BASE_URL=… PWA_CLIENT_ID=… PWA_CLIENT_SECRET=…
 * node disbursement.js 0770000001 25.50 USD payout-1001 (after compiling with tsc; 0770000001 is the
 * sandbox's test user Comfort Gold). Against the local sandbox of npm start (base URL
 * https://localhost:8443/api/v1, a self-signed certificate) also set PWA_CA_FILE=.local/tls/cert.pem.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isPartnerApiError, PartnerApiClient, type AnswerOf } from '@partner-wallet/sdk';

export interface PayOut {
  phone: string;
  /** Major units, at most 2 decimals (what the API takes). */
  amount: number;
  currency: 'LRD' | 'USD';
  /** Yours, unique per payout: the API refuses a second transfer with it (409 PKC_6001). */
  externalId: string;
  note?: string;
}

export type PayOutResult =
  | { outcome: 'completed'; referenceId: string; transactionId: string | null; totalDebit: number }
  | { outcome: 'refused'; code: string; message: string }
  | { outcome: 'unknown'; externalId: string };

export async function payOut(client: PartnerApiClient, order: PayOut): Promise<PayOutResult> {
  try {
    // Quote, then transfer; if the server's budget runs out (504 PKC_7004, nothing posted) it quotes again and resends the externalId.
    const transfer = await client.disburse(order);
    return { outcome: 'completed', referenceId: transfer.referenceId, transactionId: transfer.transactionId, totalDebit: transfer.totalDebit };
  } catch (error) {
    if (!isPartnerApiError(error)) throw error;
    if (error.code === 'PKC_6001') {
      // This externalId was used already: the refusal names the disbursement that holds it.
      const existing = error.referenceId === undefined ? undefined : await client.getDisbursement(error.referenceId);
      if (existing?.status === 'completed') return { outcome: 'completed', referenceId: existing.referenceId, transactionId: existing.transactionId, totalDebit: existing.totalDebit };
    }
    if (error.outcomeUnknown) {
      // A timeout or a 5xx on the transfer: it may have completed. Look it up by externalId before anything else.
      return (await findByExternalId(client, order.externalId)) ?? { outcome: 'unknown', externalId: order.externalId };
    }
    return { outcome: 'refused', code: error.code, message: error.message };
  }
}

async function findByExternalId(client: PartnerApiClient, externalId: string): Promise<PayOutResult | undefined> {
  const page: AnswerOf<'listDisbursements'> = await client.listDisbursements({ externalId });
  const completed = page.items.find((item) => item.status === 'completed');
  return completed === undefined ? undefined : { outcome: 'completed', referenceId: completed.referenceId, transactionId: completed.transactionId, totalDebit: completed.totalDebit };
}

async function main(argv: readonly string[]): Promise<void> {
  const [phone, amount, currency, externalId] = argv;
  if (phone === undefined || amount === undefined || (currency !== 'LRD' && currency !== 'USD')) throw new Error('usage: disbursement <phone> <amount> <LRD|USD> [externalId]');
  const client = new PartnerApiClient({ baseUrl: requiredEnv('PWA_BASE_URL'), clientId: requiredEnv('PWA_CLIENT_ID'), clientSecret: requiredEnv('PWA_CLIENT_SECRET'), ...trustedCertificate() });
  const result = await payOut(client, { phone, amount: Number(amount), currency, externalId: externalId ?? `payout-${randomUUID()}` });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
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
