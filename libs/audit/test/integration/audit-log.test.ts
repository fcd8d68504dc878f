import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { Registry } from 'prom-client';
import { createPool, databaseUrlForRole, dropDatabase, ensureDatabase, migrate, provisionServiceRoles, withTransaction, type Pool } from '@pwa/db';
import {
  appendAuditEntry,
  appendAuditEntryInTransaction,
  AuditError,
  auditErrorCodes,
  auditMigrationsDirectory,
  entryHash,
  exportAuditEntries,
  readAuditChainHead,
  registerAuditMetrics,
  searchAuditEntries,
  verifyAuditChain,
  type AuditEntryInput,
} from '@pwa/audit';
import { createLogger } from '@pwa/logging';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string } };

/**
 * The audit log as a service keeps it: its schema made by libs/db's role provisioning, the lib's
 * migration applied by the schema's owner role, and the service writing as its runtime role. Each
 * test has a schema (a chain) of its own.
 */
const adminUrl = (() => {
  const url = new URL(serverUrls().postgres);
  url.pathname = `/pwa_audit_test_${randomBytes(6).toString('hex')}`;
  return url.toString();
})();
const suffix = randomBytes(3).toString('hex');
const roles = { owner: `pwa_audittest_${suffix}_own`, runtime: `pwa_audittest_${suffix}_rt` };
const pools: Pool[] = [];

interface AuditLog {
  schema: string;
  /** The service's pool, as its runtime role. */
  runtime: Pool;
  /** Runs SQL as a given role (the owner's break-glass, or the runtime role by hand) on the schema. */
  sqlAs: (role: string, statements: (client: Client) => Promise<void>) => Promise<void>;
}

async function provisionSchema(schema: string): Promise<void> {
  await provisionServiceRoles({ adminUrl, services: [{ service: 'audit', schema, roles }] });
}

async function freshAuditLog(options: { maxConnections?: number } = {}): Promise<AuditLog> {
  const schema = `audit_${randomBytes(4).toString('hex')}`;
  await provisionSchema(schema);
  await migrate({ databaseUrl: databaseUrlForRole(adminUrl, roles.owner), schema, directories: [auditMigrationsDirectory] });
  const runtime = createPool({ connectionString: databaseUrlForRole(adminUrl, roles.runtime), applicationName: 'audit-test', schema, maxConnections: options.maxConnections ?? 5 });
  pools.push(runtime);
  const sqlAs = async (role: string, statements: (client: Client) => Promise<void>): Promise<void> => {
    const client = new Client({ connectionString: databaseUrlForRole(adminUrl, role), options: `-c search_path=${schema}` });
    await client.connect();
    try {
      await statements(client);
    } finally {
      await client.end();
    }
  };
  return { schema, runtime, sqlAs };
}

function entry(overrides: Partial<AuditEntryInput> = {}): AuditEntryInput {
  return {
    actor: { kind: 'person', id: 'operator-ama', displayName: 'Ama Mensah' },
    action: 'partner.status.change',
    target: { kind: 'partner', id: 'partner-1' },
    before: { status: 'active' },
    after: { status: 'suspended' },
    outcome: 'done',
    address: '10.1.2.3',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    requestId: `req-${randomUUID()}`,
    ...overrides,
  };
}

async function appendMany(log: AuditLog, count: number, overrides: (index: number) => Partial<AuditEntryInput> = () => ({})): Promise<void> {
  for (let index = 0; index < count; index += 1) await appendAuditEntry(log.runtime, entry(overrides(index)));
}

async function sqlError(work: () => Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await work();
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error('expected the database to refuse');
}

/** The owner's break-glass: the append-only trigger off around one statement, in one transaction. */
async function asOwnerWithTriggerOff(log: AuditLog, statement: string): Promise<void> {
  await log.sqlAs(roles.owner, async (client) => {
    await client.query('BEGIN');
    await client.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
    await client.query(statement);
    await client.query('ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only');
    await client.query('COMMIT');
  });
}

/** A superuser's statement with no trigger firing: triggers do not fire for a session in replica mode, which only a superuser may set. */
async function asSuperuserInReplicaMode(log: AuditLog, statement: string, values: unknown[] = []): Promise<void> {
  await log.sqlAs('postgres', async (client) => {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    await client.query(statement, values);
    await client.query('COMMIT');
  });
}

beforeAll(async () => {
  await ensureDatabase(adminUrl);
});

// Each test's pool ends with it: a pool left open keeps its connections (idle for 30 s), and the
// server's connection slots are shared with the suite running beside this one and its whole stack.
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.end()));
});

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await dropDatabase(adminUrl);
  const admin = new Client({ connectionString: serverUrls().postgres });
  await admin.connect();
  for (const role of Object.values(roles)) await admin.query(`DROP ROLE IF EXISTS ${role}`);
  await admin.end();
});

describe('appending and verifying', () => {
  it('when entries are appended, then each follows the one before and the chain verifies', async () => {
    const log = await freshAuditLog();
    const first = await appendAuditEntry(log.runtime, entry());
    const second = await appendAuditEntry(log.runtime, entry({ outcome: 'refused', reason: 'the checker is the maker', after: null }));
    expect([first.sequence, second.sequence]).toEqual([1, 2]);
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(second.occurredAt >= first.occurredAt).toBe(true);
    const stored = await searchAuditEntries(log.runtime, {});
    expect(stored.entries.map((found) => [found.sequence, found.previousHash, found.hash])).toEqual([
      [2, first.hash, second.hash],
      [1, '0'.repeat(64), first.hash],
    ]);
    expect(stored.entries[0]).toMatchObject({ outcome: 'refused', reason: 'the checker is the maker', after: null, before: { status: 'active' }, actor: { kind: 'person', id: 'operator-ama' } });
    await expect(verifyAuditChain(log.runtime)).resolves.toEqual({ ok: true, entries: 2 });
  });

  it('when the log is empty, then it verifies with no entries', async () => {
    const log = await freshAuditLog();
    await expect(verifyAuditChain(log.runtime)).resolves.toEqual({ ok: true, entries: 0 });
  });

  it('when 50 entries are appended at once from separate connections, then they form one unbroken chain numbered 1 to 50', async () => {
    const log = await freshAuditLog({ maxConnections: 20 });
    const appended = await Promise.all(Array.from({ length: 50 }, (_, index) => appendAuditEntry(log.runtime, entry({ target: { kind: 'partner', id: `partner-${index}` } }))));
    expect(appended.map((found) => found.sequence).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
    const backends = await log.runtime.query<{ count: number }>(`SELECT count(*)::integer AS count FROM pg_stat_activity WHERE usename = $1 AND application_name = 'audit-test'`, [roles.runtime]);
    // More connections than a default pool holds: the appends really ran side by side.
    expect(backends.rows[0]?.count).toBeGreaterThan(10);
    await expect(verifyAuditChain(log.runtime, { pageSize: 7 })).resolves.toEqual({ ok: true, entries: 50 });
  });

  it('when an append is part of a transaction that rolls back, then neither the entry nor its place in the sequence remains', async () => {
    const log = await freshAuditLog();
    await appendAuditEntry(log.runtime, entry());
    await expect(
      withTransaction(log.runtime, async (client) => {
        await appendAuditEntryInTransaction(client, entry());
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const next = await withTransaction(log.runtime, (client) => appendAuditEntryInTransaction(client, entry()));
    expect(next.sequence).toBe(2);
    await expect(verifyAuditChain(log.runtime)).resolves.toEqual({ ok: true, entries: 2 });
  });

  it('when an append is asked for inside a REPEATABLE READ transaction, then it is refused with the reason', async () => {
    const log = await freshAuditLog();
    await expect(withTransaction(log.runtime, (client) => appendAuditEntryInTransaction(client, entry()), 'read_only_snapshot')).rejects.toThrow(
      'appendAuditEntryInTransaction needs a READ COMMITTED transaction',
    );
  });

  it('when an entry holds a key that looks secret, then it is refused, names the key path only, and nothing is written', async () => {
    const log = await freshAuditLog();
    const error = await sqlError(() => appendAuditEntry(log.runtime, entry({ after: { totp: { Secret: 'JBSWY3DPEHPK3PXP' } } })));
    expect(error).toBeInstanceOf(AuditError);
    expect(error.code).toBe(auditErrorCodes.secretInValues);
    expect(error.message).toContain('after.totp');
    expect(error.message).not.toContain('JBSWY3DPEHPK3PXP');
    expect((await searchAuditEntries(log.runtime, {})).entries).toEqual([]);
  });
});

describe('tampering', () => {
  // The owner's break-glass changes the log: verification names the first entry that no longer follows.
  it.each([
    {
      title: 'when the owner changes an entry with the append-only trigger disabled, then verification names exactly that entry',
      appended: 5,
      statement: `UPDATE audit_log SET after = '{"status": "active"}' WHERE sequence = 3`,
      pageSize: 2,
      namedSequence: 3,
      problem: 'hash_mismatch',
      detail: 'entry 3 does not hash to its stored hash: its content was changed',
    },
    {
      title: 'when the owner deletes an entry in the middle, then verification names the gap',
      appended: 6,
      statement: 'DELETE FROM audit_log WHERE sequence IN (3, 4)',
      pageSize: undefined,
      namedSequence: 5,
      problem: 'sequence_gap',
      detail: 'entries 3 to 4 are missing before entry 5',
    },
  ])('$title', async ({ appended, statement, pageSize, namedSequence, problem, detail }) => {
    const log = await freshAuditLog();
    await appendMany(log, appended);
    const named = (await searchAuditEntries(log.runtime, {})).entries.find((found) => found.sequence === namedSequence);
    await asOwnerWithTriggerOff(log, statement);
    await expect(verifyAuditChain(log.runtime, { pageSize })).resolves.toEqual({ ok: false, firstBrokenSequence: 3, entryId: named?.entryId, problem, entries: 2, detail });
  });

  it('when a superuser changes an entry and writes the hash its new content has, then verification names the entry after it', async () => {
    const log = await freshAuditLog();
    await appendMany(log, 4);
    const second = (await searchAuditEntries(log.runtime, {})).entries.find((found) => found.sequence === 2);
    if (second === undefined) throw new Error('entry 2 missing');
    const rewritten = entryHash({ ...second, after: { status: 'active' } });
    await asSuperuserInReplicaMode(log, `UPDATE audit_log SET after = '{"status": "active"}', hash = decode($1, 'hex') WHERE sequence = 2`, [rewritten]);
    await expect(verifyAuditChain(log.runtime)).resolves.toMatchObject({ ok: false, firstBrokenSequence: 3, problem: 'previous_hash_mismatch', entries: 2 });
  });

  it('when a recorded head is given as the anchor, then a chain that still holds it verifies, and one cut below it or rewritten through it does not', async () => {
    const log = await freshAuditLog();
    await appendMany(log, 3);
    const anchor = await readAuditChainHead(log.runtime);
    if (anchor === null) throw new Error('no head');
    await appendMany(log, 1);
    await expect(verifyAuditChain(log.runtime, { anchor })).resolves.toEqual({ ok: true, entries: 4 });
    await expect(verifyAuditChain(log.runtime, { anchor: { sequence: 3, hash: 'ab'.repeat(32) } })).resolves.toMatchObject({ ok: false, firstBrokenSequence: 3, problem: 'anchor_mismatch' });
    await asSuperuserInReplicaMode(log, 'DELETE FROM audit_log WHERE sequence >= 3');
    // Without the anchor, entries cut from the end leave a chain that is sound as far as it goes.
    await expect(verifyAuditChain(log.runtime)).resolves.toEqual({ ok: true, entries: 2 });
    await expect(verifyAuditChain(log.runtime, { anchor })).resolves.toEqual({
      ok: false,
      firstBrokenSequence: 3,
      entryId: null,
      problem: 'entries_cut_from_end',
      entries: 2,
      detail: 'the chain ends at entry 2, before the anchored entry 3',
    });
  });

  it('when the runtime role tries to update, delete or truncate the log, then the database refuses, even with the privileges provisioning grants it', async () => {
    const log = await freshAuditLog();
    await appendMany(log, 2);
    // A later provisioning run grants the runtime role DML on every table of its schema again.
    await provisionSchema(log.schema);
    const granted = await log.runtime.query<{ update: boolean; delete: boolean }>(
      `SELECT has_table_privilege($1, 'audit_log', 'UPDATE') AS update, has_table_privilege($1, 'audit_log', 'DELETE') AS delete`,
      [roles.runtime],
    );
    expect(granted.rows[0]).toEqual({ update: true, delete: true });
    const update = await sqlError(() => log.runtime.query(`UPDATE audit_log SET reason = 'x' WHERE sequence = 1`));
    expect(update).toMatchObject({ code: '42501', message: 'audit_log is append-only: UPDATE refused' });
    const remove = await sqlError(() => log.runtime.query('DELETE FROM audit_log WHERE sequence = 2'));
    expect(remove).toMatchObject({ code: '42501', message: 'audit_log is append-only: DELETE refused' });
    expect((await sqlError(() => log.runtime.query('TRUNCATE audit_log'))).code).toBe('42501');
    expect((await sqlError(() => log.runtime.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only'))).code).toBe('42501');
    expect((await sqlError(() => log.runtime.query('SET session_replication_role = replica'))).code).toBe('42501');
    await expect(verifyAuditChain(log.runtime)).resolves.toEqual({ ok: true, entries: 2 });
  });

  it('when the owner updates without disabling the trigger first, then the database refuses it too', async () => {
    const log = await freshAuditLog();
    await appendMany(log, 1);
    await log.sqlAs(roles.owner, async (client) => {
      expect((await sqlError(() => client.query(`UPDATE audit_log SET reason = 'x'`))).code).toBe('42501');
    });
  });

  it('when the runtime role inserts an entry by hand that does not follow the last one, then the database refuses it', async () => {
    const log = await freshAuditLog();
    await appendMany(log, 2);
    const [second] = (await searchAuditEntries(log.runtime, {})).entries;
    const forged = (sequence: number, previousHashHex: string): Promise<unknown> =>
      log.runtime.query(
        `INSERT INTO audit_log (sequence, entry_id, occurred_at, actor, action, target, outcome, previous_hash, hash)
         VALUES ($1, $2, now(), '{"kind":"system","id":"x","displayName":"x"}', 'x.y', '{"kind":"x","id":"y"}', 'done', decode($3, 'hex'), decode(repeat('cd', 32), 'hex'))`,
        [sequence, randomUUID(), previousHashHex],
      );
    // After the last entry but not linked to it; past the end; and at a place already taken.
    expect((await sqlError(() => forged(3, 'ab'.repeat(32)))).code).toBe('23514');
    expect((await sqlError(() => forged(5, second?.hash ?? ''))).code).toBe('23514');
    expect((await sqlError(() => forged(2, second?.previousHash ?? ''))).code).toBe('23505');
    await expect(verifyAuditChain(log.runtime)).resolves.toEqual({ ok: true, entries: 2 });
  });
});

describe('searching', () => {
  it('when filters are given, then only matching entries come back, newest first', async () => {
    const log = await freshAuditLog();
    const partner = randomUUID();
    await appendAuditEntry(log.runtime, entry({ actor: { kind: 'person', id: 'kofi', displayName: 'Kofi' }, action: 'partner.status.change', partnerId: partner }));
    await appendAuditEntry(log.runtime, entry({ action: 'partner.webhook_url.change', target: { kind: 'partner', id: 'partner-2' } }));
    await appendAuditEntry(log.runtime, entry({ action: 'funding.request.create', target: { kind: 'funding_request', id: 'f-1' }, outcome: 'refused', reason: 'over the limit' }));
    await appendAuditEntry(log.runtime, entry({ action: 'partners_list.view' }));
    const sequencesOf = async (filters: Parameters<typeof searchAuditEntries>[1]): Promise<number[]> =>
      (await searchAuditEntries(log.runtime, filters)).entries.map((found) => found.sequence);
    expect(await sequencesOf({})).toEqual([4, 3, 2, 1]);
    expect(await sequencesOf({ actorId: 'kofi' })).toEqual([1]);
    expect(await sequencesOf({ actionPrefix: 'partner.' })).toEqual([2, 1]);
    expect(await sequencesOf({ actionPrefix: 'partner' })).toEqual([4, 2, 1]);
    expect(await sequencesOf({ targetKind: 'partner', targetId: 'partner-2' })).toEqual([2]);
    expect(await sequencesOf({ targetKind: 'funding_request' })).toEqual([3]);
    expect(await sequencesOf({ outcome: 'refused' })).toEqual([3]);
    expect(await sequencesOf({ partnerId: partner.toUpperCase() })).toEqual([1]);
    const all = (await searchAuditEntries(log.runtime, {})).entries;
    const third = all.find((found) => found.sequence === 3);
    expect(await sequencesOf({ occurredFrom: new Date(Date.parse(third?.occurredAt ?? '')), occurredBefore: new Date(Date.now() + 60_000) })).toEqual(
      all.filter((found) => Date.parse(found.occurredAt) >= Date.parse(third?.occurredAt ?? '')).map((found) => found.sequence),
    );
    expect(await sequencesOf({ occurredBefore: new Date('2000-01-01T00:00:00Z') })).toEqual([]);
  });

  it('when results span several pages, then the cursor walks them newest first with no entry skipped or repeated', async () => {
    const log = await freshAuditLog();
    await appendMany(log, 11, (index) => ({ action: index % 2 === 0 ? 'partner.fee.change' : 'team.member.invite' }));
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const result = await searchAuditEntries(log.runtime, { actionPrefix: 'partner.fee' }, { size: 2, cursor });
      seen.push(...result.entries.map((found) => found.sequence));
      if (result.nextCursor === null) break;
      cursor = result.nextCursor;
    }
    expect(seen).toEqual([11, 9, 7, 5, 3, 1]);
  });

  it('when a page size or cursor is out of bounds, then the search is refused', async () => {
    const log = await freshAuditLog();
    for (const page of [{ size: 0 }, { size: 201 }, { size: 1.5 }, { cursor: 'abc' }, { cursor: '-1' }]) {
      const error = await sqlError(() => searchAuditEntries(log.runtime, {}, page));
      expect(error.code).toBe(auditErrorCodes.searchInvalid);
    }
  });
});

/** RFC 4180 records: quoted cells may hold commas, doubled quotes and line breaks; records end with CRLF. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else cell += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      record.push(cell);
      cell = '';
    } else if (character === '\r' && text[index + 1] === '\n') {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      index += 1;
    } else cell += character;
  }
  return records;
}

async function collect(chunks: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}

describe('exporting', () => {
  const hostile = `=cmd|' /C calc'!A0`;
  const script = '<script>alert("x")</script>';
  const multiline = 'first line, "quoted"\r\nsecond line\nthird';

  it('when entries hold hostile text, then the CSV round-trips it as inert text: formulas prefixed, quotes and line breaks kept', async () => {
    const log = await freshAuditLog();
    await appendAuditEntry(log.runtime, entry({ actor: { kind: 'person', id: 'p-1', displayName: hostile }, target: { kind: 'partner', id: script }, after: { name: multiline } }));
    await appendAuditEntry(log.runtime, entry({ outcome: 'refused', reason: multiline, requestId: '@SUM(A1)', userAgent: '-2+3' }));
    const exported = await exportAuditEntries(log.runtime, {}, { format: 'csv' });
    expect(exported).toMatchObject({ contentType: 'text/csv; charset=utf-8', entryCount: 2 });
    const records = parseCsv(await collect(exported.chunks));
    expect(records).toHaveLength(3);
    const [header, second, first] = records;
    const cell = (record: string[] | undefined, column: string): string | undefined => record?.[header?.indexOf(column) ?? -1];
    expect(header?.slice(0, 3)).toEqual(['sequence', 'entry_id', 'occurred_at']);
    expect(cell(first, 'actor_display_name')).toBe(`'${hostile}`);
    expect(cell(first, 'target_id')).toBe(script);
    expect(JSON.parse(cell(first, 'after') ?? '')).toEqual({ name: multiline });
    expect(cell(second, 'reason')).toBe(multiline);
    expect(cell(second, 'request_id')).toBe(`'@SUM(A1)`);
    expect(cell(second, 'user_agent')).toBe(`'-2+3`);
    for (const record of records.slice(1)) for (const value of record) expect(value).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('when entries are exported as NDJSON, then each line is one entry that parses back to what search answers, with no raw angle bracket', async () => {
    const log = await freshAuditLog();
    await appendAuditEntry(log.runtime, entry({ target: { kind: 'partner', id: script }, after: { name: multiline } }));
    await appendAuditEntry(log.runtime, entry({ actor: { kind: 'system', id: 'approval-expiry', displayName: hostile } }));
    const exported = await exportAuditEntries(log.runtime, {}, { format: 'ndjson' });
    const text = await collect(exported.chunks);
    expect(text).not.toContain('<');
    const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines).toEqual((await searchAuditEntries(log.runtime, {})).entries);
  });

  it('when an export spans several pages, then every matching entry is in it once', async () => {
    const log = await freshAuditLog();
    await appendMany(log, 7, (index) => ({ action: index === 3 ? 'team.member.invite' : 'partner.fee.change' }));
    const exported = await exportAuditEntries(log.runtime, { actionPrefix: 'partner.' }, { format: 'ndjson', pageSize: 2 });
    expect(exported.entryCount).toBe(6);
    const chunks: string[] = [];
    for await (const chunk of exported.chunks) chunks.push(chunk);
    expect(chunks).toHaveLength(3);
    const lines = chunks.join('').trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { sequence: number }).sequence)).toEqual([7, 6, 5, 3, 2, 1]);
  });

  it('when more entries match than an export may hold, then it is refused before anything is sent', async () => {
    const log = await freshAuditLog();
    await appendMany(log, 3);
    const error = await sqlError(() => exportAuditEntries(log.runtime, {}, { format: 'csv', entryCountMax: 2 }));
    expect(error.code).toBe(auditErrorCodes.exportTooLarge);
  });
});

describe('the audit metrics (registerAuditMetrics)', () => {
  const logger = createLogger({ service: 'audit-test', level: 'silent' });
  const gaugeValues = async (registry: Registry, name: string): Promise<Record<string, number>> => {
    const metric = registry.getSingleMetric(name);
    if (metric === undefined) throw new Error(`${name} is not registered`);
    const { values } = await metric.get();
    return Object.fromEntries(values.map((value) => [Object.values(value.labels).join(',') || '', value.value]));
  };
  /** The first walk runs at registration without being awaited: wait until it has set the gauge. */
  const firstWalkOf = async (registry: Registry, name: string): Promise<Record<string, number>> => {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const values = await gaugeValues(registry, name);
      if (Object.keys(values).length > 0) return values;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${name} was never set`);
  };
  const register = (log: AuditLog, registry: Registry) =>
    registerAuditMetrics({ prefix: 'console', registry, pool: log.runtime, logger, signInActionPrefix: 'person.sign_in.', signInRefusalReasons: ['wrong password', 'wrong or used code'] });

  it('when sign-ins are refused, then <prefix>_sign_in_refusals counts them by reason from the log, only for the sign-in actions, unknown reasons as one other', async () => {
    const log = await freshAuditLog();
    const refused = (action: string, reason: string) => entry({ action, outcome: 'refused', reason, before: null, after: null });
    for (const [action, reason] of [
      ['person.sign_in.password', 'wrong password'],
      ['person.sign_in.password', 'wrong password'],
      ['person.sign_in.password', 'account_locked'],
      ['person.sign_in.totp', 'wrong or used code'],
      ['person.sign_in.passkey', 'the assertion did not verify'],
      ['person.sign_in.passkey', 'no passkey challenge for this session'],
      // Not sign-ins: `_` of the prefix is matched literally, and other actions are not counted.
      ['person.signxin.password', 'wrong password'],
      ['person.sign_out', 'wrong password'],
      ['partner.status.change', 'account_locked'],
    ] as const) {
      await appendAuditEntry(log.runtime, refused(action, reason));
    }
    await appendAuditEntry(log.runtime, entry({ action: 'person.sign_in.password', before: null, after: null }));
    const registry = new Registry();
    const metrics = register(log, registry);
    try {
      expect(await gaugeValues(registry, 'console_sign_in_refusals')).toEqual({ account_locked: 1, address_throttled: 0, wrong_password: 2, wrong_or_used_code: 1, other: 2 });
      await appendAuditEntry(log.runtime, refused('person.sign_in.password', 'address_throttled'));
      expect(await gaugeValues(registry, 'console_sign_in_refusals')).toMatchObject({ address_throttled: 1, wrong_password: 2 });
      expect(await registry.metrics()).toContain('# HELP console_sign_in_refusals Sign-ins refused in the last 15 minutes, by reason (from the audit log)');
    } finally {
      metrics.stop();
    }
  });

  it('when the chain is walked at registration, then <prefix>_audit_chain_intact is 1 for a sound chain and 0 once the owner changed an entry, with the walk time', async () => {
    const log = await freshAuditLog();
    await appendMany(log, 3);
    const before = Date.now() / 1000;
    const sound = new Registry();
    const soundMetrics = register(log, sound);
    try {
      expect(await firstWalkOf(sound, 'console_audit_chain_intact')).toEqual({ audit_log: 1 });
      expect((await gaugeValues(sound, 'console_audit_chain_verified_timestamp_seconds'))['']).toBeGreaterThanOrEqual(before);
    } finally {
      soundMetrics.stop();
    }
    await asOwnerWithTriggerOff(log, `UPDATE audit_log SET after = '{"status": "active"}' WHERE sequence = 2`);
    const broken = new Registry();
    const brokenMetrics = register(log, broken);
    try {
      expect(await firstWalkOf(broken, 'console_audit_chain_intact')).toEqual({ audit_log: 0 });
    } finally {
      brokenMetrics.stop();
    }
  });
});
