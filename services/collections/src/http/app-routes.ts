import type { Express, Request } from 'express';
import { PkcError, successEnvelope } from '@pwa/errors';
import { normaliseLiberianPhone } from '@pwa/phone';
import { appView } from '../domain/collection-views';
import { approveCollection, declineCollection, type Actor } from '../use-cases/act-on-collection';
import type { CollectionsDependencies } from '../use-cases/dependencies';
import { pendingCollectionsOfUser } from '../use-cases/read-collections';

/**
 * The user's side, standing in for the wallet app on the internal network (the gateway never
 * routes here). Approve and decline accept an optional JSON body {"phone"}: when given it must be
 * the collection's user (PKC_6005 otherwise), as the app's session would guarantee.
 * Approve answers 200 with the collection after the posting attempt (completed or failed), or 202
 * while it is still processing because the wallet could not be reached.
 */
export function mountAppRoutes(app: Express, dependencies: CollectionsDependencies): void {
  app.get('/internal/app/users/:phone/collections', async (req, res) => {
    const pending = await pendingCollectionsOfUser(dependencies, req.params.phone);
    res.status(200).json(successEnvelope({ collections: pending.map(appView) }));
  });

  app.post('/internal/app/collections/:referenceId/approve', async (req, res) => {
    const collection = await approveCollection(dependencies, req.params.referenceId, userOf(req));
    res.status(collection.status === 'processing' ? 202 : 200).json(successEnvelope(appView(collection)));
  });

  app.post('/internal/app/collections/:referenceId/decline', async (req, res) => {
    const collection = await declineCollection(dependencies, req.params.referenceId, userOf(req));
    res.status(200).json(successEnvelope(appView(collection)));
  });
}

function userOf(req: Request): Actor {
  const body: unknown = req.body;
  const phoneText = typeof body === 'object' && body !== null ? (body as { phone?: unknown }).phone : undefined;
  if (phoneText === undefined || phoneText === null) return { kind: 'user' };
  const phone = normaliseLiberianPhone(phoneText);
  if (phone === undefined) throw new PkcError('PKC_2001');
  return { kind: 'user', phone };
}
