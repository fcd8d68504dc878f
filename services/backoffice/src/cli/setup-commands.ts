import { readAuditChainHead, verifyAuditChain, type AuditChainAnchor } from '@pwa/audit';
import type { Pool } from '@pwa/db';
import { OperatorUsageError, type OperatorCommandResult } from '@pwa/runtime/operator-cli';
import { bootstrapFirstAdmin, type BootstrapOutcome } from '../use-cases/bootstrap-first-admin';
import { resealTotpSecrets, totpResealBatchSizeDefault, totpResealBatchSizeMax, UnopenableTotpSecretsError, type TotpSealingKeys } from './totp-secret-resealing';

export { OperatorUsageError };

export const setupUsage = `Usage: node services/backoffice/dist/cli/main.js <command> [options] [--json]

Set-up (runs against the back-office database directly: the one command that may, since no person can sign in yet)
  bootstrap-admin --email <address> --name <display name>
      creates the first admin as invited and prints a one-time set-up link (24 h) to set the password and MFA;
      run again before the link is used, it renews the link; refused once an admin can sign in

Sealing-key rotation (docs/operations.md, Back-office, Rotate the sealing key; keys come from the environment only)
  reseal-totp-secrets [--batch-size <1-${totpResealBatchSizeMax}>]
      re-seals every operator's TOTP secret from BACKOFFICE_SEALING_KEY_PREVIOUS (the old key) to
      BACKOFFICE_SEALING_KEY (the new one), ${totpResealBatchSizeDefault} operators a page, each secret on its own; nobody
      enrols again. Refused, changing nothing, when a secret opens with neither key. Safe to run
      again; without _PREVIOUS it only checks that every secret opens with the current key

Audit log (read-only)
  verify-audit-log [--anchor-sequence <n> --anchor-hash <hex>]
      walks the hash chain from the first entry and names the first altered, removed or forged one
      (exit 1), or says how many entries hold (exit 0) and prints the head to record outside the
      database; with an anchor recorded earlier, the chain must still reach it and hold its hash

--json prints one JSON object per command.
`;

export interface SetupContext {
  pool: Pool;
  consoleBaseUrl: string;
  /** BACKOFFICE_SEALING_KEY and BACKOFFICE_SEALING_KEY_PREVIOUS; undefined when the current key is not set. */
  sealingKeys: TotpSealingKeys | undefined;
}

const refusalMessages: Readonly<Record<Extract<BootstrapOutcome, { kind: 'refused' }>['reason'], string>> = {
  'an-admin-exists': 'An admin can sign in already: admins invite people in the console; bootstrap-admin is only for the first one',
  'another-admin-invited': 'Another admin was invited and has not finished set-up: run bootstrap-admin again with that address to renew their link',
  'not-an-email': '--email must be an e-mail address, e.g. musu.kollie@operator.example',
};

export async function runSetupCommand(context: SetupContext, command: string, args: string[], options: Record<string, string | undefined>): Promise<OperatorCommandResult> {
  if (command === 'bootstrap-admin') return bootstrapAdmin(context, args, options);
  if (command === 'reseal-totp-secrets') return resealTotpSecretsCommand(context, args, options);
  if (command === 'verify-audit-log') return verifyAuditLogCommand(context, args, options);
  throw new OperatorUsageError(`Unknown command: ${command}`);
}

async function bootstrapAdmin(context: SetupContext, args: string[], options: Record<string, string | undefined>): Promise<OperatorCommandResult> {
  if (args.length > 0) throw new OperatorUsageError(`bootstrap-admin takes no positional arguments (got ${args.length})`);
  const email = options.email;
  const name = options.name?.trim();
  if (email === undefined) throw new OperatorUsageError('bootstrap-admin needs --email <address>');
  if (name === undefined || name.length === 0 || name.length > 100) throw new OperatorUsageError('bootstrap-admin needs --name <display name> (1 to 100 characters)');
  const outcome = await bootstrapFirstAdmin(context.pool, { email, displayName: name, consoleBaseUrl: context.consoleBaseUrl });
  if (outcome.kind === 'refused') {
    if (outcome.reason === 'not-an-email') throw new OperatorUsageError(refusalMessages[outcome.reason]);
    return { data: { error: refusalMessages[outcome.reason] }, text: `error: ${refusalMessages[outcome.reason]}`, exitCode: 1 };
  }
  const data = { outcome: outcome.kind, operatorId: outcome.operatorId, email: outcome.email, setupLink: outcome.setupLink, expiresAt: outcome.expiresAt.toISOString() };
  const text = [
    `${outcome.kind === 'created' ? 'Created' : 'Renewed the set-up link of'} the first admin ${outcome.email} (${outcome.operatorId}).`,
    `Open this link once, before ${data.expiresAt}, to set the password and enrol MFA (it is shown only now):`,
    `  ${outcome.setupLink}`,
  ].join('\n');
  return { data, text };
}

/** Counts only, never a secret: what a person reads after the run, and what scripts read with --json. */
async function resealTotpSecretsCommand(context: SetupContext, args: string[], options: Record<string, string | undefined>): Promise<OperatorCommandResult> {
  if (args.length > 0) throw new OperatorUsageError(`reseal-totp-secrets takes no positional arguments (got ${args.length})`);
  const batchSize = parseBatchSize(options.batchSize);
  const keys = context.sealingKeys;
  if (keys === undefined) {
    const message = 'reseal-totp-secrets needs BACKOFFICE_SEALING_KEY (the new key) and BACKOFFICE_SEALING_KEY_PREVIOUS (the old one) in the environment';
    return { data: { error: message }, text: `error: ${message}`, exitCode: 1 };
  }
  try {
    const outcome = await resealTotpSecrets(context.pool, keys, batchSize);
    const changed = outcome.resealed > 0;
    const text = changed
      ? `Re-sealed ${outcome.resealed} of ${outcome.operators} operator(s)' TOTP secrets under the current BACKOFFICE_SEALING_KEY (${outcome.alreadyUnderCurrentKey} were already); nobody enrols again.`
      : `Nothing to re-seal: all ${outcome.operators} operator(s)' TOTP secrets open with the current BACKOFFICE_SEALING_KEY; nothing changed.` +
        (keys.previous === undefined ? '' : ' BACKOFFICE_SEALING_KEY_PREVIOUS can be dropped now.');
    return { data: { ...outcome, changed }, text };
  } catch (error) {
    if (!(error instanceof UnopenableTotpSecretsError)) throw error;
    return { data: { error: error.message, unopenable: error.unopenableCount, operatorIds: error.operatorIds }, text: `error: ${error.message}`, exitCode: 1 };
  }
}

function parseBatchSize(value: string | undefined): number {
  if (value === undefined) return totpResealBatchSizeDefault;
  const batchSize = Number(value);
  if (!/^\d+$/.test(value) || batchSize < 1 || batchSize > totpResealBatchSizeMax) {
    throw new OperatorUsageError(`--batch-size must be a whole number from 1 to ${totpResealBatchSizeMax} (got ${value})`);
  }
  return batchSize;
}

/**
 * The audit chain's verification (decision 0060) from the command line: what an auditor or an SRE
 * runs, alone or against a head recorded earlier outside the database (the anchor).
 */
async function verifyAuditLogCommand(context: SetupContext, args: string[], options: Record<string, string | undefined>): Promise<OperatorCommandResult> {
  if (args.length > 0) throw new OperatorUsageError(`verify-audit-log takes no positional arguments (got ${args.length})`);
  const anchor = parseAnchor(options.anchorSequence, options.anchorHash);
  const verification = await verifyAuditChain(context.pool, anchor === undefined ? {} : { anchor });
  if (!verification.ok) {
    const text = `BROKEN at entry ${verification.firstBrokenSequence} (${verification.problem}${verification.entryId === null ? '' : `, entry id ${verification.entryId}`}): ${verification.detail}; ${verification.entries} entries before it hold.`;
    return { data: verification, text, exitCode: 1 };
  }
  const head = await readAuditChainHead(context.pool);
  const text = head === null ? 'The audit log is empty.' : `The audit chain holds: ${verification.entries} entries. Record the head outside the database: --anchor-sequence ${head.sequence} --anchor-hash ${head.hash}`;
  return { data: { ...verification, head }, text };
}

function parseAnchor(sequence: string | undefined, hash: string | undefined): AuditChainAnchor | undefined {
  if (sequence === undefined && hash === undefined) return undefined;
  if (sequence === undefined || hash === undefined) throw new OperatorUsageError('--anchor-sequence and --anchor-hash go together (both from the head an earlier run printed)');
  if (!/^[1-9]\d{0,15}$/.test(sequence)) throw new OperatorUsageError(`--anchor-sequence must be a positive whole number (got ${sequence})`);
  if (!/^[0-9a-fA-F]{64}$/.test(hash)) throw new OperatorUsageError('--anchor-hash must be the 64 hexadecimal characters of a SHA-256 hash');
  return { sequence: Number(sequence), hash };
}
