// A local webhook receiver for the sandbox partner, started by npm start. It
// answers 200 to every POST on its path and prints one line per delivery: the event, the id it
// carries (a transaction's or test webhook's referenceId, a bulk's bulkId), its status, and
// whether X-Service-Signature (sha256=<hex HMAC-SHA256 of the raw body>) verified
// against the sandbox partner's webhook secret recorded in .local/sandbox.json. The file is read
// for every delivery, so a secret npm start records later is used at once.
//
// Settings (npm start sets them): WEBHOOK_RECEIVER_HOST (127.0.0.1), WEBHOOK_RECEIVER_PORT (8088),
// WEBHOOK_RECEIVER_PATH (/webhooks), SANDBOX_FILE (.local/sandbox.json). Run alone with
// `node scripts/dist/webhook-receiver.js` (after npm run build) to receive for a stack that is
// already running.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { endProcess } from './lib/end-process';
import { asRecord } from './lib/http';
import { repoRoot } from './lib/repo-root';
import { deliveryPayloadText } from './lib/webhook-delivery-line';

const host = process.env.WEBHOOK_RECEIVER_HOST || '127.0.0.1';
const port = Number(process.env.WEBHOOK_RECEIVER_PORT || 8088);
const receiverPath = process.env.WEBHOOK_RECEIVER_PATH || '/webhooks';
const sandboxFile = process.env.SANDBOX_FILE || path.join(repoRoot, '.local', 'sandbox.json');
/** A webhook body is a small JSON object; anything bigger is refused rather than buffered. */
const bodyLengthMaxBytes = 1024 * 1024;
const webhookSecretPrefix = 'whsec_';

const log = (line: string): void => void process.stdout.write(`${new Date().toISOString()} ${line}\n`);

/** The sandbox partner's recorded facts, or an empty object when the file is missing or unreadable. */
function readSandboxFacts(): Record<string, unknown> {
  try {
    return asRecord(JSON.parse(fs.readFileSync(sandboxFile, 'utf8'))) ?? {};
  } catch {
    return {};
  }
}

function hmacHex(key: crypto.BinaryLike, body: Buffer): string {
  return crypto.createHmac('sha256', key).update(body).digest('hex');
}

function equalInConstantTime(expected: string, offered: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(offered, 'utf8');
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/**
 * Checks the signature header against the recorded secret. The key is the secret exactly as
 * issued (the whole `whsec_...` string, UTF-8), as the partner guide documents. A signature keyed
 * with the base64-decoded bytes after `whsec_` (how Standard Webhooks libraries use such secrets)
 * is reported separately, so a mismatch between signer and documentation is visible, not hidden.
 */
function verifySignature(header: string | string[] | undefined, body: Buffer, secret: unknown): string {
  if (typeof secret !== 'string' || !secret.startsWith(webhookSecretPrefix)) return 'not checked (no webhook secret recorded in the sandbox file)';
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return 'INVALID (X-Service-Signature missing or not sha256=<hex>)';
  const offered = header.slice('sha256='.length).toLowerCase();
  if (equalInConstantTime(hmacHex(secret, body), offered)) return 'verified';
  const decodedKey = Buffer.from(secret.slice(webhookSecretPrefix.length), 'base64');
  if (equalInConstantTime(hmacHex(decodedKey, body), offered)) {
    return 'verified only with the decoded secret bytes (the partner guide says the key is the whole whsec_ string)';
  }
  return 'INVALID (does not match the recorded webhookSecret; if you rotated it with npm run operator, record the new one in the sandbox file)';
}

function describeDelivery(request: http.IncomingMessage, body: Buffer): string {
  const facts = readSandboxFacts();
  let payload: Record<string, unknown> | undefined;
  try {
    payload = asRecord(JSON.parse(body.toString('utf8')));
  } catch {
    payload = undefined;
  }
  const partnerId = request.headers['x-service-partner-id'];
  const partner = facts.clientId && partnerId !== facts.clientId ? ` partner=${String(partnerId)} (not the sandbox partner)` : '';
  const what = payload
    ? deliveryPayloadText(payload)
    : `unparseable body (${body.length} bytes)`;
  return `delivery ${what}${partner} signature=${verifySignature(request.headers['x-service-signature'], body, facts.webhookSecret)}`;
}

const server = http.createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://receiver');
  if (request.method === 'GET' && url.pathname === '/healthz') {
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    return;
  }
  if (url.pathname !== receiverPath) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    return;
  }
  if (request.method !== 'POST') {
    response.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('POST only\n');
    return;
  }
  const chunks: Buffer[] = [];
  let length = 0;
  request.on('data', (chunk: Buffer) => {
    length += chunk.length;
    if (length > bodyLengthMaxBytes) {
      response.writeHead(413, { 'content-type': 'text/plain' }).end('body too large\n');
      request.destroy();
      return;
    }
    chunks.push(chunk);
  });
  request.on('end', () => {
    if (response.writableEnded) return;
    log(describeDelivery(request, Buffer.concat(chunks)));
    // Answer 200 whatever the signature said: this receiver shows deliveries, it does not test retries.
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}\n');
  });
});

server.on('error', (error) => {
  process.stderr.write(`webhook receiver could not listen on ${host}:${port}: ${error.message}\n`);
  endProcess(1);
});

server.listen(port, host, () => {
  log(`webhook receiver listening on http://${host}:${port}${receiverPath}; secret from ${sandboxFile}`);
});

function stop(): void {
  server.close(() => endProcess(0));
  server.closeAllConnections();
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
