import { randomUUID } from 'node:crypto';
import {
  admitTokenRequestForClient,
  admitTokenRequestFromSource,
  recordTokenOutcome,
  tokenEndpointChallenge,
  type TokenEndpointPorts,
} from '../../src/domain/guard-token-endpoint';
import type { ClientLockoutState } from '../../src/domain/credential-stuffing';

function portsWith(overrides: { sourceAllowed?: boolean; lockout?: Partial<ClientLockoutState> } = {}) {
  const recordCredentialFailure = jest.fn((_clientId: string) => Promise.resolve());
  const recordCredentialSuccess = jest.fn((_clientId: string, _source: string) => Promise.resolve());
  const ports: TokenEndpointPorts = {
    countSourceRequest: () => Promise.resolve({ allowed: overrides.sourceAllowed ?? true, limit: 30, used: 30, resetAfterMs: 20_000 }),
    readClientLockout: () => Promise.resolve({ failureCount: 0, windowRemainingMs: 0, sourceIsTrusted: false, ...overrides.lockout }),
    recordCredentialFailure,
    recordCredentialSuccess,
  };
  return { ports, recordCredentialFailure, recordCredentialSuccess };
}

describe('token endpoint guard', () => {
  test('when a source spends its per-minute budget, then 429 PKC_7001 carries Retry-After and the RFC 6749 error temporarily_unavailable', async () => {
    const { ports } = portsWith({ sourceAllowed: false });

    await expect(admitTokenRequestFromSource('203.0.113.7', ports)).rejects.toMatchObject({
      code: 'PKC_7001',
      httpStatus: 429,
      headers: expect.objectContaining({ 'Retry-After': '20' }),
      fields: { error: 'temporarily_unavailable' },
    });
  });

  test('when a client id is locked out, then 429 PKC_7001 carries Retry-After and the RFC 6749 error temporarily_unavailable', async () => {
    const { ports } = portsWith({ lockout: { failureCount: 10, windowRemainingMs: 120_000 } });

    await expect(admitTokenRequestForClient(randomUUID(), '203.0.113.7', 10, ports)).rejects.toMatchObject({
      code: 'PKC_7001',
      headers: { 'Retry-After': '120' },
      fields: { error: 'temporarily_unavailable' },
    });
  });

  test('when auth answers PKC_1002 with the RFC 6749 error invalid_client, then the failure counts against the client id', async () => {
    const { ports, recordCredentialFailure } = portsWith();
    const clientId = randomUUID();

    await recordTokenOutcome(clientId, '203.0.113.7', { status: 401, body: { success: false, code: 'PKC_1002', message: 'x', error: 'invalid_client' } }, ports);

    expect(recordCredentialFailure).toHaveBeenCalledWith(clientId);
  });

  test('when auth answers PKC_1001 invalid_request (conflicting Basic and body, say), then nothing is counted', async () => {
    const { ports, recordCredentialFailure, recordCredentialSuccess } = portsWith();

    await recordTokenOutcome(randomUUID(), '203.0.113.7', { status: 401, body: { success: false, code: 'PKC_1001', message: 'x', error: 'invalid_request' } }, ports);

    expect(recordCredentialFailure).not.toHaveBeenCalled();
    expect(recordCredentialSuccess).not.toHaveBeenCalled();
  });

  test('when the challenge of the token endpoint is read, then it is Basic in the API realm', () => {
    expect(tokenEndpointChallenge).toBe('Basic realm="partner-wallet-api"');
  });
});
