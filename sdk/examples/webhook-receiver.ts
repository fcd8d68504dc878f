/**
 * A webhook receiver with node:http: read the raw body, verify it (Standard Webhooks signature and
 * timestamp), deduplicate on webhook-id, answer 2xx fast, then act. Run: PWA_WEBHOOK_SECRET=whsec_…
 * PORT=8080 node webhook-receiver.js (after compiling with tsc); put it behind HTTPS.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { isWebhookVerificationError, verifyWebhook, type WebhookEvent } from '@partner-wallet/sdk';

export interface WebhookReceiverOptions {
  /** Your whsec_… secret (two during a rotation overlap). */
  secret: string | string[];
  /** Called once per event id, after the 2xx is sent. */
  onEvent(event: WebhookEvent, webhookId: string): void | Promise<void>;
  /** Bodies are small; anything larger is refused (default 64 KiB). */
  bodyBytesMax?: number;
}

/** An http.Server answering POST with 204 (verified), 400 (not verified) or 413 (too large). */
export function createWebhookReceiver(options: WebhookReceiverOptions): Server {
  return createServer(webhookRequestListener(options));
}

/** The request handler of createWebhookReceiver, to mount in a server of your own. */
export function webhookRequestListener(options: WebhookReceiverOptions): RequestListener {
  // In production keep these ids in your database (with the event's effect) for at least a day.
  const seen = new Set<string>();
  return (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    readBody(req, options.bodyBytesMax ?? 65_536).then(
      (rawBody) => {
        let event: WebhookEvent;
        try {
          event = verifyWebhook(rawBody, req.headers, options.secret);
        } catch (error) {
          if (isWebhookVerificationError(error) && error.code === 'WEBHOOK_UNKNOWN_EVENT') {
            res.writeHead(204).end(); // Genuine, but newer than this code: acknowledge and ignore.
            return;
          }
          res.writeHead(400, { 'content-type': 'text/plain' }).end(isWebhookVerificationError(error) ? error.code : 'bad request');
          return;
        }
        const webhookId = String(req.headers['webhook-id']);
        res.writeHead(204).end();
        if (seen.has(webhookId)) return;
        seen.add(webhookId);
        Promise.resolve(options.onEvent(event, webhookId)).catch((error: unknown) => process.stderr.write(`webhook handler failed: ${String(error)}\n`));
      },
      () => res.writeHead(413).end(),
    );
  };
}

function readBody(req: IncomingMessage, bytesMax: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > bytesMax) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

if (require.main === module) {
  const secret = process.env.PWA_WEBHOOK_SECRET;
  if (secret === undefined || secret === '') throw new Error('PWA_WEBHOOK_SECRET is not set');
  const server = createWebhookReceiver({
    secret,
    onEvent: (event, webhookId) => {
      // A transaction's events name it by referenceId; bulk.completed names its bulk by bulkId; webhook.test (asked for, no money) has its own PKT-… id.
      if (event.event === 'webhook.test') process.stdout.write(`${webhookId} ${event.event} ${event.referenceId} (test: no money moved)\n`);
      else process.stdout.write(`${webhookId} ${event.event} ${'referenceId' in event ? event.referenceId : event.bulkId} ${event.status}\n`);
    },
  });
  server.listen(Number(process.env.PORT ?? 8080));
}
