import { startConsoleStand, type ConsoleStand, type SignedInOperator } from '../support/console-stand';

/** The audit log in the console: who may read it, search and pages, the export (itself audited), and verification catching an altered entry. */
let stand: ConsoleStand;
let checker: SignedInOperator;
let admin: SignedInOperator;
let maker: SignedInOperator;
let viewer: SignedInOperator;

beforeAll(async () => {
  stand = await startConsoleStand('backoffice_audit_api');
  [checker, admin, maker, viewer] = [
    await stand.signedInOperator('Audit Checker', ['checker']),
    await stand.signedInOperator('Audit Admin', ['admin']),
    await stand.signedInOperator('Audit Maker', ['maker']),
    await stand.signedInOperator('Audit Viewer', ['viewer']),
  ];
  const partnerId = await stand.newPartnerId('Audit Partner');
  for (let index = 0; index < 3; index += 1) {
    await stand.call('POST', '/api/v1/approval-requests', {
      cookie: maker.cookie,
      csrf: maker.csrf,
      body: { action: 'partner.fund', target: { kind: 'partner', id: partnerId }, parameters: { currency: 'LRD', amountMinor: `${index + 1}00000` }, reason: `=HYPERLINK("http://evil.example") wire ${index}` },
    });
  }
});

afterAll(async () => {
  await stand?.stop();
});

type Entry = { sequence: number; action: string; outcome: string; actor: { id: string } };

describe('the audit log in the console', () => {
  test('when a maker or a viewer reads, exports or verifies the log, then each is refused 403', async () => {
    for (const person of [maker, viewer]) {
      for (const path of ['/api/v1/audit-log', '/api/v1/audit-log/export', '/api/v1/audit-log/verification']) {
        expect({ path, answer: (await stand.call('GET', path, { cookie: person.cookie })).body.code }).toEqual({ path, answer: 'CON_3001' });
      }
    }
  });

  test('when a checker searches by action a page at a time, then every matching entry comes once, newest first', async () => {
    const seen: Entry[] = [];
    let cursor: string | null = null;
    do {
      const page = await stand.call('GET', `/api/v1/audit-log?action=approval_request.create&pageSize=2${cursor ? `&cursor=${cursor}` : ''}`, { cookie: checker.cookie });
      expect(page.status).toBe(200);
      seen.push(...(page.body.data?.entries as Entry[]));
      cursor = page.body.data?.nextCursor as string | null;
    } while (cursor !== null);
    expect(seen).toHaveLength(3);
    expect(seen.map((entry) => entry.sequence)).toEqual([...seen.map((entry) => entry.sequence)].sort((a, b) => b - a));
    expect(seen.every((entry) => entry.action === 'approval_request.create' && entry.actor.id === maker.operatorId)).toBe(true);
  });

  test('when an admin exports CSV, then the file is an attachment with a header row and one row per entry, and the export is itself audited', async () => {
    const response = await stand.call('GET', '/api/v1/audit-log/export?format=csv&action=approval_request.create', { cookie: admin.cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="backoffice-audit-log.csv"');
    const [header, ...rows] = response.text.trim().split('\r\n');
    expect(header).toContain('sequence');
    expect(rows).toHaveLength(3);
    const exported = await stand.database.pool.query<{ actor: { id: string }; after: { format: string; entryCount: number } }>(`SELECT actor, after FROM audit_log WHERE action = 'audit_log.export' ORDER BY sequence DESC LIMIT 1`);
    expect(exported.rows[0]).toMatchObject({ actor: { id: admin.operatorId }, after: { format: 'csv', entryCount: 3 } });
  });

  test('when the query is malformed, then it is refused 400 CON_2001 naming the parameter', async () => {
    for (const query of ['outcome=maybe', 'from=yesterday', 'pageSize=0', 'cursor=abc', 'actorId=1', 'colour=red', 'action=DROP%20TABLE']) {
      const answer = await stand.call('GET', `/api/v1/audit-log?${query}`, { cookie: checker.cookie });
      expect({ query, status: answer.status, code: answer.body.code }).toEqual({ query, status: 400, code: 'CON_2001' });
    }
  });

  test('when the chain is intact it verifies; when the database owner alters an entry, the verification names that entry', async () => {
    expect(await stand.call('GET', '/api/v1/audit-log/verification', { cookie: admin.cookie })).toMatchObject({ status: 200, body: { data: { ok: true } } });
    const target = await stand.database.pool.query<{ sequence: string }>(`SELECT sequence FROM audit_log WHERE action = 'approval_request.create' ORDER BY sequence LIMIT 1`);
    const sequence = Number(target.rows[0]?.sequence);
    const client = await stand.database.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('ALTER TABLE audit_log DISABLE TRIGGER USER');
      await client.query(`UPDATE audit_log SET after = jsonb_set(after, '{reason}', '"nothing to see"') WHERE sequence = $1`, [sequence]);
      await client.query('ALTER TABLE audit_log ENABLE TRIGGER USER');
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await stand.call('GET', '/api/v1/audit-log/verification', { cookie: checker.cookie })).toMatchObject({ status: 200, body: { data: { ok: false, firstBrokenSequence: sequence } } });
  });
});
