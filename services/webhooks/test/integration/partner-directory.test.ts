import type { PartnerEventData } from '@pwa/contracts';
import { applyPartnerData, findPartner } from '../../src/store/partner-store';
import { startWebhooksHarness, type WebhooksHarness } from './webhooks-harness';

let harness: WebhooksHarness;

beforeAll(async () => {
  harness = await startWebhooksHarness();
});

afterAll(async () => {
  await harness.stop();
});

async function occurredAtOfCopy(partnerId: string): Promise<Date> {
  const result = await harness.pool.query<{ source_occurred_at: Date }>('SELECT source_occurred_at FROM partners WHERE partner_id = $1', [partnerId]);
  const row = result.rows[0];
  if (!row) throw new Error('no copy of the partner');
  return row.source_occurred_at;
}

function directoryData(partnerId: string, clientId: string, webhookUrl: string): PartnerEventData {
  return { partnerId, clientId, name: 'Directory partner', status: 'active', permissions: ['collection'], rateLimitPerMinute: null, webhookUrl, webhookSecrets: [] };
}

describe('partner copy from the auth directory', () => {
  it('when the directory answers with data older than the last event applied, then the copy is kept; with newer data, then it is replaced', async () => {
    const partner = await harness.publishPartner({ webhookUrl: 'https://from-event.example/hooks' });
    const eventTime = await occurredAtOfCopy(partner.partnerId);

    const older = new Date(eventTime.getTime() - 60_000).toISOString();
    expect(await applyPartnerData(harness.pool, directoryData(partner.partnerId, partner.clientId, 'https://stale.example/hooks'), older)).toBe(false);
    expect((await findPartner(harness.pool, partner.partnerId))?.webhookUrl).toBe('https://from-event.example/hooks');

    const newer = new Date(eventTime.getTime() + 60_000).toISOString();
    expect(await applyPartnerData(harness.pool, directoryData(partner.partnerId, partner.clientId, 'https://from-directory.example/hooks'), newer)).toBe(true);
    expect(await findPartner(harness.pool, partner.partnerId)).toMatchObject({ webhookUrl: 'https://from-directory.example/hooks', secrets: [] });
  });
});
