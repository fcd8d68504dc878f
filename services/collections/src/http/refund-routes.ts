import type { Express } from 'express';
import { assertedPartnerOf, partnerChangeLogFields } from '@pwa/contracts';
import { successEnvelope } from '@pwa/errors';
import { jsonBodyAsWritten, requestIdOf } from '@pwa/http';
import { writtenNumber } from '@pwa/money';
import { refundView } from '../domain/refund-views';
import type { CollectionsDependencies } from '../use-cases/dependencies';
import { refundCollection } from '../use-cases/refund-collection';
import { refundForPartner } from '../use-cases/read-refunds';
import { listRefunds } from '../use-cases/list-refunds';

/**
 * The partner's refund endpoints (issue 19), reached only through the gateway, which has checked
 * the token, the partner's status and its collection permission. The refund body is read with its
 * numbers as written, so the amount is judged on its written digits (as a quote's is).
 * A refund answers 200 when completed, 202 while the posting is still processing.
 */
export function mountRefundRoutes(app: Express, dependencies: CollectionsDependencies): void {
  app.post('/partner/v1/collection/:referenceId/refund', async (req, res) => {
    const body: unknown = jsonBodyAsWritten(req, writtenNumber) ?? req.body;
    const partner = assertedPartnerOf(req.headers);
    const refund = await refundCollection(dependencies, partner.partnerId, req.params.referenceId, body, requestIdOf(res));
    dependencies.logger.info({ ...partnerChangeLogFields(partner), referenceId: refund.referenceId, collectionReferenceId: req.params.referenceId, status: refund.status }, 'collection refund requested');
    res.status(refund.status === 'processing' ? 202 : 200).json(successEnvelope(refundView(refund)));
  });

  app.get('/partner/v1/refunds', async (req, res) => {
    res.status(200).json(successEnvelope(await listRefunds(dependencies, assertedPartnerOf(req.headers).partnerId, req.query)));
  });

  app.get('/partner/v1/refund/:referenceId', async (req, res) => {
    const refund = await refundForPartner(dependencies, assertedPartnerOf(req.headers).partnerId, req.params.referenceId);
    res.status(200).json(successEnvelope(refundView(refund)));
  });
}
