import type { Express } from 'express';
import { assertedPartnerOf, partnerChangeLogFields } from '@pwa/contracts';
import { successEnvelope } from '@pwa/errors';
import { jsonBodyAsWritten, requestIdOf } from '@pwa/http';
import { writtenNumber } from '@pwa/money';
import { bulkSummaryView } from '../domain/bulk';
import { getBulk, listBulkItemsOfPartner } from '../use-cases/get-bulk';
import { listBulks } from '../use-cases/list-bulks';
import { quoteBulk, type QuoteBulkDependencies } from '../use-cases/quote-bulk';
import { transferBulk, type TransferBulkDependencies } from '../use-cases/transfer-bulk';

/** The path of the bulk quote: the one route whose body may be large (1,000 items; see the service's largeJsonBody). */
export const bulkQuotePath = '/partner/v1/disbursement/bulk/quote';

/**
 * Bulk payouts (issue 20, decision 0055), reached only through the gateway, which has checked the
 * token, the partner's status and the disbursement permission, and names the partner in x-partner-id.
 */
export function mountBulkRoutes(app: Express, dependencies: QuoteBulkDependencies & TransferBulkDependencies): void {
  app.post(bulkQuotePath, async (req, res) => {
    // The amounts as the client wrote them (the gateway forwards the body's bytes unchanged), as for a single quote.
    const body: unknown = jsonBodyAsWritten(req, writtenNumber) ?? (req.body as unknown);
    res.status(200).json(successEnvelope(await quoteBulk(dependencies, { partnerId: assertedPartnerOf(req.headers).partnerId, body, requestId: requestIdOf(res) })));
  });

  app.post('/partner/v1/disbursement/bulk/transfer', async (req, res) => {
    const partner = assertedPartnerOf(req.headers);
    const accepted = await transferBulk(dependencies, { partnerId: partner.partnerId, actor: partner.actor, body: req.body, requestId: requestIdOf(res) });
    const { bulkId, itemCount, requestedBy } = accepted.bulk;
    dependencies.logger.info({ ...partnerChangeLogFields(partner), bulkId, itemCount, requestedBy, replayed: accepted.replayed }, accepted.replayed ? 'bulk transfer answered again' : 'bulk transfer accepted');
    res.status(accepted.replayed ? 200 : 202).json(successEnvelope(bulkSummaryView(accepted.bulk, accepted.progress)));
  });

  // Before the disbursements' GET /partner/v1/disbursement/:referenceId (mounted after these), which would read "bulks" as a referenceId.
  app.get('/partner/v1/disbursement/bulks', async (req, res) => {
    res.status(200).json(successEnvelope(await listBulks(dependencies.pool, assertedPartnerOf(req.headers).partnerId, req.query)));
  });

  app.get('/partner/v1/disbursement/bulk/:bulkId/items', async (req, res) => {
    res.status(200).json(successEnvelope(await listBulkItemsOfPartner(dependencies.pool, assertedPartnerOf(req.headers).partnerId, req.params.bulkId, req.query)));
  });

  app.get('/partner/v1/disbursement/bulk/:bulkId', async (req, res) => {
    res.status(200).json(successEnvelope(await getBulk(dependencies.pool, assertedPartnerOf(req.headers).partnerId, req.params.bulkId, req.query)));
  });
}
