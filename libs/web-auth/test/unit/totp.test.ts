import { randomBytes } from 'node:crypto';
import { open, seal } from '@pwa/sealing';
import { URL } from 'node:url';
import { createTotpEnrolment, totpCodeAt, totpEnrolmentText, verifySealedTotpCode, verifyTotpCode, type SecretSealer } from '../../src';

// A fixed clock: 2026-11-28T12:00:10Z, 10 s into its 30-second step.
const nowMs = Date.UTC(2026, 10, 28, 12, 0, 10);
const stepNow = Math.floor(nowMs / 30_000);
const secret = Buffer.from('3132333435363738393031323334353637383930', 'hex');

describe('TOTP verification', () => {
  it('when the RFC 6238 test secret is used at 59 s, then the code is the RFC’s 287082', () => {
    expect(totpCodeAt(secret, 59_000)).toBe('287082');
  });

  it('when the code of the current step is given, then it is accepted and the step is returned', () => {
    expect(verifyTotpCode(secret, { code: totpCodeAt(secret, nowMs), lastAcceptedStep: null, nowMs })).toEqual({ accepted: true, step: stepNow });
  });

  it('when the code of the step before or after is given, then it is accepted with that step', () => {
    expect(verifyTotpCode(secret, { code: totpCodeAt(secret, nowMs - 30_000), lastAcceptedStep: null, nowMs })).toEqual({ accepted: true, step: stepNow - 1 });
    expect(verifyTotpCode(secret, { code: totpCodeAt(secret, nowMs + 30_000), lastAcceptedStep: null, nowMs })).toEqual({ accepted: true, step: stepNow + 1 });
  });

  it('when the code is two steps old or two steps ahead, then it is wrong', () => {
    const old = totpCodeAt(secret, nowMs - 60_000);
    const ahead = totpCodeAt(secret, nowMs + 60_000);
    // Guard: the test means nothing if a code happens to equal a code inside the window.
    const inWindow = [-1, 0, 1].map((step) => totpCodeAt(secret, nowMs + step * 30_000));
    expect(inWindow).not.toContain(old);
    expect(inWindow).not.toContain(ahead);
    expect(verifyTotpCode(secret, { code: old, lastAcceptedStep: null, nowMs })).toEqual({ accepted: false, reason: 'wrong_code' });
    expect(verifyTotpCode(secret, { code: ahead, lastAcceptedStep: null, nowMs })).toEqual({ accepted: false, reason: 'wrong_code' });
  });

  it('when an accepted code is given again in the same step, then it is refused as replayed', () => {
    const code = totpCodeAt(secret, nowMs);
    const first = verifyTotpCode(secret, { code, lastAcceptedStep: null, nowMs });
    expect(first.accepted).toBe(true);
    const lastAcceptedStep = first.accepted ? first.step : null;
    expect(verifyTotpCode(secret, { code, lastAcceptedStep, nowMs: nowMs + 5_000 })).toEqual({ accepted: false, reason: 'replayed_code' });
  });

  it('when a code of a step before the last accepted one is given, then it is refused as replayed', () => {
    const previous = totpCodeAt(secret, nowMs - 30_000);
    expect(verifyTotpCode(secret, { code: previous, lastAcceptedStep: stepNow, nowMs })).toEqual({ accepted: false, reason: 'replayed_code' });
  });

  it('when the next step’s code comes after the last accepted step, then it is accepted', () => {
    const next = totpCodeAt(secret, nowMs + 30_000);
    expect(verifyTotpCode(secret, { code: next, lastAcceptedStep: stepNow, nowMs: nowMs + 30_000 })).toEqual({ accepted: true, step: stepNow + 1 });
  });

  it('when the code is not six digits, then it is malformed; spaces are ignored', () => {
    for (const code of ['', '12345', '1234567', '12a456', '١٢٣٤٥٦']) {
      expect(verifyTotpCode(secret, { code, lastAcceptedStep: null, nowMs })).toEqual({ accepted: false, reason: 'malformed_code' });
    }
    const spaced = totpCodeAt(secret, nowMs).replace(/^(\d{3})/, '$1 ');
    expect(verifyTotpCode(secret, { code: spaced, lastAcceptedStep: null, nowMs }).accepted).toBe(true);
  });
});

describe('TOTP enrolment', () => {
  const key = randomBytes(32);
  const sealer: SecretSealer = {
    seal: (plaintext, associatedData) => seal(plaintext, key, associatedData).toString('base64'),
    open: (sealed, associatedData) => open(Buffer.from(sealed, 'base64'), key, associatedData),
  };

  it('when the enrolment text is made, then the otpauth URI names issuer, label, SHA1, 6 digits, 30 s and the base32 secret', () => {
    const text = totpEnrolmentText(secret, { issuer: 'Partner Wallet Back-office', accountName: 'ann@example.com' });
    const uri = new URL(text.otpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Partner Wallet Back-office:ann@example.com');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      issuer: 'Partner Wallet Back-office',
      secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    expect(text.secretBase32).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
  });

  it('when an enrolment is created, then its secret is 20 random bytes, sealed, and the sealed secret verifies the codes the URI gives', async () => {
    const enrolment = await createTotpEnrolment({ issuer: 'Partner Dashboard', accountName: 'ann@example.com', boundTo: 'member:1:totp', sealer });
    const opened = open(Buffer.from(enrolment.sealedSecret, 'base64'), key, 'member:1:totp');
    expect(opened).toHaveLength(20);
    expect(new URL(enrolment.otpauthUri).searchParams.get('secret')).toBe(enrolment.secretBase32);
    expect(enrolment.sealedSecret).not.toContain(enrolment.secretBase32);
    const code = totpCodeAt(opened, nowMs);
    const attempt = { sealedSecret: enrolment.sealedSecret, boundTo: 'member:1:totp', sealer, code, lastAcceptedStep: null, now: () => nowMs };
    expect(await verifySealedTotpCode(attempt)).toEqual({ accepted: true, step: stepNow });
    expect(await verifySealedTotpCode({ ...attempt, lastAcceptedStep: stepNow })).toEqual({ accepted: false, reason: 'replayed_code' });
  });

  it('when two enrolments are created, then their secrets differ', async () => {
    const first = await createTotpEnrolment({ issuer: 'Partner Dashboard', accountName: 'ann@example.com', boundTo: 'member:1:totp', sealer });
    const second = await createTotpEnrolment({ issuer: 'Partner Dashboard', accountName: 'ann@example.com', boundTo: 'member:1:totp', sealer });
    expect(first.secretBase32).not.toBe(second.secretBase32);
  });

  it('when the sealed secret is opened for another owner, then verification throws a message without the secret', async () => {
    const enrolment = await createTotpEnrolment({ issuer: 'Partner Dashboard', accountName: 'ann@example.com', boundTo: 'member:1:totp', sealer });
    const attempt = { sealedSecret: enrolment.sealedSecret, boundTo: 'member:2:totp', sealer, code: '123456', lastAcceptedStep: null, now: () => nowMs };
    const failure = await verifySealedTotpCode(attempt).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/could not be opened/);
    expect((failure as Error).message).not.toContain(enrolment.sealedSecret);
    expect((failure as Error).message).not.toContain(enrolment.secretBase32);
  });
});
