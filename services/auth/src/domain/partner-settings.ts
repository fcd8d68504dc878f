import { literalHostProblem } from '@pwa/contracts';
/** Validation of operator-supplied partner settings; each throws an Error whose message is shown to the operator. */

export const rateLimitPerMinuteMax = 1_000_000_000;

export function parseRateLimit(text: string): number | null {
  if (text === 'default') return null;
  if (!/^\d+$/.test(text)) throw new Error('Rate limit must be a positive whole number of requests per minute, or "default"');
  const value = Number(text);
  if (value < 1 || value > rateLimitPerMinuteMax) throw new Error(`Rate limit must be between 1 and ${rateLimitPerMinuteMax}`);
  return value;
}

/** Webhook receivers must be HTTPS (the spec); plain HTTP is accepted in the sandbox only, for local receivers. */
export function parseWebhookUrl(text: string, environment: string): string | null {
  if (text === 'none') return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error('Webhook URL is not a valid URL');
  }
  const allowedProtocols = environment === 'sandbox' ? ['https:', 'http:'] : ['https:'];
  if (!allowedProtocols.includes(url.protocol)) {
    throw new Error(environment === 'sandbox' ? 'Webhook URL must be http(s)' : 'Webhook URL must use https');
  }
  if (url.username || url.password) throw new Error('Webhook URL must not contain credentials');
  // The webhook service's SSRF rules, as far as they hold without a lookup: outside the sandbox no private, loopback or special address.
  const hostProblem = literalHostProblem(url.hostname, { requireHttps: environment !== 'sandbox', allowPrivateTargets: environment === 'sandbox' });
  if (hostProblem !== undefined) throw new Error(`Webhook URL must be on a public address (${hostProblem.replace('target refused: ', '')})`);
  return url.toString();
}

export function parsePartnerName(text: string): string {
  const name = text.trim();
  if (name.length < 1 || name.length > 200) throw new Error('Partner name must be 1 to 200 characters');
  return name;
}
