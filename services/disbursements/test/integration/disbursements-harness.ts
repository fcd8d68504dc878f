import { readDisbursementsConfig } from '../../src/config';
import { startDisbursementsService, type DisbursementsService } from '../../src/service';
import type { StandInAnswer } from '../../../../test/support/json-stand-in';
import { startServiceUnderTest, type ServiceUnderTest } from '../../../../test/support/service-under-test';

export type { JsonAnswer } from '../../../../test/support/service-under-test';
export type { StandInRequest, StandInSend } from '../../../../test/support/json-stand-in';

export type DisbursementsHarness = ServiceUnderTest<DisbursementsService>;

/**
 * Boots disbursements in-process on port 0 against its own database and exchange on the real
 * servers, with quotes and the wallet played by one stand-in answering as `upstreams` says.
 */
export function startDisbursementsHarness(upstreams: StandInAnswer, env: Record<string, string> = {}): Promise<DisbursementsHarness> {
  return startServiceUnderTest({ schema: 'disbursements', upstreams, env, start: (settings) => startDisbursementsService(readDisbursementsConfig(settings)) });
}
