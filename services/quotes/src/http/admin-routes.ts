import type { Express } from 'express';
import type { z } from '@pwa/config';
import { quotesAdminPaths, quotesFeeScheduleRequestSchema, type adminChangeAnswerSchema } from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import { PkcError, echoInput } from '@pwa/errors';
import { executeAdminFeeSchedule } from '../use-cases/admin-fee-schedule';

/**
 * The quotes service's admin routes: fee schedule changes made by people on the back-office with
 * four eyes (decision 0069), on the internal network only (the gateway never routes here). The body
 * names the person who executes the change and the approval; without them it is 400 PKC_2008 and
 * nothing changes. Contract: libs/contracts internal/quotes-admin.
 */
export function mountAdminRoutes(app: Express, pool: Pool): void {
  app.post(quotesAdminPaths.feeSchedules, async (req, res) => {
    const parsed = quotesFeeScheduleRequestSchema.safeParse(req.body);
    if (!parsed.success) {
      const problems = parsed.error.issues.slice(0, 10).map((issue) => `${echoInput(issue.path.join('.') || 'body')}: ${echoInput(issue.message)}`);
      throw new PkcError('PKC_2008', `Malformed request: ${problems.join('; ')}`);
    }
    res.json((await executeAdminFeeSchedule(pool, parsed.data)) satisfies z.input<typeof adminChangeAnswerSchema>);
  });
}
