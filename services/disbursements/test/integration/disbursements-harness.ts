import { readDisbursementsConfig } from '../../src/config';
import { startDisbursementsService, type DisbursementsService } from '../../src/service';
import { disbursementsMigrationDirectories, disbursementsSchema } from '../../src/service-paths';
import type { StandInAnswer } from '../../../../test/support/json-stand-in';
import { startServiceUnderTest, type ServiceUnderTest } from '../../../../test/support/service-under-test';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';

export type { JsonAnswer } from '../../../../test/support/service-under-test';
export type { StandInRequest, StandInSend } from '../../../../test/support/json-stand-in';
export type { TestDatabase } from '../../../../test/support/test-database';

export type DisbursementsHarness = ServiceUnderTest<DisbursementsService>;

/**
 * Boots disbursements in-process on port 0 against its own database and exchange on the real
 * servers, with quotes and the wallet played by one stand-in answering as `upstreams` says.
 */
export function startDisbursementsHarness(upstreams: StandInAnswer, env: Record<string, string> = {}): Promise<DisbursementsHarness> {
  return startServiceUnderTest({ schema: disbursementsSchema, upstreams, env, start: (settings) => startDisbursementsService(readDisbursementsConfig(settings)) });
}

/** A database of its own for the store's tests, with the disbursements schema migrated unless the test migrates it itself. */
export function openDisbursementsDatabase(label: string, { migrated = true } = {}): Promise<TestDatabase> {
  return openTestDatabase({ label, schema: disbursementsSchema, migrationDirectories: migrated ? disbursementsMigrationDirectories : undefined });
}
