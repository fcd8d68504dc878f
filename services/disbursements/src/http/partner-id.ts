import type { Request } from 'express';
import { PkcError } from '@pwa/errors';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Without the gateway's word on who is calling there is no partner to act for. */
export function partnerIdOf(req: Request): string {
  const partnerId = req.header('x-partner-id');
  if (partnerId === undefined || !uuidPattern.test(partnerId)) throw new PkcError('PKC_6005', 'Requests must come through the gateway');
  return partnerId.toLowerCase();
}
