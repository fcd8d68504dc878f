import type { Pool } from '@pwa/db';
import type { Logger } from '@pwa/logging';
import type { QuoteConsumer } from '../upstream/quotes-client';
import type { Wallet } from '../upstream/wallet-client';

/** What the use cases need; built once in service.ts. */
export interface CollectionsDependencies {
  pool: Pool;
  logger: Logger;
  quotes: QuoteConsumer;
  wallet: Wallet;
  settings: {
    approvalWindowSeconds: number;
    /** How long after an approval the recovery worker may re-drive a posting that has not settled. */
    recoveryDelayMs: number;
  };
}
