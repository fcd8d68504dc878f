import type { HostedService } from '@pwa/runtime';
import { readCollectionsConfig } from '../../src/config';
import { startCollectionsService } from '../../src/service';
import { collectionsMigrationDirectories, collectionsSchema } from '../../src/service-paths';
import type { StandInAnswer } from '../../../../test/support/json-stand-in';
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
