import type { Express, Response } from 'express';
import { appendAuditEntry, AuditError, exportAuditEntries, searchAuditEntries, verifyAuditChain, type AuditSearchFilters } from '@pwa/audit';
import { z } from '@pwa/config';
import { ConsoleError } from '@pwa/errors';
import { originOf, parsedInput } from '@pwa/web-auth';
import { mayPerform } from '../domain/operator-roles';
import { findOperatorById, type Operator } from '../store/operator-store';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { requireSession, sessionOf } from './console-session';

export const auditLogPaths = {
  entries: '/api/v1/audit-log',
  export: '/api/v1/audit-log/export',
  verification: '/api/v1/audit-log/verification',
} as const;

const isoInstant = z.iso.datetime({ offset: true });
const filterQuery = z
  .object({
    actorId: z.string().uuid().optional(),
    action: z.string().regex(/^[a-z][a-z0-9_.]{0,99}$/, 'dotted lower-case words').optional(),
    targetKind: z.string().regex(/^[a-z][a-z0-9_]{0,49}$/).optional(),
    targetId: z.string().min(1).max(100).optional(),
    outcome: z.enum(['done', 'refused']).optional(),
    from: isoInstant.optional(),
    before: isoInstant.optional(),
  })
  .strict();
const searchQuery = filterQuery.extend({ cursor: z.string().regex(/^\d{1,18}$/).optional(), pageSize: z.coerce.number().int().min(1).max(200).default(50) }).strict();
const exportQuery = filterQuery.extend({ format: z.enum(['csv', 'ndjson']).default('csv') }).strict();

/**
 * The audit log in the console: search (newest first, pages by sequence), export (CSV or NDJSON,
 * bounded; the export itself is audited, since it reveals entries), and the chain's verification.
 * Checkers and admins only (oversight); every call reads the person's roles from the database.
 */
export function mountAuditLogRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string): void {
  const signedIn = requireSession(deps, 'signed_in', consoleOrigin);

  const auditReader = async (res: Response): Promise<Operator> => {
    const operator = await findOperatorById(deps.pool, sessionOf(res).session.subjectId);
    if (operator?.status !== 'active') throw new ConsoleError('CON_1004');
    if (!mayPerform(operator.roles, 'read-audit')) throw new ConsoleError('CON_3001', 'Only checkers and admins read the audit log');
    return operator;
  };

  app.get(auditLogPaths.entries, signedIn, async (req, res) => {
    await auditReader(res);
    const query = parsedInput(searchQuery, req.query, 'query parameters');
    const page = await searchAuditEntries(deps.pool, filtersOf(query), { size: query.pageSize, ...(query.cursor === undefined ? {} : { cursor: query.cursor }) });
    res.json({ success: true, data: page });
  });

  app.get(auditLogPaths.export, signedIn, async (req, res) => {
    const operator = await auditReader(res);
    const query = parsedInput(exportQuery, req.query, 'query parameters');
    const filters = filtersOf(query);
    let file;
    try {
      file = await exportAuditEntries(deps.pool, filters, { format: query.format });
    } catch (error) {
      if (error instanceof AuditError) throw new ConsoleError('CON_2001', error.message);
      throw error;
    }
    await appendAuditEntry(deps.pool, {
      actor: { kind: 'person', id: operator.operatorId, displayName: operator.displayName },
      action: 'audit_log.export',
      target: { kind: 'audit_log', id: 'backoffice' },
      after: { format: query.format, entryCount: file.entryCount, filters: { ...query } },
      outcome: 'done',
      ...originOf(req, res),
    });
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('Content-Disposition', `attachment; filename="backoffice-audit-log.${file.fileExtension}"`);
    for await (const chunk of file.chunks) res.write(chunk);
    res.end();
  });

  app.get(auditLogPaths.verification, signedIn, async (_req, res) => {
    await auditReader(res);
    res.json({ success: true, data: await verifyAuditChain(deps.pool) });
  });
}

function filtersOf(query: z.infer<typeof filterQuery>): AuditSearchFilters {
  return {
    ...(query.actorId === undefined ? {} : { actorId: query.actorId }),
    ...(query.action === undefined ? {} : { actionPrefix: query.action }),
    ...(query.targetKind === undefined ? {} : { targetKind: query.targetKind }),
    ...(query.targetId === undefined ? {} : { targetId: query.targetId }),
    ...(query.outcome === undefined ? {} : { outcome: query.outcome }),
    ...(query.from === undefined ? {} : { occurredFrom: new Date(query.from) }),
    ...(query.before === undefined ? {} : { occurredBefore: new Date(query.before) }),
  };
}
