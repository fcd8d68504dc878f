// What the back-office shows, from a shell: who you are, transactions across partners, the ledger
// check, webhook deliveries (and sending one again), and the audit log.
import { idempotencyKeyOption, idempotencyKeyOptions, stringOption, text, type Command } from './command';

export const readCommands: Record<string, Command> = {
  whoami: {
    // GET /api/v1/me: the person the token acts as, with their current roles; then their tokens.
    options: {},
    positionals: 0,
    async run(client) {
      const me = (await client.get('/api/v1/me')) as { operator?: Record<string, unknown> };
      const operator = me.operator ?? {};
      const data = (await client.get('/api/v1/personal-tokens')) as { tokens?: Record<string, unknown>[] } | Record<string, unknown>[];
      const tokens = Array.isArray(data) ? data : (data.tokens ?? []);
      const roles = Array.isArray(operator.roles) ? operator.roles.map(text).join(', ') : '';
      return {
        json: { operator, tokens },
        lines: [`You are ${text(operator.displayName)} <${text(operator.email)}> (${text(operator.operatorId)}), roles: ${roles}. Your personal tokens:`, ...tokens.map((token) => `${text(token.tokenId)}  ${text(token.name)}  ${text(token.state)}  expires ${text(token.expiresAt)}  last used ${text(token.lastUsedAt)}`)],
      };
    },
  },
  'list-transactions': {
    options: { 'reference-id': { type: 'string' }, 'external-id': { type: 'string' }, phone: { type: 'string' }, 'partner-id': { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, cursor: { type: 'string' } },
    positionals: 0,
    async run(client, values) {
      const data = (await client.get('/api/v1/transactions', {
        referenceId: stringOption(values, 'reference-id'),
        externalId: stringOption(values, 'external-id'),
        phone: stringOption(values, 'phone'),
        partnerId: stringOption(values, 'partner-id'),
        from: stringOption(values, 'from'),
        to: stringOption(values, 'to'),
        cursor: stringOption(values, 'cursor'),
      })) as { transactions: Record<string, unknown>[]; nextCursor: string | null };
      const lines =
        data.transactions.length === 0
          ? ['No transactions.']
          : data.transactions.map((t) => `${text(t.postedAt)}  ${text(t.kind)}  ${text(t.amountMinor)} ${text(t.currency)} (minor units)  partner ${text(t.partnerId)}  ${text(t.referenceId)}  ${text(t.phone)}`);
      return { json: data, lines: data.nextCursor === null ? lines : [...lines, `more: --cursor ${data.nextCursor}`] };
    },
  },
  'check-ledger': {
    options: {},
    positionals: 0,
    async run(client) {
      const data = (await client.get('/api/v1/ledger-check')) as Record<string, unknown>;
      return { json: data, lines: [data.ok === true ? 'Ledger check: ok (every posting balanced, every balance matches its entries)' : `Ledger check: PROBLEMS ${JSON.stringify(data.problems ?? data)}`] };
    },
  },
  'list-deliveries': {
    options: { status: { type: 'string' }, 'partner-id': { type: 'string' }, cursor: { type: 'string' } },
    positionals: 0,
    async run(client, values) {
      const data = (await client.get('/api/v1/webhook-deliveries', { status: stringOption(values, 'status'), partnerId: stringOption(values, 'partner-id'), cursor: stringOption(values, 'cursor') })) as {
        deliveries: Record<string, unknown>[];
        nextCursor?: string | null;
      };
      const lines = data.deliveries.length === 0 ? ['No deliveries waiting or dead.'] : data.deliveries.map((d) => `${text(d.deliveryId)}  ${text(d.status)}  ${text(d.event)}  ${text(d.referenceId)}  attempts ${text(d.attemptCount)}  last ${text(d.lastStatusCode ?? d.lastError)}  partner ${text(d.partnerId)}`);
      return { json: data, lines: data.nextCursor ? [...lines, `more: --cursor ${data.nextCursor}`] : lines };
    },
  },
  redeliver: {
    options: { ...idempotencyKeyOptions },
    positionals: 1,
    async run(client, values, [deliveryId = '']) {
      const key = idempotencyKeyOption(values);
      const data = (await client.post(`/api/v1/webhook-deliveries/${encodeURIComponent(deliveryId)}/redeliver`, {}, { 'idempotency-key': key })) as Record<string, unknown>;
      return { json: data, lines: [`Delivery ${deliveryId} is due again${data.replayed === true ? ' (already asked with this key)' : ''}: ${JSON.stringify(data.after ?? {})}`] };
    },
  },
  'list-audit': {
    options: { action: { type: 'string' }, 'actor-id': { type: 'string' }, 'target-kind': { type: 'string' }, 'target-id': { type: 'string' }, outcome: { type: 'string' }, from: { type: 'string' }, before: { type: 'string' }, cursor: { type: 'string' } },
    positionals: 0,
    async run(client, values) {
      const data = (await client.get('/api/v1/audit-log', {
        action: stringOption(values, 'action'),
        actorId: stringOption(values, 'actor-id'),
        targetKind: stringOption(values, 'target-kind'),
        targetId: stringOption(values, 'target-id'),
        outcome: stringOption(values, 'outcome'),
        from: stringOption(values, 'from'),
        before: stringOption(values, 'before'),
        cursor: stringOption(values, 'cursor'),
      })) as { entries: Record<string, unknown>[]; nextCursor?: string | null };
      const lines =
        data.entries.length === 0
          ? ['No entry matches.']
          : data.entries.map((entry) => {
              const actor = (entry.actor ?? {}) as Record<string, unknown>;
              const target = (entry.target ?? {}) as Record<string, unknown>;
              return `#${text(entry.sequence)}  ${text(entry.occurredAt)}  ${text(actor.displayName)}  ${text(entry.action)}  ${text(target.kind)}:${text(target.id)}  ${text(entry.outcome)}${entry.reason ? `  (${text(entry.reason)})` : ''}`;
            });
      return { json: data, lines: data.nextCursor ? [...lines, `more: --cursor ${data.nextCursor}`] : lines };
    },
  },
};

export const readUsage = `Reads:
  whoami                                     who the token acts as (name, e-mail, roles) and your tokens
  list-transactions [--reference-id] [--external-id] [--phone] [--partner-id] [--from] [--to] [--cursor]
  check-ledger                               the ledger invariant, as the console's ledger check
  list-deliveries [--status pending|retrying|dead] [--partner-id <uuid>] [--cursor]
  redeliver <deliveryId>                     send a waiting or dead delivery again (makers, admins)
  list-audit [--action partner.fund] [--actor-id <uuid>] [--target-kind partner] [--target-id <id>] [--outcome done|refused] [--from <ISO time>] [--before <ISO time>] [--cursor]   (checkers, admins)
`;
