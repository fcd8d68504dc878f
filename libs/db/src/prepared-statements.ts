import { createHash } from 'node:crypto';
import type { PoolClient, QueryConfig } from 'pg';

/**
 * How many distinct statements one connection prepares at most. The services' statements are
 * fixed texts (a few dozen per service); the cap only keeps a bug that builds SQL text from data
 * from growing a connection's prepared statements without bound. Past it, statements run unnamed.
 */
export const preparedStatementsPerConnectionMax = 500;

/** Statements longer than this are rare, one-off (migrations, reports) and not worth keeping. */
const preparedStatementTextLengthMax = 8_000;

/**
 * Makes every parameterised statement a named prepared statement on this connection, as the
 * reference flow does by hand: Postgres parses and plans a statement once per connection instead
 * of on every call, which is most of the cost of the short statements a posting is made of.
 * The name is a hash of the text, so one text always maps to one name (pg refuses a name reused
 * with another text) and callers change nothing. Statements without parameters (BEGIN, COMMIT,
 * DDL) keep the simple protocol. Migrations run before a service's pool opens, so no prepared
 * plan outlives a schema change.
 */
export function prepareParameterisedStatements(client: PoolClient): void {
  const preparedNames = new Set<string>();
  const originalQuery = client.query.bind(client) as (...args: unknown[]) => unknown;
  const namedQuery = (...args: unknown[]): unknown => {
    const [first, second] = args;
    if (typeof first === 'string' && Array.isArray(second)) {
      const name = statementNameFor(first, preparedNames);
      if (name !== undefined) return originalQuery({ name, text: first, values: second }, ...args.slice(2));
    } else if (isUnnamedParameterisedConfig(first)) {
      const name = statementNameFor(first.text, preparedNames);
      if (name !== undefined) return originalQuery({ ...first, name }, ...args.slice(1));
    }
    return originalQuery(...args);
  };
  (client as unknown as { query: typeof namedQuery }).query = namedQuery;
}

function isUnnamedParameterisedConfig(value: unknown): value is QueryConfig & { text: string } {
  if (typeof value !== 'object' || value === null) return false;
  const config = value as Partial<QueryConfig> & { submit?: unknown };
  // A Submittable (a cursor or a stream) manages its own protocol; leave it alone.
  if (typeof config.submit === 'function') return false;
  return typeof config.text === 'string' && config.name === undefined && Array.isArray(config.values);
}

/** Text to name, shared by every connection of the process, so a hot statement is hashed once. */
const namesByText = new Map<string, string>();

function nameOf(text: string): string {
  const known = namesByText.get(text);
  if (known !== undefined) return known;
  const name = `pwa_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  if (namesByText.size < preparedStatementsPerConnectionMax) namesByText.set(text, name);
  return name;
}

function statementNameFor(text: string, preparedNames: Set<string>): string | undefined {
  if (text.length > preparedStatementTextLengthMax) return undefined;
  const name = nameOf(text);
  if (preparedNames.has(name)) return name;
  if (preparedNames.size >= preparedStatementsPerConnectionMax) return undefined;
  preparedNames.add(name);
  return name;
}
