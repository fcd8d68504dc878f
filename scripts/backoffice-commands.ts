// npm run operator -- backoffice <command>: the operator CLI as a client of the back-office API,
// signed in as a person with a personal token (decision 0072), so every command runs with that
// person's current roles and four-eyes rules and is audited as theirs. The token comes from
// BACKOFFICE_TOKEN only, never an argument: arguments land in shell history and `ps`.
import { parseArgs } from 'node:util';
import { BackofficeRefusal, backofficeClient, trustFor, type BackofficeClient } from './lib/backoffice-client';
import { amountCurrencies, minorUnitsOf, type AmountCurrency } from './lib/decimal-amount';
import type { Settings } from './lib/settings';

/** Wrong usage: exit 2, with the line to fix. */
class UsageError extends Error {}

type Output = { json: unknown; lines: string[] };
type Values = Record<string, string | boolean | undefined>;
interface Command {
  options: Record<string, { type: 'string' | 'boolean' }>;
  positionals: number;
  run(client: BackofficeClient, values: Values, positionals: string[]): Promise<Output>;
}

export const backofficeUsage = `Usage: npm run operator -- backoffice <command> [options] [--json]

The back-office API as you, with a personal token made in the console (My account, Personal tokens for the operator CLI).
The token is read from the environment only, never from an argument (it would stay in shell history and ps):
  export BACKOFFICE_TOKEN=pwabo_...      (BACKOFFICE_URL: default the local stack's back-office)

Commands:
  whoami                                     who the token acts as (name, e-mail, roles) and your tokens
  list-requests [--status pending|approved|rejected|expired|executed|failed]
  request-funding --partner-id <uuid> --currency USD|LRD --amount 12.50 --reason "..."
  approve <requestId> [--note "..."]         (a checker; never your own request)
  reject <requestId> [--note "..."]
  list-partners [--search <name or id>]
  list-transactions [--reference-id] [--external-id] [--phone] [--partner-id] [--from] [--to]

--json prints the API's answer as JSON. Exit 0 done, 1 refused (the API's code and message), 2 bad usage.
The direct-database commands above remain for set-up and break-glass until each is moved here.
`;

const text = (value: unknown): string => {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return value.toString();
  return JSON.stringify(value);
};

function stringOption(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

function requiredOption(values: Values, name: string): string {
  const value = stringOption(values, name);
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

function requestLine(request: Record<string, unknown>): string {
  const target = (request.target ?? {}) as Record<string, unknown>;
  return `${text(request.requestId)}  ${text(request.status)}  ${text(request.action)}  ${text(target.kind)}:${text(target.id)}  ${JSON.stringify(request.parameters ?? {})}  maker ${text(request.makerId)}`;
}

const commands: Record<string, Command> = {
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
  'list-requests': {
    options: { status: { type: 'string' } },
    positionals: 0,
    async run(client, values) {
      const data = (await client.get('/api/v1/approval-requests', { status: stringOption(values, 'status') })) as { requests: Record<string, unknown>[] };
      return { json: data, lines: data.requests.length === 0 ? ['No requests.'] : data.requests.map(requestLine) };
    },
  },
  'request-funding': {
    options: { 'partner-id': { type: 'string' }, currency: { type: 'string' }, amount: { type: 'string' }, reason: { type: 'string' } },
    positionals: 0,
    async run(client, values) {
      const partnerId = requiredOption(values, 'partner-id');
      const currency = requiredOption(values, 'currency').toUpperCase();
      if (!(amountCurrencies as readonly string[]).includes(currency)) throw new UsageError(`--currency: one of ${amountCurrencies.join(', ')}`);
      const amountMinor = minorUnitsOf(requiredOption(values, 'amount'));
      if (amountMinor === undefined) throw new UsageError('--amount: a positive amount with at most two decimals, e.g. 12.50');
      const reason = requiredOption(values, 'reason');
      const request = (await client.post('/api/v1/approval-requests', {
        action: 'partner.fund',
        target: { kind: 'partner', id: partnerId },
        parameters: { currency: currency as AmountCurrency, amountMinor },
        reason,
      })) as Record<string, unknown>;
      return { json: request, lines: [`Requested (a checker approves it): ${requestLine(request)}`] };
    },
  },
  approve: decision('approve'),
  reject: decision('reject'),
  'list-partners': {
    options: { search: { type: 'string' } },
    positionals: 0,
    async run(client, values) {
      const data = (await client.get('/api/v1/partners', { q: stringOption(values, 'search') })) as { partners: Record<string, unknown>[] };
      return { json: data, lines: data.partners.length === 0 ? ['No partners.'] : data.partners.map((partner) => `${text(partner.partnerId)}  ${text(partner.status)}  ${text(partner.name)}`) };
    },
  },
  'list-transactions': {
    options: { 'reference-id': { type: 'string' }, 'external-id': { type: 'string' }, phone: { type: 'string' }, 'partner-id': { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
    positionals: 0,
    async run(client, values) {
      const data = (await client.get('/api/v1/transactions', {
        referenceId: stringOption(values, 'reference-id'),
        externalId: stringOption(values, 'external-id'),
        phone: stringOption(values, 'phone'),
        partnerId: stringOption(values, 'partner-id'),
        from: stringOption(values, 'from'),
        to: stringOption(values, 'to'),
      })) as { transactions: Record<string, unknown>[] };
      return {
        json: data,
        lines:
          data.transactions.length === 0
            ? ['No transactions.']
            : data.transactions.map((t) => `${text(t.postedAt)}  ${text(t.kind)}  ${text(t.amountMinor)} ${text(t.currency)} (minor units)  partner ${text(t.partnerId)}  ${text(t.referenceId)}  ${text(t.phone)}`),
      };
    },
  },
};

function decision(verb: 'approve' | 'reject'): Command {
  return {
    options: { note: { type: 'string' } },
    positionals: 1,
    async run(client, values, [requestId = '']) {
      const note = stringOption(values, 'note');
      const request = (await client.post(`/api/v1/approval-requests/${encodeURIComponent(requestId)}/${verb}`, note === undefined ? {} : { note })) as Record<string, unknown>;
      return { json: request, lines: [`${verb === 'approve' ? 'Approved' : 'Rejected'}: ${requestLine(request)}`] };
    },
  };
}

/** Runs `backoffice <command> ...` (args after "backoffice") and resolves the exit code. */
export async function runBackofficeCli(args: string[], settings: Settings, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(backofficeUsage);
    return 0;
  }
  const wantsJson = rest.includes('--json');
  try {
    const command = commands[name];
    // A token pasted in the command's place is not echoed back.
    if (!command) throw new UsageError(name.includes('pwabo_') ? 'unknown command (a token is never an argument: export BACKOFFICE_TOKEN)' : `unknown command ${JSON.stringify(name)}`);
    let parsed: { values: Values; positionals: string[] };
    try {
      const { values, positionals } = parseArgs({ args: rest, options: { ...command.options, json: { type: 'boolean' } }, allowPositionals: true, strict: true });
      parsed = { values: values, positionals };
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (parsed.positionals.length !== command.positionals) throw new UsageError(command.positionals === 0 ? `${name} takes no positional arguments` : `${name} takes exactly one <requestId>`);
    const token = env.BACKOFFICE_TOKEN?.trim();
    if (!token) throw new UsageError('BACKOFFICE_TOKEN is not set: make a personal token in the console and export it (never pass it as an argument)');
    if (!token.startsWith('pwabo_')) throw new UsageError('BACKOFFICE_TOKEN is not a personal token (they start with pwabo_)');
    const baseUrl = (env.BACKOFFICE_URL || settings.backoffice.publicUrl).replace(/\/+$/, '');
    if (!baseUrl.startsWith('https://')) throw new UsageError('BACKOFFICE_URL must be an https:// address');
    const ca = trustFor(baseUrl, settings.caCertFile);
    const output = await command.run(backofficeClient({ baseUrl, token, ...(ca ? { ca } : {}) }), parsed.values, parsed.positionals);
    process.stdout.write(wantsJson ? `${JSON.stringify(output.json, null, 2)}\n` : `${output.lines.join('\n')}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      if (wantsJson) process.stdout.write(`${JSON.stringify({ error: { code: 'USAGE', message: error.message } })}\n`);
      process.stderr.write(`${error.message}\n\n${backofficeUsage}`);
      return 2;
    }
    if (error instanceof BackofficeRefusal) {
      if (wantsJson) process.stdout.write(`${JSON.stringify({ error: { code: error.code, message: error.message, status: error.status } })}\n`);
      process.stderr.write(`Refused: ${error.code}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
