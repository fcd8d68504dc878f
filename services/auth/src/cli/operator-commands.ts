import type { Pool } from '@pwa/db';
import type { AuthStoreConfig } from '../config';
import { isPartnerStatus, parsePermissionList, publicView, type Partner, type PartnerStatus } from '../domain/partner';
import { parsePartnerName, parseRateLimit, parseWebhookUrl } from '../domain/partner-settings';
import { changePartner, onboardPartner, rotateClientSecret, PartnerNotFoundError } from '../use-cases/manage-partners';
import { SigningKeyring } from '../use-cases/signing-keyring';
import { findPartnerByClientId, listPartners } from '../store/partner-store';

export class OperatorUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorUsageError';
  }
}

export const operatorUsage = `Usage: npm run operator -- <command> [arguments] [--json]

Partners
  onboard --name <name> [--permissions collection,disbursement|none] [--status active|pending_activation]
          [--rate-limit <per minute>] [--webhook-url <url>]     prints the client secret once
  list-partners
  show-partner <clientId>
  set-status <clientId> <active|suspended|pending_activation|inactive>
  set-permissions <clientId> <collection,disbursement|collection|disbursement|none>
  set-rate-limit <clientId> <per minute|default>
  set-webhook-url <clientId> <url|none>
  rotate-secret <clientId>                                      prints the new client secret once

Signing keys
  rotate-signing-key      new tokens are signed with a new key; tokens already issued stay valid

Every change is published as a partner.* event. --json prints one JSON object per command.
`;

export interface OperatorContext {
  pool: Pool;
  config: Readonly<AuthStoreConfig>;
}

export interface OperatorOptions {
  name?: string | undefined;
  permissions?: string | undefined;
  status?: string | undefined;
  rateLimit?: string | undefined;
  webhookUrl?: string | undefined;
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
    const partner = await onboardPartner(pool, config.ENVIRONMENT, {
      name: parsePartnerName(options.name),
      permissions: parsePermissionList(options.permissions ?? 'collection,disbursement'),
      status,
      rateLimitPerMinute: options.rateLimit === undefined ? null : parseRateLimit(options.rateLimit),
      webhookUrl: options.webhookUrl === undefined ? null : parseWebhookUrl(options.webhookUrl, config.ENVIRONMENT),
    });
    return {
      data: partner,
      text: `${describePartner(partner)}\nclient secret: ${partner.clientSecret}\n(shown once: store it now; only its hash is kept)`,
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
  'rotate-signing-key': async ({ pool, config }) => {
    if (config.AUTH_KEY_ENCRYPTION_KEY === undefined) throw new Error('rotate-signing-key needs AUTH_KEY_ENCRYPTION_KEY');
    // The grace period only matters for reads of the published set, so the default lifetime is fine here.
    const keyring = new SigningKeyring(pool, Buffer.from(config.AUTH_KEY_ENCRYPTION_KEY, 'base64'), 3600);
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

function parseStatus(text: string): PartnerStatus {
  if (!isPartnerStatus(text)) throw new OperatorUsageError(`Unknown status: ${text}`);
  return text;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
