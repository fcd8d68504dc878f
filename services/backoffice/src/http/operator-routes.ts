import type { Express } from 'express';
import { isUuid } from '@pwa/contracts';
import { z } from '@pwa/config';
import { ConsoleError, type ConsoleCode } from '@pwa/errors';
import { originOf, parsedInput } from '@pwa/web-auth';
import { mayPerform, operatorRoles } from '../domain/operator-roles';
import { findOperatorById, listOperators, type Operator } from '../store/operator-store';
import { changeOperatorRoles, disableOperatorAccount, inviteOperator, resetOperatorFactors, type ManageRefusal } from '../use-cases/manage-operators';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { requireSession, sessionOf } from './console-session';

export const operatorPaths = {
  operators: '/api/v1/operators',
  roles: '/api/v1/operators/:operatorId/roles',
  disable: '/api/v1/operators/:operatorId/disable',
  factorResets: '/api/v1/operators/:operatorId/factor-resets',
} as const;

const roleList = z.array(z.enum(operatorRoles)).min(1).max(operatorRoles.length).refine((roles) => new Set(roles).size === roles.length, 'each role once');
const invitationBody = z.object({ email: z.string().max(254), displayName: z.string().trim().min(1).max(100), roles: roleList }).strict();
const rolesBody = z.object({ roles: roleList }).strict();
const factorResetBody = z.object({ reason: z.string().trim().min(1).max(500) }).strict();

const refusalCodes: Readonly<Record<ManageRefusal, ConsoleCode>> = {
  'not-an-admin': 'CON_3001',
  'not-an-email': 'CON_2001',
  'email-taken': 'CON_4004',
  'unknown-operator': 'CON_4005',
  'last-admin': 'CON_4006',
  'not-yourself': 'CON_3003',
  disabled: 'CON_4013',
};

/** Admins manage the back-office's people; the set-up link of an invitation is shown once, in the answer to the admin who invited. */
export function mountOperatorRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string): void {
  const signedIn = requireSession(deps, 'signed_in', consoleOrigin);

  app.get(operatorPaths.operators, signedIn, async (_req, res) => {
    const reader = await findOperatorById(deps.pool, sessionOf(res).session.subjectId);
    if (reader?.status !== 'active') throw new ConsoleError('CON_1004');
    if (!mayPerform(reader.roles, 'manage-operators')) throw new ConsoleError('CON_3001', 'Only admins manage operators');
    res.json({ success: true, data: { operators: (await listOperators(deps.pool, 1_000)).map(viewOf) } });
  });

  app.post(operatorPaths.operators, signedIn, async (req, res) => {
    const body = parsedInput(invitationBody, req.body);
    const outcome = await inviteOperator(deps, sessionOf(res).session.subjectId, { ...body, consoleBaseUrl: consoleOrigin }, originOf(req, res));
    if (outcome.kind === 'refused') throw refusalOf(outcome.reason);
    res.status(201).json({ success: true, data: { operator: viewOf(outcome.operator), setupLink: outcome.setupLink, setupLinkExpiresAt: outcome.expiresAt.toISOString() } });
  });

  app.put(operatorPaths.roles, signedIn, async (req, res) => {
    const operatorId = operatorIdOf(req.params.operatorId);
    const body = parsedInput(rolesBody, req.body);
    const outcome = await changeOperatorRoles(deps, sessionOf(res).session.subjectId, { operatorId, roles: body.roles }, originOf(req, res));
    if (outcome.kind === 'refused') throw refusalOf(outcome.reason);
    res.json({ success: true, data: { operator: viewOf(outcome.operator), sessionsRevoked: outcome.sessionsRevoked } });
  });

  app.post(operatorPaths.disable, signedIn, async (req, res) => {
    const operatorId = operatorIdOf(req.params.operatorId);
    const outcome = await disableOperatorAccount(deps, sessionOf(res).session.subjectId, operatorId, originOf(req, res));
    if (outcome.kind === 'refused') throw refusalOf(outcome.reason);
    res.json({ success: true, data: { operator: viewOf(outcome.operator), sessionsRevoked: outcome.sessionsRevoked } });
  });

  mountFactorResets(app, deps, consoleOrigin, signedIn);
}

/** An admin resets another person's sign-in factors (a lost phone): the new set-up link is in this answer once. */
function mountFactorResets(app: Express, deps: PeopleDependencies, consoleOrigin: string, signedIn: ReturnType<typeof requireSession>): void {
  app.post(operatorPaths.factorResets, signedIn, async (req, res) => {
    const operatorId = operatorIdOf(req.params.operatorId);
    const body = parsedInput(factorResetBody, req.body);
    const outcome = await resetOperatorFactors(deps, sessionOf(res).session.subjectId, { operatorId, reason: body.reason, consoleBaseUrl: consoleOrigin }, originOf(req, res));
    if (outcome.kind === 'refused') throw outcome.reason === 'not-yourself' ? new ConsoleError('CON_3003', 'You cannot reset your own sign-in factors: another admin must') : refusalOf(outcome.reason);
    res.json({ success: true, data: { operator: viewOf(outcome.operator), setupLink: outcome.setupLink, setupLinkExpiresAt: outcome.expiresAt.toISOString(), sessionsRevoked: outcome.sessionsRevoked } });
  });
}

function operatorIdOf(value: unknown): string {
  if (!isUuid(value)) throw new ConsoleError('CON_4005');
  return value;
}

function refusalOf(reason: ManageRefusal): ConsoleError {
  return reason === 'not-an-admin' ? new ConsoleError('CON_3001', 'Only admins manage operators') : reason === 'not-an-email' ? new ConsoleError('CON_2001', 'email: not an e-mail address') : new ConsoleError(refusalCodes[reason]);
}

function viewOf(operator: Operator): Record<string, unknown> {
  return { operatorId: operator.operatorId, email: operator.email, displayName: operator.displayName, roles: operator.roles, status: operator.status, createdAt: operator.createdAt.toISOString(), createdBy: operator.createdBy };
}
