// The sandbox partner npm start hands to a newcomer. Seeding is idempotent: the partner recorded in
// .local/sandbox.json is reused while the database still knows it; otherwise a new one is onboarded.
// Its client secret and webhook secret are shown once by the CLI, so this file is the only place
// they are kept.
import { asRecord, request } from './http';
import { readJsonFile } from './local-files';
import { runOperatorCli, runOperatorCliOrThrow } from './operator-cli';

const sandboxPermissions = 'collection,disbursement';

/** A partner as the CLI reports it, never with a secret. */
export interface PartnerView {
  partnerId: string;
  clientId: string;
  name: string;
  status: string;
  permissions: string[];
  webhookUrl: string | null | undefined;
}

export interface SandboxPartner {
  partner: PartnerView;
  clientSecret: string;
  /** Undefined for a reused partner whose file recorded none (it was onboarded before webhook secrets existed). */
  webhookSecret: string | undefined;
  action: 'reused' | 'onboarded';
}

/** What the CLI printed about a partner, without its secrets. */
function partnerView(json: Record<string, unknown>): PartnerView {
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return {
    partnerId: text(json.partnerId),
    clientId: text(json.clientId),
    name: text(json.name),
    status: text(json.status),
    permissions: Array.isArray(json.permissions) ? json.permissions.filter((permission): permission is string => typeof permission === 'string') : [],
    webhookUrl: typeof json.webhookUrl === 'string' || json.webhookUrl === null ? json.webhookUrl : undefined,
  };
}

/**
 * The recorded sandbox partner while the database still knows it, else a new one (onboarded with
 * webhookUrl when one is given). ensureWebhookSecret issues a webhook secret to a reused partner
 * that has none recorded.
 */
export async function ensureSandboxPartner({ sandboxFile, cliEnv, name, webhookUrl }: { sandboxFile: string; cliEnv: NodeJS.ProcessEnv; name: string; webhookUrl: string | undefined }): Promise<SandboxPartner> {
  const recorded = readJsonFile(sandboxFile);
  if (recorded && typeof recorded.clientId === 'string' && typeof recorded.clientSecret === 'string') {
    const shown = await runOperatorCli(['show-partner', recorded.clientId], cliEnv);
    const json = asRecord(shown.json);
    if (shown.exitCode === 0 && json && json.clientId === recorded.clientId) {
      const webhookSecret = typeof recorded.webhookSecret === 'string' ? recorded.webhookSecret : undefined;
      return { partner: partnerView(json), clientSecret: recorded.clientSecret, webhookSecret, action: 'reused' };
    }
  }
  const onboarded = await runOperatorCliOrThrow(
    ['onboard', '--name', name, '--permissions', sandboxPermissions, '--status', 'active', ...(webhookUrl ? ['--webhook-url', webhookUrl] : [])],
    cliEnv,
  );
  if (typeof onboarded.clientSecret !== 'string') throw new Error('operator CLI "onboard" returned no clientSecret');
  if (typeof onboarded.webhookSecret !== 'string') throw new Error('operator CLI "onboard" returned no webhookSecret');
  return { partner: partnerView(onboarded), clientSecret: onboarded.clientSecret, webhookSecret: onboarded.webhookSecret, action: 'onboarded' };
}

/**
 * Issues a webhook secret for a partner whose secret npm start does not know (none was recorded).
 * The overlap is 0: nobody holds the previous secret, so it should stop signing at once and every
 * delivery verifies against the one recorded now.
 */
export async function rotateSandboxWebhookSecret({ clientId, cliEnv }: { clientId: string; cliEnv: NodeJS.ProcessEnv }): Promise<string> {
  const rotated = await runOperatorCliOrThrow(['rotate-webhook-secret', clientId, '--overlap-hours', '0'], cliEnv);
  if (typeof rotated.webhookSecret !== 'string') throw new Error('operator CLI "rotate-webhook-secret" returned no webhookSecret');
  return rotated.webhookSecret;
}

/** Points the partner's webhooks at url unless they already go there; resolves the partner as it is now. */
export async function ensureWebhookUrl({ partner, url, cliEnv }: { partner: PartnerView; url: string; cliEnv: NodeJS.ProcessEnv }): Promise<{ partner: PartnerView; changed: boolean }> {
  if (sameUrl(partner.webhookUrl, url)) return { partner, changed: false };
  const updated = await runOperatorCliOrThrow(['set-webhook-url', partner.clientId, url], cliEnv);
  return { partner: partnerView(updated), changed: true };
}

function sameUrl(a: string | null | undefined, b: string): boolean {
  return typeof a === 'string' && URL.canParse(a) && URL.canParse(b) && new URL(a).toString() === new URL(b).toString();
}

/** Issues a new client secret for the partner (the recorded one no longer works). */
export async function rotateSandboxSecret({ clientId, cliEnv }: { clientId: string; cliEnv: NodeJS.ProcessEnv }): Promise<string> {
  const rotated = await runOperatorCliOrThrow(['rotate-secret', clientId], cliEnv);
  if (typeof rotated.clientSecret !== 'string') throw new Error('operator CLI "rotate-secret" returned no clientSecret');
  return rotated.clientSecret;
}

export interface TokenCheck {
  ok: boolean;
  status: number;
  code: string | undefined;
  text: string;
}

/** Asks the gateway for a token with the credentials, as the printed curl line does. */
export async function requestToken({ tokenUrl, clientId, clientSecret, ca }: { tokenUrl: string; clientId: string; clientSecret: string; ca: Buffer }): Promise<TokenCheck> {
  const response = await request(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: { client_id: clientId, client_secret: clientSecret },
    ca,
    timeoutMs: 10_000,
  });
  const json = asRecord(response.json);
  const ok = response.status === 200 && typeof json?.access_token === 'string';
  return { ok, status: response.status, code: typeof json?.code === 'string' ? json.code : undefined, text: response.text };
}
