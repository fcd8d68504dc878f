import type { HostedService } from '@pwa/runtime';
import { readCollectionsConfig } from '../../src/config';
import { startCollectionsService } from '../../src/service';
import type { StandInAnswer } from '../../../../test/support/json-stand-in';
import { startServiceUnderTest, type ServiceUnderTest } from '../../../../test/support/service-under-test';

export type { JsonAnswer } from '../../../../test/support/service-under-test';
export type { StandInRequest, StandInSend } from '../../../../test/support/json-stand-in';

export type CollectionsHarness = ServiceUnderTest<HostedService>;

/**
 * Boots collections in-process on port 0 against its own database and exchange on the real
 * servers, with quotes and the wallet played by one stand-in answering as `upstreams` says.
 */
export function startCollectionsHarness(upstreams: StandInAnswer, env: Record<string, string> = {}): Promise<CollectionsHarness> {
  return startServiceUnderTest({ schema: 'collections', upstreams, env, start: (settings) => startCollectionsService(readCollectionsConfig(settings)) });
}
