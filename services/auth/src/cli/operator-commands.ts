import { uuidPattern } from '@pwa/contracts';
import { OperatorUsageError } from '@pwa/runtime/operator-cli';
import type { Pool } from '@pwa/db';
import { parseSealingKey } from '@pwa/sealing';
import type { AuthStoreConfig } from '../config';
import { isPartnerStatus, parsePermissionList, publicView, type Partner, type PartnerStatus } from '../domain/partner';
import { parsePartnerName, parseRateLimit, parseWebhookUrl } from '../domain/partner-settings';
import { defaultWebhookSecretOverlapHours, parseOverlapHours, webhookSecretOverlapHoursMax } from '../domain/webhook-secret';
import { changePartner, onboardPartner, resealWebhookSecrets, rotateClientSecret, rotateWebhookSecret, PartnerNotFoundError } from '../use-cases/manage-partners';
import { reencryptSigningKeys } from './signing-key-reencryption';
import { SigningKeyring } from '../use-cases/signing-keyring';
import { findPartnerByClientId, listPartners } from '../store/partner-store';

export { OperatorUsageError };

export const operatorUsage = `Usage: npm run operator -- <command> [arguments] [--json]

Partners
  onboard --name <name> [--permissions collection,disbursement|none] [--status active|pending_activation]
          [--rate-limit <per minute>] [--webhook-url <url>]     prints the client secret and webhook secret once
  list-partners
  show-partner <clientId>
  set-status <clientId> <active|suspended|pending_activation|inactive>
  set-permissions <clientId> <collection,disbursement|collection|disbursement|none>
  set-rate-limit <clientId> <per minute|default>
  set-webhook-url <clientId> <url|none>
  rotate-secret <clientId>                                      prints the new client secret once
  rotate-webhook-secret <clientId> [--overlap-hours <0-${webhookSecretOverlapHoursMax}>]    prints the new webhook secret once; the previous
          one stays valid for the overlap (default ${defaultWebhookSecretOverlapHours} h; 0 ends it at once)

Signing keys
  rotate-signing-key      new tokens are signed with a new key; tokens already issued stay valid

Key rotation (docs/operations.md, Rotating secrets; keys come from the environment, never the command line)
  reseal-webhook-secrets --from-key-env <VARIABLE>
          re-seals every stored webhook secret from the key in <VARIABLE> (the old one) to
          WEBHOOK_SECRET_SEALING_KEY (the new one) and publishes partner.updated for each partner;
          the secrets themselves do not change. Safe to run again.
  reencrypt-signing-keys --from-key-env <VARIABLE>
          re-encrypts every signing key from the key in <VARIABLE> (the old one) to
          AUTH_KEY_ENCRYPTION_KEY (the new one), all or nothing. Run it once every auth replica
          holds the new key with the old one as AUTH_KEY_ENCRYPTION_KEY_PREVIOUS; then drop that.
          The signing keys and the tokens do not change. Safe to run again.

Every change is published as a partner.* event. --json prints one JSON object per command.
onboard and rotate-webhook-secret need WEBHOOK_SECRET_SEALING_KEY; rotate-signing-key needs AUTH_KEY_ENCRYPTION_KEY.
`;

export interface OperatorContext {
  pool: Pool;
  config: Readonly<AuthStoreConfig>;
  /** Reads one named environment variable: the old key of a rotation, named by --from-key-env. */
  environmentVariable: (name: string) => string | undefined;
}

export interface OperatorOptions {
  name?: string | undefined;
  permissions?: string | undefined;
  status?: string | undefined;
  rateLimit?: string | undefined;
  webhookUrl?: string | undefined;
  overlapHours?: string | undefined;
  fromKeyEnv?: string | undefined;
}

export interface OperatorResult {
  data: unknown;
  text: string;
}

type CommandHandler = (context: OperatorContext, args: string[], options: OperatorOptions) => Promise<OperatorResult>;

const commands: Record<string, CommandHandler> = {
  onboard: async ({ pool, config }, _args, options) => {
    if (options.name === undefined) throw new OperatorUsageError('onboard needs --name');
    const status = parseStatus(options.status ?? 'active');
    if (status !== 'active' && status !== 'pending_activation') {
      throw new OperatorUsageError('A new partner starts active or pending_activation');
    }
    const sealingKey = requireWebhookSecretSealingKey(config, 'onboard');
    const partner = await onboardPartner(pool, config.ENVIRONMENT, sealingKey, {
      name: parsePartnerName(options.name),
      permissions: parsePermissionList(options.permissions ?? 'collection,disbursement'),
      status,
      rateLimitPerMinute: options.rateLimit === undefined ? null : parseRateLimit(options.rateLimit),
      webhookUrl: options.webhookUrl === undefined ? null : parseWebhookUrl(options.webhookUrl, config.ENVIRONMENT),
    });
    return {
      data: partner,
      text: [
        describePartner(partner),
        `client secret:  ${partner.clientSecret}`,
        `webhook secret: ${partner.webhookSecret}`,
        '(both shown once: store them now; only a hash of the client secret and a sealed copy of the webhook secret are kept)',
      ].join('\n'),
    };
  },
  'list-partners': async ({ pool }) => {
    const partners = (await listPartners(pool)).map(publicView);
    return { data: { partners }, text: partners.length === 0 ? 'no partners' : partners.map(describePartner).join('\n\n') };
  },
  'show-partner': async ({ pool }, args) => {
    const partner = await findPartnerByClientId(pool, requireClientId(args));
    if (!partner) throw new PartnerNotFoundError(args[0] ?? '');
    return partnerResult(publicView(partner));
  },
  'set-status': async ({ pool }, args) => {
    const status = parseStatus(requireArgument(args, 1, 'status'));
    return partnerResult(await changePartner(pool, requireClientId(args), { status }));
  },
  'set-permissions': async ({ pool }, args) => {
    const permissions = parsePermissionList(requireArgument(args, 1, 'permissions'));
    return partnerResult(await changePartner(pool, requireClientId(args), { permissions }));
  },
  'set-rate-limit': async ({ pool }, args) => {
    const rateLimitPerMinute = parseRateLimit(requireArgument(args, 1, 'rate limit'));
    return partnerResult(await changePartner(pool, requireClientId(args), { rateLimitPerMinute }));
  },
  'set-webhook-url': async ({ pool, config }, args) => {
    const webhookUrl = parseWebhookUrl(requireArgument(args, 1, 'webhook URL'), config.ENVIRONMENT);
    return partnerResult(await changePartner(pool, requireClientId(args), { webhookUrl }));
  },
  'rotate-secret': async ({ pool, config }, args) => {
    const partner = await rotateClientSecret(pool, config.ENVIRONMENT, requireClientId(args));
    return {
      data: partner,
      text: `${describePartner(partner)}\nnew client secret: ${partner.clientSecret}\n(shown once; the previous secret no longer works)`,
    };
  },
  'rotate-webhook-secret': async ({ pool, config }, args, options) => {
    const clientId = requireClientId(args);
    const overlapHours = options.overlapHours === undefined ? defaultWebhookSecretOverlapHours : parseOverlap(options.overlapHours);
    const sealingKey = requireWebhookSecretSealingKey(config, 'rotate-webhook-secret');
    const rotated = await rotateWebhookSecret(pool, sealingKey, clientId, overlapHours);
    const previous =
      rotated.previousSecretsValidUntil === null
        ? 'the partner had no webhook secret before'
        : `the previous webhook secret stays valid until ${rotated.previousSecretsValidUntil}`;
    return {
      data: rotated,
      text: `${describePartner(rotated)}\nnew webhook secret: ${rotated.webhookSecret}\n(shown once; ${previous})`,
    };
  },
  'reseal-webhook-secrets': async ({ pool, config, environmentVariable }, _args, options) => {
    const newKey = requireWebhookSecretSealingKey(config, 'reseal-webhook-secrets');
    const oldKey = oldKeyFrom(environmentVariable, options.fromKeyEnv, 'WEBHOOK_SECRET_SEALING_KEY', newKey);
    const outcome = await resealWebhookSecrets(pool, oldKey, newKey);
    return {
      data: outcome,
      text:
        `re-sealed ${outcome.resealed} webhook secret(s) of ${outcome.partners} partner(s) under the new WEBHOOK_SECRET_SEALING_KEY ` +
        `(${outcome.alreadyUnderNewKey} were already); partner.updated published for each partner changed`,
    };
  },
  'reencrypt-signing-keys': async ({ pool, config, environmentVariable }, _args, options) => {
    if (config.AUTH_KEY_ENCRYPTION_KEY === undefined) throw new Error('reencrypt-signing-keys needs AUTH_KEY_ENCRYPTION_KEY (the new key)');
    const newKey = Buffer.from(config.AUTH_KEY_ENCRYPTION_KEY, 'base64');
    const oldKey = oldKeyFrom(environmentVariable, options.fromKeyEnv, 'AUTH_KEY_ENCRYPTION_KEY', newKey);
    const outcome = await reencryptSigningKeys(pool, oldKey, newKey);
    return {
      data: outcome,
      text:
        `re-encrypted ${outcome.reencrypted} of ${outcome.keys} signing key(s) under the new AUTH_KEY_ENCRYPTION_KEY ` +
        `(${outcome.alreadyUnderNewKey} were already); auth replicas may now drop AUTH_KEY_ENCRYPTION_KEY_PREVIOUS`,
    };
  },
  'rotate-signing-key': async ({ pool, config }) => {
    if (config.AUTH_KEY_ENCRYPTION_KEY === undefined) throw new Error('rotate-signing-key needs AUTH_KEY_ENCRYPTION_KEY');
    // The grace period only matters for reads of the published set, so the default lifetime is fine here.
    const keyring = new SigningKeyring(pool, { current: Buffer.from(config.AUTH_KEY_ENCRYPTION_KEY, 'base64') }, 3600);
    const kid = await keyring.rotate();
    return { data: { kid }, text: `new signing key ${kid} is active; the previous key stays published until its tokens expire` };
  },
};

export async function runOperatorCommand(
  context: OperatorContext,
  command: string,
  args: string[],
  options: OperatorOptions,
): Promise<OperatorResult> {
  const handler = commands[command];
  if (!handler) throw new OperatorUsageError(`Unknown command: ${command}`);
  return handler(context, args, options);
}

function partnerResult(partner: Partner): OperatorResult {
  return { data: partner, text: describePartner(partner) };
}

function describePartner(partner: Partner): string {
  return [
    `partner ${partner.name}`,
    `  client id:   ${partner.clientId}`,
    `  partner id:  ${partner.partnerId}`,
    `  status:      ${partner.status}`,
    `  permissions: ${partner.permissions.join(', ') || 'none'}`,
    `  rate limit:  ${partner.rateLimitPerMinute ?? 'default'} per minute`,
    `  webhook URL: ${partner.webhookUrl ?? 'none'}`,
  ].join('\n');
}

function parseOverlap(text: string): number {
  try {
    return parseOverlapHours(text);
  } catch (error) {
    throw new OperatorUsageError(error instanceof Error ? error.message : String(error));
  }
}

function requireWebhookSecretSealingKey(config: Readonly<AuthStoreConfig>, command: string): Buffer {
  if (config.WEBHOOK_SECRET_SEALING_KEY === undefined) {
    throw new Error(`${command} needs WEBHOOK_SECRET_SEALING_KEY (base64 of 32 bytes) to seal the webhook secret`);
  }
  return parseSealingKey(config.WEBHOOK_SECRET_SEALING_KEY);
}

const environmentVariableName = /^[A-Z_][A-Z0-9_]{0,100}$/;

/**
 * The old key of a rotation, from the environment variable the operator names (a key on the
 * command line would show in `ps` and shell history). It must differ from the new key.
 */
function oldKeyFrom(read: (name: string) => string | undefined, variable: string | undefined, newKeyVariable: string, newKey: Buffer): Buffer {
  if (variable === undefined) throw new OperatorUsageError('Missing --from-key-env <VARIABLE> (the environment variable that holds the old key)');
  if (!environmentVariableName.test(variable)) throw new OperatorUsageError('--from-key-env takes the name of an environment variable (A-Z, 0-9, _), not a key');
  if (variable === newKeyVariable) throw new OperatorUsageError(`--from-key-env names the old key; ${newKeyVariable} holds the new one`);
  const value = read(variable);
  if (value === undefined || value === '') throw new OperatorUsageError(`${variable} is not set: put the old key in it`);
  const key = Buffer.from(value, 'base64');
  if (key.length !== 32) throw new OperatorUsageError(`${variable} must be base64 of exactly 32 bytes`);
  if (key.equals(newKey)) throw new OperatorUsageError(`${variable} and ${newKeyVariable} hold the same key; put the new key in ${newKeyVariable}`);
  return key;
}

function parseStatus(text: string): PartnerStatus {
  if (!isPartnerStatus(text)) throw new OperatorUsageError(`Unknown status: ${text}`);
  return text;
}

function requireClientId(args: string[]): string {
  const clientId = requireArgument(args, 0, 'client id');
  if (!uuidPattern.test(clientId)) throw new OperatorUsageError('The client id must be a UUID');
  return clientId.toLowerCase();
}

function requireArgument(args: string[], index: number, label: string): string {
  const value = args[index];
  if (value === undefined) throw new OperatorUsageError(`Missing ${label}`);
  return value;
}
