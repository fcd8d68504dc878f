import type { Express } from 'express';
import { successEnvelope } from '@pwa/errors';
import { requestIdOf } from '@pwa/http';
import { assertedPartnerOf, partnerChangeLogFields } from '@pwa/contracts';
import { confirmView, statusView } from '../domain/collection-views';
import type { CollectionsDependencies } from '../use-cases/dependencies';
import { requestCollection } from '../use-cases/request-collection';
import { collectionForPartner } from '../use-cases/read-collections';
import { listCollections } from '../use-cases/list-collections';
import { cancelCollection } from '../use-cases/act-on-collection';
import type { Collection } from '../domain/collection';
import type { CollectionServiceMetrics } from './collection-metrics';

/**
 * The partner's collection endpoints, reached only through the gateway, which has checked the
 * token, the partner's status and its collection permission, and names the partner in x-partner-id.
 */
export function mountPartnerRoutes(app: Express, dependencies: CollectionsDependencies, metrics: CollectionServiceMetrics): void {
  app.post('/partner/v1/collection/request', async (req, res) => {
    const partner = assertedPartnerOf(req.headers);
    let collection: Collection;
    try {
      collection = await requestCollection(dependencies, partner.partnerId, req.body, requestIdOf(res));
    } catch (error) {
      metrics.confirmRejected(error);
      throw error;
    }
    metrics.confirmAccepted();
    dependencies.logger.info({ ...partnerChangeLogFields(partner), referenceId: collection.referenceId }, 'collection requested');
    res.status(202).json(successEnvelope(confirmView(collection)));
  });

  app.get('/partner/v1/collections', async (req, res) => {
    res.status(200).json(successEnvelope(await listCollections(dependencies, assertedPartnerOf(req.headers).partnerId, req.query)));
  });

  // Issue 19: the partner withdraws one of its pending collections; no body is needed.
  app.post('/partner/v1/collection/:referenceId/cancel', async (req, res) => {
    const partner = assertedPartnerOf(req.headers);
    const collection = await cancelCollection(dependencies, req.params.referenceId, partner.partnerId);
    dependencies.logger.info({ ...partnerChangeLogFields(partner), referenceId: collection.referenceId }, 'collection cancelled');
    res.status(200).json(successEnvelope(statusView(collection)));
  });

  app.get('/partner/v1/collection/:referenceId', async (req, res) => {
    const collection = await collectionForPartner(dependencies, assertedPartnerOf(req.headers).partnerId, req.params.referenceId);
    res.status(200).json(successEnvelope(statusView(collection)));
  });
}
