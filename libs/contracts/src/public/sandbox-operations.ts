import { collectionReferenceIdParamsSchema, collectionStatusExample, collectionStatusSchema, type PublicCollectionStatus } from './collections';
import { anyRoute, codes, example, operationFamily, permissionAdmission, simulation, type PublicOperation } from './operation-parts';

/** A collection that ended without moving money: no transactionId. */
function unresolvedCollection(status: 'declined' | 'expired'): PublicCollectionStatus {
  const example: PublicCollectionStatus = { ...collectionStatusExample, status };
  delete example.transactionId;
  return example;
}

const sandboxActionOperationIds = { approve: 'sandboxApproveCollection', decline: 'sandboxDeclineCollection', expire: 'sandboxExpireCollection' } as const;

type SandboxAction = keyof typeof sandboxActionOperationIds;

const sandboxAction = <Action extends SandboxAction>(action: Action, summary: string, description: string): PublicOperation<(typeof sandboxActionOperationIds)[Action]> => ({
  operationId: sandboxActionOperationIds[action],
  method: 'POST',
  pathTemplate: `/partner/v1/sandbox/collection/:referenceId/${action}`,
  tag: 'Sandbox',
  summary,
  description: `${description} Sandbox only: in production the path does not exist (404 PKC_6002, before the token is checked). No body is needed. Works on your own pending collections only; the events are the real ones.`,
  authentication: 'bearer',
  permission: 'collection',
  sandboxOnly: true,
  request: { params: collectionReferenceIdParamsSchema },
  success: {
    status: 200,
    description: 'The collection’s status view after the action.',
    schema: collectionStatusSchema,
    enveloped: true,
    examples: { [action]: example('The collection after the action', action === 'approve' ? collectionStatusExample : unresolvedCollection(action === 'decline' ? 'declined' : 'expired')) },
  },
  errorCodes: codes(anyRoute, permissionAdmission, simulation),
});

/** Sandbox only: the user's answer to one of the partner's pending collections, simulated (approve, decline, expire). */
export const sandboxOperations = operationFamily([
  sandboxAction('approve', 'Approve a collection as the user (sandbox)', 'Approves one of your pending collections as the user would: the money really moves in the sandbox ledger (or the collection fails if the user’s balance or limits no longer allow it).'),
  sandboxAction('decline', 'Decline a collection as the user (sandbox)', 'Declines one of your pending collections as the user would; no money moves.'),
  sandboxAction('expire', 'Expire a collection now (sandbox)', 'The approval window of one of your pending collections passes now; no money moves.'),
]);
