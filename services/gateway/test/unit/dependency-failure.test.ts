import { PkcError, errorCatalogue } from '@pwa/errors';
import { UpstreamFailure, type UpstreamFailureReason } from '@pwa/http';
import { unlessUnavailable, unlessUpstreamFailed } from '../../src/domain/dependency-failure';
import { tokenRequestNotNow } from '../../src/domain/guard-token-endpoint';

const reasons: UpstreamFailureReason[] = ['not_delivered', 'deadline_exceeded', 'unavailable', 'circuit_open'];

describe('unlessUpstreamFailed', () => {
  test.each(reasons)('when the upstream gave no answer (%s), then it is 503 PKC_7003 with the catalogue message, no extra field, and the failure as its cause', async (reason) => {
    const failure = new UpstreamFailure('wallet', reason, 'wallet: no answer');

    const error = await unlessUpstreamFailed(Promise.reject(failure)).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(PkcError);
    expect(error).toMatchObject({ code: 'PKC_7003', httpStatus: 503, message: errorCatalogue.PKC_7003.message, fields: {}, headers: {}, cause: failure });
  });

  test('when the token endpoint passes its RFC 6749 error, then the 503 carries it', async () => {
    const error = await unlessUpstreamFailed(Promise.reject(new UpstreamFailure('auth', 'circuit_open', 'auth circuit is open')), tokenRequestNotNow).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: 'PKC_7003', httpStatus: 503, fields: { error: 'temporarily_unavailable' } });
  });

  test('when the upstream answered, or the error is not an upstream failure, then it passes unchanged', async () => {
    const answer = { status: 500, body: Buffer.from('{}') };
    const other = new TypeError('not an upstream failure');

    await expect(unlessUpstreamFailed(Promise.resolve(answer))).resolves.toBe(answer);
    await expect(unlessUpstreamFailed(Promise.reject(other))).rejects.toBe(other);
  });
});

describe('unlessUnavailable', () => {
  test('when a dependency fails, then it is 503 PKC_7003 with the failure as its cause; a PKC error passes unchanged', async () => {
    const redisDown = new Error('Connection is closed.');
    const refusal = new PkcError('PKC_7001');

    await expect(unlessUnavailable(Promise.reject(redisDown))).rejects.toMatchObject({ code: 'PKC_7003', httpStatus: 503, cause: redisDown });
    await expect(unlessUnavailable(Promise.reject(refusal))).rejects.toBe(refusal);
  });
});
