import type { z } from '@pwa/config';
import type { consumedQuoteAnswerSchema, walletCheckAnswerSchema } from '@pwa/contracts';
import type { HostedService } from '@pwa/runtime';
import { readCollectionsConfig } from '../../src/config';
import { startCollectionsService } from '../../src/service';
import { collectionsMigrationDirectories, collectionsSchema } from '../../src/service-paths';
import type { StandInAnswer, StandInSend } from '../../../../test/support/json-stand-in';
import { startServiceUnderTest, type ServiceUnderTest } from '../../../../test/support/service-under-test';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';

export type { JsonAnswer } from '../../../../test/support/service-under-test';
export type { StandInRequest, StandInSend } from '../../../../test/support/json-stand-in';
export type { TestDatabase } from '../../../../test/support/test-database';

export type CollectionsHarness = ServiceUnderTest<HostedService>;

/**
 * Boots collections in-process on port 0 against its own database and exchange on the real
 * servers, with quotes and the wallet played by one stand-in answering as `upstreams` says.
 */
export function startCollectionsHarness(upstreams: StandInAnswer, env: Record<string, string> = {}): Promise<CollectionsHarness> {
  return startServiceUnderTest({ schema: collectionsSchema, upstreams, env, start: (settings) => startCollectionsService(readCollectionsConfig(settings)) });
}

/** A database of its own for the store's tests, with the collections schema migrated unless the test migrates it itself. */
export function openCollectionsDatabase(label: string, { migrated = true } = {}): Promise<TestDatabase> {
  return openTestDatabase({ label, schema: collectionsSchema, migrationDirectories: migrated ? collectionsMigrationDirectories : undefined });
}

/** The user every stand-in check finds, and the phone a quote is for unless the test says otherwise. */
export const standInUserPhone = '+231880000001';

/**
 * Quotes and the wallet as the collections tests play them, by their contracts (libs/contracts
 * internal): a quote is consumed once (again: 400 PKC_5002), as a collection of 10.00 USD with a
 * fee of 0.20 for the phone `phoneOfQuote` names; every check finds an active, approved user
 * holding 1,000.00; a posting is answered by `postTransfer`; any other path is 404.
 */
export function quotesAndWalletStandIn(
  postTransfer: (body: Record<string, string>, send: StandInSend) => void,
  phoneOfQuote: (quoteId: string) => string = () => standInUserPhone,
): StandInAnswer {
  const consumedQuotes = new Set<string>();
  return ({ url, body }, send) => {
    const consume = /^\/internal\/quotes\/([^/]+)\/consume$/.exec(url);
    if (consume) {
      const quoteId = consume[1] ?? '';
      if (consumedQuotes.has(quoteId)) return send(400, { success: false, code: 'PKC_5002', message: 'Quote already used' });
      consumedQuotes.add(quoteId);
      return send(200, {
        quoteId, type: 'collection', partnerId: body.partnerId ?? '', phone: phoneOfQuote(quoteId), currency: 'USD',
        amountMinor: '1000', feeMinor: '20', totalDebitMinor: '1020', recipientName: 'Comfort Doe', expiresAt: new Date(Date.now() + 60_000).toISOString(), usedAt: new Date().toISOString(),
      } satisfies z.input<typeof consumedQuoteAnswerSchema>);
    }
    if (url === '/internal/checks') {
      return send(200, {
        recipient: { name: 'Comfort Doe', phone: body.phone ?? standInUserPhone, accountStatus: 'active', kycStatus: 'approved', hasWallet: true },
        userBalanceMinor: '100000',
        partnerBalanceMinor: '0',
      } satisfies z.input<typeof walletCheckAnswerSchema>);
    }
    if (url === '/internal/transfers') return postTransfer(body, send);
    return send(404, { success: false, code: 'PKC_6002', message: 'No such endpoint' });
  };
}
