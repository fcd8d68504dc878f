import type { Express } from 'express';
import { assertedPartnerOf, partnerChangeLogFields } from '@pwa/contracts';
import { successEnvelope } from '@pwa/errors';
import { statusView } from '../domain/collection-views';
import { approveCollection, declineCollection, expireCollectionNow } from '../use-cases/act-on-collection';
import type { CollectionsDependencies } from '../use-cases/dependencies';

/**
 * Sandbox simulation for partners: act as the user on one of the partner's own pending
 * collections. Mounted only when ENVIRONMENT=sandbox (in production these paths are the generic
 * 404 PKC_6002, and the gateway does not route them either). Answers the partner's status view.
 */
export function mountSandboxRoutes(app: Express, dependencies: CollectionsDependencies): void {
  app.post('/partner/v1/sandbox/collection/:referenceId/approve', async (req, res) => {
    const partner = assertedPartnerOf(req.headers);
    const collection = await approveCollection(dependencies, req.params.referenceId, { kind: 'partner', partnerId: partner.partnerId });
    dependencies.logger.info({ ...partnerChangeLogFields(partner), referenceId: collection.referenceId }, 'sandbox collection approved by the partner');
    res.status(200).json(successEnvelope(statusView(collection)));
  });

  app.post('/partner/v1/sandbox/collection/:referenceId/decline', async (req, res) => {
    const partner = assertedPartnerOf(req.headers);
    const collection = await declineCollection(dependencies, req.params.referenceId, { kind: 'partner', partnerId: partner.partnerId });
    dependencies.logger.info({ ...partnerChangeLogFields(partner), referenceId: collection.referenceId }, 'sandbox collection declined by the partner');
    res.status(200).json(successEnvelope(statusView(collection)));
  });

  app.post('/partner/v1/sandbox/collection/:referenceId/expire', async (req, res) => {
    const partner = assertedPartnerOf(req.headers);
    const collection = await expireCollectionNow(dependencies, req.params.referenceId, { kind: 'partner', partnerId: partner.partnerId });
    dependencies.logger.info({ ...partnerChangeLogFields(partner), referenceId: collection.referenceId }, 'sandbox collection expired by the partner');
    res.status(200).json(successEnvelope(statusView(collection)));
  });
}
