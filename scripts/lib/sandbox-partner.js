// The sandbox partner npm start hands to a newcomer. Seeding is idempotent: the partner recorded in
// .local/sandbox.json is reused while the database still knows it; otherwise a new one is onboarded.
// Its client secret and webhook secret are shown once by the CLI, so this file is the only place
// they are kept.
'use strict';
const { readJsonFile } = require('./local-files');
const { request } = require('./http');
const { runOperatorCli, runOperatorCliOrThrow } = require('./operator-cli');

const sandboxPermissions = 'collection,disbursement';

/**
 * Returns { partner, clientSecret, webhookSecret, action } where action is 'reused' or 'onboarded'.
 * `partner` is what the CLI reports (partnerId, clientId, name, status, permissions, ...), never
 * with a secret. webhookSecret is undefined for a reused partner whose file recorded none (it was
 * onboarded before webhook secrets existed): ensureWebhookSecret issues one. A new partner is
 * onboarded with webhookUrl when one is given.
 */
async function ensureSandboxPartner({ sandboxFile, cliEnv, name, webhookUrl }) {
  const recorded = readJsonFile(sandboxFile);
  if (recorded && typeof recorded.clientId === 'string' && typeof recorded.clientSecret === 'string') {
    const shown = await runOperatorCli(['show-partner', recorded.clientId], cliEnv);
    if (shown.exitCode === 0 && shown.json && shown.json.clientId === recorded.clientId) {
      const webhookSecret = typeof recorded.webhookSecret === 'string' ? recorded.webhookSecret : undefined;
      return { partner: withoutSecrets(shown.json), clientSecret: recorded.clientSecret, webhookSecret, action: 'reused' };
    }
  }
  const onboarded = await runOperatorCliOrThrow(
    ['onboard', '--name', name, '--permissions', sandboxPermissions, '--status', 'active', ...(webhookUrl ? ['--webhook-url', webhookUrl] : [])],
    cliEnv,
  );
  if (typeof onboarded.clientSecret !== 'string') throw new Error('operator CLI "onboard" returned no clientSecret');
  if (typeof onboarded.webhookSecret !== 'string') throw new Error('operator CLI "onboard" returned no webhookSecret');
  return { partner: withoutSecrets(onboarded), clientSecret: onboarded.clientSecret, webhookSecret: onboarded.webhookSecret, action: 'onboarded' };
}

/**
 * Issues a webhook secret for a partner whose secret npm start does not know (none was recorded).
 * The overlap is 0: nobody holds the previous secret, so it should stop signing at once and every
 * delivery verifies against the one recorded now.
 */
async function rotateSandboxWebhookSecret({ clientId, cliEnv }) {
  const rotated = await runOperatorCliOrThrow(['rotate-webhook-secret', clientId, '--overlap-hours', '0'], cliEnv);
  if (typeof rotated.webhookSecret !== 'string') throw new Error('operator CLI "rotate-webhook-secret" returned no webhookSecret');
  return rotated.webhookSecret;
}

/** Points the partner's webhooks at url unless they already go there; returns the partner as it is now. */
async function ensureWebhookUrl({ partner, url, cliEnv }) {
  if (sameUrl(partner.webhookUrl, url)) return { partner, changed: false };
  const updated = await runOperatorCliOrThrow(['set-webhook-url', partner.clientId, url], cliEnv);
  return { partner: withoutSecrets(updated), changed: true };
}

function sameUrl(a, b) {
  try {
    return typeof a === 'string' && new URL(a).toString() === new URL(b).toString();
  } catch {
    return false;
  }
}

/** Issues a new client secret for the partner (the recorded one no longer works). */
async function rotateSandboxSecret({ clientId, cliEnv }) {
  const rotated = await runOperatorCliOrThrow(['rotate-secret', clientId], cliEnv);
  if (typeof rotated.clientSecret !== 'string') throw new Error('operator CLI "rotate-secret" returned no clientSecret');
  return rotated.clientSecret;
}

/** Asks the gateway for a token with the credentials, as the printed curl line does. */
async function requestToken({ tokenUrl, clientId, clientSecret, ca }) {
  const response = await request(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: { client_id: clientId, client_secret: clientSecret },
    ca,
    timeoutMs: 10_000,
  });
  const ok = response.status === 200 && response.json && typeof response.json.access_token === 'string';
  return { ok, status: response.status, code: response.json && response.json.code, body: response.json, text: response.text };
}

function withoutSecrets(partner) {
  const copy = { ...partner };
  delete copy.clientSecret;
  delete copy.webhookSecret;
  delete copy.webhookSecretId;
  delete copy.previousSecretsValidUntil;
  return copy;
}

module.exports = { ensureSandboxPartner, rotateSandboxSecret, rotateSandboxWebhookSecret, ensureWebhookUrl, requestToken };
