import type { Express } from 'express';
import { isUuid } from '@pwa/contracts';
import { z } from '@pwa/config';
import type { Pool } from '@pwa/db';
import { ConsoleError, PkcError } from '@pwa/errors';
import { requestIdOf } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import { originOf, parsedInput } from '@pwa/web-auth';
import { approvalStatuses, type DecisionRefusal } from '../domain/approval-rules';
import { mayPerform } from '../domain/operator-roles';
import { decodePageCursor, encodePageCursor } from '../domain/page-cursor';
import { listApprovalRequests, type ApprovalRequest } from '../store/approval-request-store';
import { findOperatorById, operatorNamesOf } from '../store/operator-store';
import { executeApprovedRequest, type ExecutionPorts } from '../use-cases/execute-approved-request';
import { decideFourEyesChange, requestFourEyesChange, type TargetDirectory } from '../use-cases/four-eyes-requests';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { requireSession, sessionOf } from './console-session';

export const approvalPaths = {
  requests: '/api/v1/approval-requests',
  approve: '/api/v1/approval-requests/:requestId/approve',
  reject: '/api/v1/approval-requests/:requestId/reject',
} as const;

const jsonValue: z.ZodType<unknown> = z.lazy(() => z.union([z.null(), z.boolean(), z.number(), z.string().max(1_000), z.array(jsonValue).max(50), z.record(z.string().max(100), jsonValue)]));
const newRequestBody = z
  .object({
    action: z.string().min(1).max(100),
    target: z.object({ kind: z.string().min(1).max(50), id: z.string().min(1).max(100) }).strict(),
    parameters: z.record(z.string().max(100), jsonValue),
    reason: z.string().max(500),
    lifetimeSeconds: z.number().int().optional(),
  })
  .strict();
const decisionBody = z.object({ note: z.string().max(500).optional() }).strict();
const listQuery = z.object({ status: z.enum(approvalStatuses).default('pending'), cursor: z.string().max(200).optional(), pageSize: z.coerce.number().int().min(1).max(100).default(25) }).strict();

const decisionRefusalCodes: Readonly<Record<DecisionRefusal, 'CON_3001' | 'CON_3002' | 'CON_4002' | 'CON_4003'>> = {
  'not-a-checker': 'CON_3001',
  'own-request': 'CON_3002',
  'already-decided': 'CON_4002',
  expired: 'CON_4003',
};

/** The four-eyes API: every signed-in role reads the queue; makers ask, checkers decide (roles read from the database each call). */
export interface ApprovalExecution {
  /** One executor per action, each through its owning service's admin route. */
  ports: ExecutionPorts;
  /** The owners' answers: a request naming a partner or a disbursement its owner does not know is refused. */
  targets: TargetDirectory;
  /** Asks the sweep to send approved requests now (after a failed first try). */
  wakeBacklog: () => void;
  logger: Logger;
}

export function mountApprovalRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string, execution: ApprovalExecution): void {
  const signedIn = requireSession(deps, 'signed_in', consoleOrigin);

  app.get(approvalPaths.requests, signedIn, async (req, res) => {
    const operator = await findOperatorById(deps.pool, sessionOf(res).session.subjectId);
    if (operator?.status !== 'active') throw new ConsoleError('CON_1004');
    if (!mayPerform(operator.roles, 'read')) throw new ConsoleError('CON_3001');
    const query = parsedInput(listQuery, req.query, 'query parameters');
    const after = query.cursor === undefined ? undefined : decodePageCursor(query.cursor);
    if (query.cursor !== undefined && after === undefined) throw new ConsoleError('CON_2001', 'cursor: not a cursor this list gave; start again without it');
    const page = await listApprovalRequests(deps.pool, { status: query.status, after, pageSize: query.pageSize });
    res.json({ success: true, data: { requests: await viewsOf(deps.pool, page.requests), nextCursor: page.next ? encodePageCursor(page.next) : null } });
  });

  app.post(approvalPaths.requests, signedIn, async (req, res) => {
    const body = parsedInput(newRequestBody, req.body);
    const outcome = await requestFourEyesChange(deps.pool, sessionOf(res).session.subjectId, body as Parameters<typeof requestFourEyesChange>[2], originOf(req, res), execution.targets);
    if (outcome.kind === 'requested') {
      res.status(201).json({ success: true, data: (await viewsOf(deps.pool, [outcome.request]))[0] });
      return;
    }
    switch (outcome.reason) {
      case 'not-an-active-operator':
        throw new ConsoleError('CON_1004');
      case 'not-a-maker':
        throw new ConsoleError('CON_3001', 'Only a maker can ask for this change');
      case 'unknown-action':
        throw new ConsoleError('CON_2001', 'action: not a four-eyes action');
      case 'not-executable-yet':
        throw new ConsoleError('CON_2001', `action: ${body.action} cannot be executed by the back-office yet; use the operator CLI for it`);
      case 'unknown-target':
        throw new ConsoleError('CON_4007', body.target.kind === 'disbursement' ? 'No completed disbursement has this referenceId: check it (PKD-…)' : undefined);
      case 'target-changed-already':
        throw new ConsoleError('CON_4009');
      case 'owner-unavailable':
        throw new PkcError('PKC_7003', 'The service that owns the target did not answer, so the target could not be checked; nothing was requested. Try again');
      case 'invalid-change':
        throw new ConsoleError('CON_2001', `Invalid change: ${outcome.problems.join('; ')}`);
      case 'reason-required':
        throw new ConsoleError('CON_2001', 'reason: say why, in 1 to 500 characters');
      case 'bad-lifetime':
        throw new ConsoleError('CON_2001', 'lifetimeSeconds: a whole number from 60 to 604800');
    }
  });

  for (const [path, outcome] of [
    [approvalPaths.approve, 'approved'],
    [approvalPaths.reject, 'rejected'],
  ] as const) {
    app.post(path, signedIn, async (req, res) => {
      const requestId = String(req.params.requestId);
      if (!isUuid(requestId)) throw new ConsoleError('CON_4001');
      const body = parsedInput(decisionBody, req.body ?? {});
      const decided = await decideFourEyesChange(deps.pool, sessionOf(res).session.subjectId, { requestId, outcome, ...(body.note === undefined ? {} : { note: body.note }) }, originOf(req, res));
      if (decided.kind === 'decided') {
        res.json({ success: true, data: (await viewsOf(deps.pool, [await executedIfApproved(deps.pool, decided.request, execution, requestIdOf(res))]))[0] });
        return;
      }
      if (decided.reason === 'not-an-active-operator') throw new ConsoleError('CON_1004');
      if (decided.reason === 'not-found') throw new ConsoleError('CON_4001');
      throw new ConsoleError(decisionRefusalCodes[decided.reason]);
    });
  }
}

/**
 * An approval executes at once, so the checker sees its outcome; if the owning service does not
 * answer, the request stays approved and the sweep sends it again (same request id: it applies once).
 */
async function executedIfApproved(pool: Pool, request: ApprovalRequest, execution: ApprovalExecution, httpRequestId: string): Promise<ApprovalRequest> {
  if (request.status !== 'approved') return request;
  try {
    const executed = await executeApprovedRequest(pool, execution.ports, request.requestId, httpRequestId);
    return executed.kind === 'not-approved' ? request : executed.request;
  } catch (error) {
    execution.logger.warn({ err: error, requestId: request.requestId }, 'approved request not executed yet; the sweep sends it again');
    execution.wakeBacklog();
    return request;
  }
}

/** The requests as the console shows them: with the maker's and checker's display names beside their ids. */
async function viewsOf(pool: Pool, requests: readonly ApprovalRequest[]): Promise<Record<string, unknown>[]> {
  const names = await operatorNamesOf(pool, requests.flatMap((request) => (request.checkerId === null ? [request.makerId] : [request.makerId, request.checkerId])));
  return requests.map((request) => ({
    ...viewOf(request),
    makerName: names.get(request.makerId) ?? null,
    checkerName: request.checkerId === null ? null : (names.get(request.checkerId) ?? null),
  }));
}

function viewOf(request: ApprovalRequest): Record<string, unknown> {
  return {
    requestId: request.requestId,
    action: request.action,
    target: request.target,
    parameters: request.parameters,
    reason: request.reason,
    makerId: request.makerId,
    status: request.status,
    requestedAt: request.requestedAt.toISOString(),
    expiresAt: request.expiresAt.toISOString(),
    checkerId: request.checkerId,
    decidedAt: request.decidedAt?.toISOString() ?? null,
    decisionNote: request.decisionNote,
    executedAt: request.executedAt?.toISOString() ?? null,
    executionResult: request.executionResult,
  };
}
