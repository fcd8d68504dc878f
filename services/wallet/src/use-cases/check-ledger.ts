import type { Pool } from '@pwa/db';
import { invariantReport, type InvariantReport } from '../domain/ledger-invariants';
import { loadInvariantFacts } from '../store/invariant-store';
import { withReadOnlySnapshot } from '../store/transactions';

/** Checks the ledger's invariants on one consistent snapshot (GET /internal/ledger/invariants, check-ledger). */
export async function checkLedger(pool: Pool): Promise<InvariantReport> {
  return invariantReport(await withReadOnlySnapshot(pool, loadInvariantFacts));
}
