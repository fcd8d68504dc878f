// A partner's one-person tasks (makers and admins; audited as you, no four eyes): onboarding, the
// webhook URL, and the rotation of its client or webhook secret; the secrets are printed once,
// here, and never again. Each change carries an Idempotency-Key: a new one per run, printed so a
// run that lost its answer can be repeated with --idempotency-key and change nothing twice.
import { idempotencyKeyOption, idempotencyKeyOptions, requiredOption, stringOption, text, uuidOption, wholeNumberOption, type Command } from './command';

const partnersPath = '/api/v1/partners';

function partnerLine(partner: Record<string, unknown>): string {
  const permissions = Array.isArray(partner.permissions) ? partner.permissions.map(text).join(',') : '';
  return `${text(partner.partnerId)}  ${text(partner.status)}  ${text(partner.name)}  client ${text(partner.clientId)}  permissions ${permissions || 'none'}  rate limit ${text(partner.rateLimitPerMinute ?? 'default')}/min  webhook ${text(partner.webhookUrl ?? 'none')}`;
}

const keyLine = (key: string): string => `Idempotency-Key ${key} (run again with --idempotency-key ${key} if the answer was lost: nothing changes twice)`;

export const partnerCommands: Record<string, Command> = {
  'list-partners': {
    options: { search: { type: 'string' }, status: { type: 'string' } },
    positionals: 0,
    async run(client, values) {
      const data = (await client.get(partnersPath, { q: stringOption(values, 'search'), status: stringOption(values, 'status') })) as { partners: Record<string, unknown>[] };
      return { json: data, lines: data.partners.length === 0 ? ['No partners.'] : data.partners.map(partnerLine) };
    },
  },
  'show-partner': {
    options: { 'partner-id': { type: 'string' } },
    positionals: 0,
    async run(client, values) {
      const partnerId = uuidOption(values, 'partner-id');
      const partner = (await client.get(`${partnersPath}/${partnerId}`)) as Record<string, unknown>;
      const balances = (await client.get(`${partnersPath}/${partnerId}/balances`)) as Record<string, unknown>;
      const changes = [...((partner.changes ?? []) as Record<string, unknown>[]), ...((partner.operatorActions ?? []) as Record<string, unknown>[])];
      return {
        json: { partner, balances },
        lines: [partnerLine(partner), `balances: ${JSON.stringify(balances)}`, ...changes.map((change) => `  ${text(change.recordedAt)}  ${text(change.action)}  by ${text(change.operatorName)}  ${JSON.stringify(change.after ?? {})}`)],
      };
    },
  },
  onboard: {
    options: { name: { type: 'string' }, permissions: { type: 'string' }, status: { type: 'string' }, 'rate-limit': { type: 'string' }, 'webhook-url': { type: 'string' }, ...idempotencyKeyOptions },
    positionals: 0,
    async run(client, values) {
      const key = idempotencyKeyOption(values);
      const permissions = stringOption(values, 'permissions');
      const body = {
        name: requiredOption(values, 'name'),
        ...(permissions === undefined ? {} : { permissions: permissions === 'none' ? [] : permissions.split(',').map((each) => each.trim()) }),
        ...(stringOption(values, 'status') === undefined ? {} : { status: stringOption(values, 'status') }),
        ...(stringOption(values, 'rate-limit') === undefined ? {} : { rateLimitPerMinute: wholeNumberOption(values, 'rate-limit', { min: 1, max: 1_000_000_000 }) }),
        ...(stringOption(values, 'webhook-url') === undefined ? {} : { webhookUrl: stringOption(values, 'webhook-url') }),
      };
      const data = (await client.post(partnersPath, body, { 'idempotency-key': key })) as { partner: Record<string, unknown>; replayed: boolean; credentials: Record<string, unknown> | null };
      const lines = [`${data.replayed ? 'Already onboarded by this key (the secrets were shown then, not again)' : 'Onboarded'}: ${partnerLine(data.partner)}`];
      if (data.credentials !== null) {
        lines.push(`client id      ${text(data.credentials.clientId)}`, `client secret  ${text(data.credentials.clientSecret)}`, `webhook secret ${text(data.credentials.webhookSecret)}`, '(the secrets are shown once: hand them to the partner over a secure channel now)');
      }
      return { json: { ...data, idempotencyKey: key }, lines: [...lines, keyLine(key)] };
    },
  },
  'set-webhook-url': {
    options: { 'partner-id': { type: 'string' }, url: { type: 'string' }, ...idempotencyKeyOptions },
    positionals: 0,
    async run(client, values) {
      const key = idempotencyKeyOption(values);
      const url = requiredOption(values, 'url');
      const data = (await client.put(`${partnersPath}/${uuidOption(values, 'partner-id')}/webhook-url`, { webhookUrl: url === 'none' ? null : url }, { 'idempotency-key': key })) as Record<string, unknown>;
      return { json: { ...data, idempotencyKey: key }, lines: [`Webhook URL ${JSON.stringify(data.before)} -> ${JSON.stringify(data.after)}${data.replayed === true ? ' (already set by this key)' : ''}`, keyLine(key)] };
    },
  },
  'rotate-secret': {
    options: { 'partner-id': { type: 'string' }, ...idempotencyKeyOptions },
    positionals: 0,
    async run(client, values) {
      const key = idempotencyKeyOption(values);
      const data = (await client.post(`${partnersPath}/${uuidOption(values, 'partner-id')}/client-secret-rotations`, {}, { 'idempotency-key': key })) as Record<string, unknown>;
      const lines =
        data.clientSecret === null
          ? [`Already rotated by this key at ${text(data.rotatedAt)} (the secret was shown then, not again)`]
          : [`client id      ${text(data.clientId)}`, `client secret  ${text(data.clientSecret)}`, '(shown once; the previous secret no longer works: tokens already issued run out within their lifetime)'];
      return { json: { ...data, idempotencyKey: key }, lines: [...lines, keyLine(key)] };
    },
  },
  'rotate-webhook-secret': {
    options: { 'partner-id': { type: 'string' }, 'overlap-hours': { type: 'string' }, ...idempotencyKeyOptions },
    positionals: 0,
    async run(client, values) {
      const key = idempotencyKeyOption(values);
      const overlapHours = wholeNumberOption(values, 'overlap-hours', { min: 0, max: 720 });
      const data = (await client.post(`${partnersPath}/${uuidOption(values, 'partner-id')}/webhook-secret-rotations`, overlapHours === undefined ? {} : { overlapHours }, { 'idempotency-key': key })) as Record<string, unknown>;
      const until = data.previousSecretsValidUntil === null ? 'there was no previous secret' : `the previous secret stays valid until ${text(data.previousSecretsValidUntil)}`;
      const lines = data.webhookSecret === null ? [`Already rotated by this key at ${text(data.rotatedAt)} (the secret was shown then, not again)`] : [`webhook secret ${text(data.webhookSecret)}`, `(shown once; ${until})`];
      return { json: { ...data, idempotencyKey: key }, lines: [...lines, keyLine(key)] };
    },
  },
};

export const partnerUsage = `Partners (makers and admins change them, one person, audited as you; secrets printed once):
  list-partners [--search <name, partner id or client id>] [--status active|suspended|pending_activation|inactive]
  show-partner --partner-id <uuid>            settings, balances and the changes made to it, with who
  onboard --name "..." [--permissions collection,disbursement|none] [--status active|pending_activation] [--rate-limit <n>] [--webhook-url https://...]
  set-webhook-url --partner-id <uuid> --url https://...|none
  rotate-secret --partner-id <uuid>           a new client secret; the old one stops at once
  rotate-webhook-secret --partner-id <uuid> [--overlap-hours 0-720]   (default 24: both verify meanwhile)
  (each change takes [--idempotency-key <key>]: the key an earlier run printed, to repeat it safely)
`;
