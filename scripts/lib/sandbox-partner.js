// The sandbox partner npm start hands to a newcomer. Seeding is idempotent: the partner recorded in
// .local/sandbox.json is reused while the database still knows it; otherwise a new one is onboarded.
// Its secret is shown once by the CLI, so this file is the only place it is kept.
'use strict';
const { readJsonFile } = require('./local-files');
const { request } = require('./http');
const { runOperatorCli, runOperatorCliOrThrow } = require('./operator-cli');

const sandboxPermissions = 'collection,disbursement';

/**
 * Returns { partner, clientSecret, action } where action is 'reused' or 'onboarded'. `partner` is
 * what the CLI reports (partnerId, clientId, name, status, permissions, ...), never with the secret.
 */
async function ensureSandboxPartner({ sandboxFile, cliEnv, name }) {
  const recorded = readJsonFile(sandboxFile);
  if (recorded && typeof recorded.clientId === 'string' && typeof recorded.clientSecret === 'string') {
    const shown = await runOperatorCli(['show-partner', recorded.clientId], cliEnv);
    if (shown.exitCode === 0 && shown.json && shown.json.clientId === recorded.clientId) {
      return { partner: withoutSecret(shown.json), clientSecret: recorded.clientSecret, action: 'reused' };
    }
  }
  const onboarded = await runOperatorCliOrThrow(
    ['onboard', '--name', name, '--permissions', sandboxPermissions, '--status', 'active'],
    cliEnv,
  );
  if (typeof onboarded.clientSecret !== 'string') throw new Error('operator CLI "onboard" returned no clientSecret');
  return { partner: withoutSecret(onboarded), clientSecret: onboarded.clientSecret, action: 'onboarded' };
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

function withoutSecret(partner) {
  const copy = { ...partner };
  delete copy.clientSecret;
  return copy;
}

module.exports = { ensureSandboxPartner, rotateSandboxSecret, requestToken };
