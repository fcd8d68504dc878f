import type { Pool } from '@pwa/db';
import type { Logger } from '@pwa/logging';
import type { QuoteConsumer } from '../upstream/quotes-client';
import type { Wallet } from '../upstream/wallet-client';
import type { FinalStatus } from './end-collections';

/** What the use cases and workers report for the service's metrics (src/http/collection-metrics.ts). */
export interface CollectionMetrics {
  /** A collection reached a final state; called once its change has committed. */
  collectionEnded(status: FinalStatus): void;
  /** The user approved, `latencySeconds` after the request. */
  collectionApproved(latencySeconds: number): void;
  /** The expiry sweeper finished a pass. */
  expirySweepFinished(): void;
  /** The posting recovery worker finished a pass. */
  postingRecoveryFinished(): void;
}

/** What the use cases need; built once in service.ts. */
export interface CollectionsDependencies {
  pool: Pool;
  logger: Logger;
  quotes: QuoteConsumer;
  wallet: Wallet;
  metrics: CollectionMetrics;
  settings: {
    approvalWindowSeconds: number;
    /** How long after an approval the recovery worker may re-drive a posting that has not settled. */
    recoveryDelayMs: number;
  };
}
