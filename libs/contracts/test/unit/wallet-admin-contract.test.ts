import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  fourEyesProblemOf,
  walletAdminContractExamples,
  walletAdminPaths,
  walletPartnerFundingAnswerSchema,
  walletPartnerFundingBody,
  walletPartnerFundingRequestSchema,
} from '../../src';

/** The wallet's admin contract (libs/contracts/src/internal/wallet-admin.ts) and its section of docs/internal-contracts.md. */
const documentation = readFileSync(path.resolve(__dirname, '../../../../docs/internal-contracts.md'), 'utf8');
const section = documentation.slice(documentation.indexOf('### Wallet admin HTTP API'), documentation.indexOf('## Quotes service HTTP API'));

function documentedExample(name: string): unknown {
  const match = new RegExp(`<!-- contract-example: walletAdmin\\.${name} -->\\n\`\`\`json\\n([\\s\\S]*?)\\n\`\`\``).exec(section);
  if (!match?.[1]) throw new Error(`docs/internal-contracts.md has no example walletAdmin.${name}`);
  return JSON.parse(match[1]) as unknown;
}

const request = walletAdminContractExamples.partnerFundingRequest;

describe('the wallet admin contract', () => {
  it('when the documented examples are read, then they equal the contract examples and parse', () => {
    expect(documentedExample('partnerFundingRequest')).toEqual(request);
    expect(documentedExample('partnerFundingAnswer')).toEqual(walletAdminContractExamples.partnerFundingAnswer);
    expect(walletPartnerFundingRequestSchema.safeParse(request).success).toBe(true);
    expect(walletPartnerFundingAnswerSchema.safeParse(walletAdminContractExamples.partnerFundingAnswer).success).toBe(true);
  });

  it('when the document section is read, then it names the path and every field of the request and the answer', () => {
    expect(section).toContain(`POST ${walletAdminPaths.partnerFundings}`);
    const fields = [
      ...Object.keys(walletPartnerFundingRequestSchema.shape),
      ...Object.keys(walletPartnerFundingRequestSchema.shape.actor.shape),
      ...Object.keys(walletPartnerFundingRequestSchema.shape.approval.shape),
      ...Object.keys(walletPartnerFundingAnswerSchema.shape),
    ];
    for (const field of fields) expect([field, section.includes(field)]).toEqual([field, true]);
  });

  it('when a well-formed body is parsed, then ids are lower case and the amount is a bigint', () => {
    const parsed = walletPartnerFundingRequestSchema.parse({ ...request, partnerId: request.partnerId.toUpperCase(), amountMinor: '1000000000000000' });
    expect(parsed.partnerId).toBe(request.partnerId);
    expect(parsed.amountMinor).toBe(10n ** 15n);
  });

  it.each([
    ['without actor', { actor: undefined }, 'actor'],
    ['without approval', { approval: undefined }, 'approval'],
    ['with an unknown field', { force: true }, ''],
    ['with an unknown field in the approval', { approval: { ...request.approval, note: 'ok' } }, 'approval'],
    ['with a zero amount', { amountMinor: '0' }, 'amountMinor'],
    ['with a negative amount', { amountMinor: '-5' }, 'amountMinor'],
    ['with an amount of 17 digits', { amountMinor: '10000000000000000' }, 'amountMinor'],
    ['with an amount above the maximum', { amountMinor: '1000000000000001' }, 'amountMinor'],
    ['with a decimal amount', { amountMinor: '10.50' }, 'amountMinor'],
    ['with another direction', { direction: 'refund' }, 'direction'],
    ['with another currency', { currency: 'EUR' }, 'currency'],
    ['with a reference of 201 characters', { reference: 'r'.repeat(201) }, 'reference'],
    ['with a blank display name', { actor: { ...request.actor, displayName: '   ' } }, 'actor.displayName'],
  ])('when a body %s is parsed, then it is refused at that field', (_label, change, field) => {
    const parsed = walletPartnerFundingRequestSchema.safeParse({ ...request, ...change });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toContain(field);
  });

  it('when the maker is the checker, then fourEyesProblemOf names it', () => {
    const body = walletPartnerFundingRequestSchema.parse({ ...request, approval: { ...request.approval, makerId: request.approval.checkerId.toUpperCase() } });
    expect(fourEyesProblemOf(body)).toContain('approval.makerId equals approval.checkerId');
  });

  it('when the actor is not the approval’s checker, then fourEyesProblemOf names it', () => {
    const body = walletPartnerFundingRequestSchema.parse({ ...request, actor: { ...request.actor, operatorId: request.approval.makerId } });
    expect(fourEyesProblemOf(body)).toContain('actor.operatorId differs from approval.checkerId');
  });

  it('when the transfer id is not the approval request id, then fourEyesProblemOf names it', () => {
    const body = walletPartnerFundingRequestSchema.parse({ ...request, approval: { ...request.approval, requestId: request.partnerId } });
    expect(fourEyesProblemOf(body)).toContain('approval.requestId differs from transferId');
  });

  it('when a maker and a different checker approved the transfer id, then fourEyesProblemOf finds nothing', () => {
    expect(fourEyesProblemOf(walletPartnerFundingRequestSchema.parse(request))).toBeUndefined();
  });

  it('when walletPartnerFundingBody builds a body, then it parses back to the same funding', () => {
    const body = walletPartnerFundingBody({ ...request, amountMinor: 2_500_000n, actor: { ...request.actor }, approval: { ...request.approval } });
    expect(body).toEqual(request);
    expect(walletPartnerFundingRequestSchema.parse(body).amountMinor).toBe(2_500_000n);
    expect(() => walletPartnerFundingBody({ ...request, amountMinor: 0n, actor: { ...request.actor }, approval: { ...request.approval } })).toThrow(RangeError);
  });
});
