import { randomUUID } from 'node:crypto';
import { startAuthHarness } from '../../../auth/test/integration/auth-harness';
import { startConsoleStand, type ConsoleStand, type SignedInOperator } from '../support/console-stand';

/**
 * Partners in the console for every role, read from the real auth in-process on each call: search
 * by name or id, keyset pages, detail with the approved changes; refusals as the other routes give them.
 */
let stand: ConsoleStand;
let people: SignedInOperator[];
let maker: SignedInOperator;
let checker: SignedInOperator;
const marker = `Reads${randomUUID().slice(0, 6)}`;
const partnerIds: string[] = [];

beforeAll(async () => {
  stand = await startConsoleStand('backoffice_partner_reads');
  people = [
    await stand.signedInOperator('Read Viewer', ['viewer']),
    (maker = await stand.signedInOperator('Read Maker', ['maker'])),
    (checker = await stand.signedInOperator('Read Checker', ['checker'])),
    await stand.signedInOperator('Read Admin', ['admin']),
  ];
  for (const name of [`${marker} Alpha`, `${marker} Beta 100%`, `${marker} Gamma`, `${marker} <script>alert(1)</script>`, 'Unrelated Remit']) {
    partnerIds.push(await stand.newPartnerId(name));
  }
});

afterAll(async () => {
  await stand?.stop();
});

const get = (person: SignedInOperator, path: string) => stand.call('GET', path, { cookie: person.cookie });

describe('partners in the console', () => {
  test('when each role searches partners by part of the name, then all see them newest first, in keyset pages that neither skip nor repeat', async () => {
    for (const person of people) {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 5; page += 1) {
        const listed = await get(person, `/api/v1/partners?q=${encodeURIComponent(marker)}&pageSize=3${cursor === null ? '' : `&cursor=${cursor}`}`);
        expect(listed.status).toBe(200);
        seen.push(...(listed.body.data?.partners as { partnerId: string }[]).map((partner) => partner.partnerId));
        cursor = listed.body.data?.nextCursor as string | null;
        if (cursor === null) break;
      }
      expect(seen).toEqual(partnerIds.slice(0, 4).reverse());
    }
  });

  test('when a search names a partner or client id, or a literal percent sign, then it finds exactly that partner; no secret is in any answer', async () => {
    const byId = await get(people[0] as SignedInOperator, `/api/v1/partners?q=${partnerIds[2]}`);
    expect((byId.body.data?.partners as { partnerId: string; clientId: string }[]).map((partner) => partner.partnerId)).toEqual([partnerIds[2]]);
    const clientId = (byId.body.data?.partners as { clientId: string }[])[0]?.clientId ?? '';
    const byClientId = await get(people[0] as SignedInOperator, `/api/v1/partners?q=${clientId.toUpperCase()}`);
    expect((byClientId.body.data?.partners as { partnerId: string }[]).map((partner) => partner.partnerId)).toEqual([partnerIds[2]]);
    const byPercent = await get(people[0] as SignedInOperator, `/api/v1/partners?q=${encodeURIComponent('100%')}`);
    expect((byPercent.body.data?.partners as { partnerId: string }[]).map((partner) => partner.partnerId)).toEqual([partnerIds[1]]);
    expect(byId.text).not.toMatch(/secret|hash/i);
  });

  test('when each role opens a partner after an approved status change, then the detail shows its settings and the change with who approved it', async () => {
    const partnerId = partnerIds[0] as string;
    const asked = await stand.call('POST', '/api/v1/approval-requests', {
      cookie: maker.cookie,
      csrf: maker.csrf,
      body: { action: 'partner.status.set', target: { kind: 'partner', id: partnerId }, parameters: { status: 'suspended' }, reason: 'KYC review' },
    });
    const approved = await stand.call('POST', `/api/v1/approval-requests/${String(asked.body.data?.requestId)}/approve`, { cookie: checker.cookie, csrf: checker.csrf, body: {} });
    expect(approved.body.data).toMatchObject({ status: 'executed' });
    for (const person of people) {
      const detail = await get(person, `/api/v1/partners/${partnerId.toUpperCase()}`);
      expect(detail).toMatchObject({ status: 200, body: { data: { partnerId, name: `${marker} Alpha`, status: 'suspended' } } });
      expect(detail.body.data?.changes).toEqual([
        expect.objectContaining({ action: 'partner.status.set', before: expect.objectContaining({ status: 'active' }), after: expect.objectContaining({ status: 'suspended' }), makerId: maker.operatorId, checkerId: checker.operatorId, operatorName: 'Read Checker', reason: 'KYC review' }),
      ]);
    }
    const filtered = await get(people[0] as SignedInOperator, `/api/v1/partners?q=${encodeURIComponent(marker)}&status=suspended`);
    expect((filtered.body.data?.partners as { partnerId: string }[]).map((partner) => partner.partnerId)).toEqual([partnerId]);
  });

  test('when a partner is unknown, a cursor is forged, a filter is wrong or nobody is signed in, then each is refused with its code', async () => {
    const viewer = people[0] as SignedInOperator;
    expect(await get(viewer, `/api/v1/partners/${randomUUID()}`)).toMatchObject({ status: 404, body: { code: 'CON_4008' } });
    expect(await get(viewer, '/api/v1/partners/not-an-id')).toMatchObject({ status: 404, body: { code: 'CON_4008' } });
    expect(await get(viewer, '/api/v1/partners?cursor=forged')).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await get(viewer, '/api/v1/partners?status=gone')).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await get(viewer, '/api/v1/partners?pageSize=1000')).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await stand.call('GET', '/api/v1/partners')).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    expect(await stand.call('GET', `/api/v1/partners/${partnerIds[0]}`)).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
  });

  test('when auth does not answer, then the console answers 503 PKC_7003 rather than an empty list', async () => {
    const gone = await startAuthHarness();
    await gone.stop();
    const away = await startConsoleStand('backoffice_partner_reads_away', { auth: gone });
    try {
      const viewer = await away.signedInOperator('Away Viewer', ['viewer']);
      expect(await away.call('GET', '/api/v1/partners', { cookie: viewer.cookie })).toMatchObject({ status: 503, body: { code: 'PKC_7003' } });
      expect(await away.call('GET', `/api/v1/partners/${randomUUID()}`, { cookie: viewer.cookie })).toMatchObject({ status: 503, body: { code: 'PKC_7003' } });
    } finally {
      await away.stop();
    }
  });
});
