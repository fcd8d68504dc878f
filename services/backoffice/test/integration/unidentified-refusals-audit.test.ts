import { Redis } from 'ioredis';
import { unidentifiedRefusalsPerAddressPerMinute as entriesPerAddressPerMinute } from '@pwa/web-auth';
import { startConsoleStand, type ConsoleStand } from '../support/console-stand';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the repository's test support is CommonJS outside the workspace
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { redis: string } };

/**
 * Changes refused before anyone is known are in the audit log too (issue 27: "every change and
 * every refusal of one"), as `unidentified`, with the endpoint, the reason and the address; a flood
 * from one address is capped so nobody outside fills the log; reads refused are not changes.
 */
let stand: ConsoleStand;

beforeAll(async () => {
  stand = await startConsoleStand('backoffice_unidentified');
});

afterAll(async () => {
  await stand?.stop();
});

interface RefusalRow {
  actor: { id: string };
  target: { kind: string; id: string };
  reason: string;
  address: string;
}

async function refusals(): Promise<RefusalRow[]> {
  const result = await stand.database.pool.query<RefusalRow>(
    `SELECT actor, target, reason, address FROM audit_log WHERE action = 'console.change_refused' AND actor->>'id' = 'unidentified' ORDER BY sequence`,
  );
  return result.rows;
}

async function clearCounters(): Promise<void> {
  // The stand's keys carry its label in their prefix; counters are per minute and address.
  const redis = new Redis(serverUrls().redis);
  try {
    const keys = await redis.keys('pwa-test:backoffice_unidentified:*:backoffice:unidentified-refusals:*');
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

describe('changes refused before anyone is known', () => {
  test('when a change comes with no session, an ended session, an unknown personal token or from another site before sign-in, then each is refused and audited as unidentified, without the token', async () => {
    await clearCounters();
    const before = (await refusals()).length;
    const noSession = await stand.call('POST', '/api/v1/approval-requests', { body: { action: 'partner.fund' } });
    expect(noSession).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    const ended = await stand.call('POST', '/api/v1/operators', { cookie: '__Host-backoffice-session=c2Vzc2lvbi10aGF0LWVuZGVkLWxvbmctYWdv', csrf: 'x', body: {} });
    expect(ended).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    const forgedToken = 'pwabo_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const token = await stand.call('POST', '/api/v1/approval-requests', { origin: null, headers: { authorization: `Bearer ${forgedToken}` }, body: {} });
    expect(token).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    const crossSite = await stand.call('POST', '/api/v1/session', { origin: 'https://evil.example', body: { email: 'someone@operator.example', password: 'not checked at all' } });
    expect(crossSite).toMatchObject({ status: 403, body: { code: 'CON_1005' } });
    // A refused read is no refused change: not audited.
    expect(await stand.call('GET', '/api/v1/approval-requests')).toMatchObject({ status: 401, body: { code: 'CON_1004' } });

    const rows = (await refusals()).slice(before);
    expect(rows.map((row) => [row.target.id, row.reason])).toEqual([
      ['POST /api/v1/approval-requests', 'no session'],
      ['POST /api/v1/operators', 'the session has ended'],
      ['POST /api/v1/approval-requests', 'the personal token is unknown, revoked or expired'],
      ['POST /api/v1/session', 'the request came from another site'],
    ]);
    for (const row of rows) expect(row.address).not.toBe('');
    const text = JSON.stringify(await stand.database.pool.query('SELECT * FROM audit_log').then((result) => result.rows));
    expect(text).not.toContain(forgedToken);
    expect(text).not.toContain('c2Vzc2lvbi10aGF0LWVuZGVkLWxvbmctYWdv');
    expect(text).not.toContain('not checked at all');
  });

  test('when one address sends many refused changes in a minute, then the first ones are recorded one by one, one more says the rest are not, and the log stays bounded', async () => {
    await clearCounters();
    const before = (await refusals()).length;
    const sent = entriesPerAddressPerMinute + 10;
    for (let index = 0; index < sent; index += 1) {
      expect((await stand.call('DELETE', '/api/v1/session')).status).toBe(401);
    }
    const rows = (await refusals()).slice(before);
    // A minute boundary during the loop starts a new count: then more rows, never fewer than the cap.
    expect(rows.length).toBeGreaterThanOrEqual(entriesPerAddressPerMinute + 1);
    expect(rows.length).toBeLessThan(sent);
    expect(rows.filter((row) => row.reason.includes('not recorded one by one')).length).toBeGreaterThanOrEqual(1);
  });
});
