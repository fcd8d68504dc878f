import type { Express } from 'express';
import type { Pool } from '@pwa/db';
import { assertedPartnerOf, partnerChangeLogFields } from '@pwa/contracts';
import { successEnvelope } from '@pwa/errors';
import { requestIdOf } from '@pwa/http';
import { deadlineAfter } from '../domain/deadline';
import { statusView, transferView } from '../domain/disbursement';
import { getDisbursement } from '../use-cases/get-disbursement';
import { listDisbursements } from '../use-cases/list-disbursements';
import { transferDisbursement, type TransferDependencies } from '../use-cases/transfer-disbursement';
import type { Disbursement } from '../domain/disbursement';
import type { DisbursementMetrics } from './disbursement-metrics';

export interface DisbursementRouteDependencies extends TransferDependencies {
  pool: Pool;
  budgetMs: number;
  metrics: DisbursementMetrics;
}

/**
 * The partner's disbursement endpoints, reached only through the gateway, which has checked the
 * token, the partner's status and the disbursement permission, and names the partner in x-partner-id.
 */
export function mountDisbursementRoutes(app: Express, dependencies: DisbursementRouteDependencies): void {
  app.post('/partner/v1/disbursement/transfer', async (req, res) => {
    // The budget counts from the request's arrival (its body is parsed by now, which takes microseconds).
    const deadline = deadlineAfter(dependencies.budgetMs);
    const startedAt = process.hrtime.bigint();
    const secondsSinceArrival = (): number => Number(process.hrtime.bigint() - startedAt) / 1e9;
    const partner = assertedPartnerOf(req.headers);
    let disbursement: Disbursement;
    try {
      disbursement = await transferDisbursement(dependencies, {
        partnerId: partner.partnerId,
        body: req.body,
        deadline,
        requestId: requestIdOf(res),
      });
    } catch (error) {
      dependencies.metrics.transferRefused(error, secondsSinceArrival());
      throw error;
    }
    dependencies.metrics.transferCompleted(secondsSinceArrival());
    dependencies.logger.info({ ...partnerChangeLogFields(partner), referenceId: disbursement.referenceId }, 'disbursement transfer completed');
    res.status(200).json(successEnvelope(transferView(disbursement)));
  });

  app.get('/partner/v1/disbursements', async (req, res) => {
    res.status(200).json(successEnvelope(await listDisbursements(dependencies.pool, assertedPartnerOf(req.headers).partnerId, req.query)));
  });

  app.get('/partner/v1/disbursement/:referenceId', async (req, res) => {
    const disbursement = await getDisbursement(dependencies.pool, assertedPartnerOf(req.headers).partnerId, req.params.referenceId);
    res.status(200).json(successEnvelope(statusView(disbursement)));
  });
}
