import type { Express } from 'express';
import type { z } from '@pwa/config';
import {
  authAdminActionPaths,
  authAdminPartnerListQuerySchema,
  authPartnerOnboardingRequestSchema,
  authPartnerSecretRotationRequestSchema,
  authPartnerWebhookUrlRequestSchema,
  authAdminPaths,
  clientSecretChangeRequestSchema,
  type clientSecretChangeAnswerSchema,
  type clientSecretSlotsSchema,
  authPartnerChangeRequestSchema,
  isUuid,
  type adminChangeAnswerSchema,
  type authAdminPartnerDetailSchema,
  type authAdminPartnerPageSchema,
  type authPartnerOnboardingAnswerSchema,
  type authPartnerSecretRotationAnswerSchema,
} from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import { PkcError, echoInput } from '@pwa/errors';
import { partnerOperatorActions } from '../store/operator-action-store';
import { findAdminPartner, partnerChanges, searchPartners } from '../store/partner-admin-reads';
import { executeAdminOnboarding, executeAdminSecretRotation, executeAdminWebhookUrl, type AuthActionSettings } from '../use-cases/admin-partner-actions';
import { executeAdminPartnerChange } from '../use-cases/admin-partner-change';
import { changeClientSecrets, clientSecretSlots } from '../use-cases/client-secret-slots';

/** The most approved changes a partner's detail lists. */
const partnerChangesShownMax = 50;

/**
 * Auth's admin routes: a partner's status, permissions or rate limit changed by people on the
 * back-office with four eyes (decision 0069), on the internal network only (the gateway never
 * routes here). The body names the person who executes the change and the approval; without them
 * it is 400 PKC_2008 and nothing changes. Contract: libs/contracts internal/auth-admin.
 */
export function mountAdminRoutes(app: Express, pool: Pool, settings: AuthActionSettings): void {
  app.post(authAdminPaths.partnerChanges, async (req, res) => {
    res.json((await executeAdminPartnerChange(pool, parsedBody(authPartnerChangeRequestSchema, req.body))) satisfies z.input<typeof adminChangeAnswerSchema>);
  });

  // One person's changes (issue 27): the body names the person (400 PKC_2008 without); no approval.
  // The onboarding's answer carries the secrets once; nothing here logs a body.
  app.post(authAdminActionPaths.partnerOnboardings, async (req, res) => {
    res.json((await executeAdminOnboarding(pool, settings, parsedBody(authPartnerOnboardingRequestSchema, req.body))) satisfies z.input<typeof authPartnerOnboardingAnswerSchema>);
  });

  app.post(authAdminActionPaths.partnerWebhookUrls, async (req, res) => {
    res.json((await executeAdminWebhookUrl(pool, settings.environment, parsedBody(authPartnerWebhookUrlRequestSchema, req.body))) satisfies z.input<typeof adminChangeAnswerSchema>);
  });

  // The new secret is in the answer once; nothing here logs a body.
  app.post(authAdminActionPaths.partnerSecretRotations, async (req, res) => {
    res.json((await executeAdminSecretRotation(pool, settings, parsedBody(authPartnerSecretRotationRequestSchema, req.body))) satisfies z.input<typeof authPartnerSecretRotationAnswerSchema>);
  });

  // The two-secret rotation (issue 28), by an operator or the partner's own member; the new secret is in the answer once.
  app.post(authAdminActionPaths.partnerClientSecretChanges, async (req, res) => {
    res.json((await changeClientSecrets(pool, settings.environment, parsedBody(clientSecretChangeRequestSchema, req.body))) satisfies z.input<typeof clientSecretChangeAnswerSchema>);
  });

  app.get('/internal/admin/partners/:partnerId/client-secrets', async (req, res) => {
    const partnerId = req.params.partnerId;
    const slots = typeof partnerId === 'string' && isUuid(partnerId) ? await clientSecretSlots(pool, partnerId.toLowerCase()) : undefined;
    if (!slots) throw new PkcError('PKC_6002', 'No partner has this id');
    res.json(slots satisfies z.input<typeof clientSecretSlotsSchema>);
  });

  // Reads for the back-office console (search, detail): settings and the approved changes, never a secret.
  app.get('/internal/admin/partners', async (req, res) => {
    const parsed = authAdminPartnerListQuerySchema.safeParse(req.query);
    if (!parsed.success) throw new PkcError('PKC_2008', `Invalid query parameters: ${[...new Set(parsed.error.issues.map((issue) => echoInput(issue.path.join('.'))))].join(', ')}`);
    const { q, status, afterCreatedAt, afterId, pageSize } = parsed.data;
    if ((afterCreatedAt === undefined) !== (afterId === undefined)) throw new PkcError('PKC_2008', 'afterCreatedAt and afterId are given together or not at all');
    const after = afterCreatedAt !== undefined && afterId !== undefined ? { createdAt: afterCreatedAt, id: afterId } : undefined;
    res.json((await searchPartners(pool, { q, status, after, pageSize })) satisfies z.input<typeof authAdminPartnerPageSchema>);
  });

  app.get('/internal/admin/partners/:partnerId', async (req, res) => {
    const partnerId = req.params.partnerId;
    const partner = isUuid(partnerId) ? await findAdminPartner(pool, partnerId.toLowerCase()) : undefined;
    if (!partner) throw new PkcError('PKC_6002', 'No partner has this id');
    res.json({
      ...partner,
      changes: await partnerChanges(pool, partner.partnerId, partnerChangesShownMax),
      operatorActions: await partnerOperatorActions(pool, partner.partnerId, partnerChangesShownMax),
    } satisfies z.input<typeof authAdminPartnerDetailSchema>);
  });
}

/** The body under its admin schema, or 400 PKC_2008 naming the fields and what is wrong (never their values). */
function parsedBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 10).map((issue) => `${echoInput(issue.path.join('.') || 'body')}: ${echoInput(issue.message)}`);
  throw new PkcError('PKC_2008', `Malformed request: ${problems.join('; ')}`);
}
