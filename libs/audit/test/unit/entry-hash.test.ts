import { canonicalEntryText, canonicalJson, entryHash, genesisHash, type HashedEntryContent } from '../../src';

const content: HashedEntryContent = {
  sequence: 7,
  entryId: '0b6f1d4e-8a2c-4c47-9f5e-2d1a3b4c5d6e',
  occurredAt: '2026-11-28T13:37:11.123456Z',
  actor: { kind: 'person', id: 'operator-1', displayName: 'Ama Mensah' },
  action: 'partner.status.change',
  target: { kind: 'partner', id: 'p-1' },
  partnerId: null,
  before: { status: 'active', limits: { daily: 100, tiers: [1, 2] } },
  after: { status: 'suspended' },
  outcome: 'done',
  reason: null,
  address: '10.0.0.1',
  userAgent: 'Mozilla/5.0',
  requestId: 'req-1',
  previousHash: genesisHash,
};

describe('canonical serialisation', () => {
  it('when objects hold the same members in another order, then their canonical texts are equal', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(canonicalJson({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }));
    expect(canonicalJson({ b: 1, a: 'x' })).toBe('{"a":"x","b":1}');
  });

  it('when an array is reordered, then its canonical text changes (order is content)', () => {
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });

  it('when strings hold quotes, line breaks and non-ASCII text, then they are written as JSON strings', () => {
    expect(canonicalJson({ note: 'a "b"\n\u00e9' })).toBe('{"note":"a \\"b\\"\\n\u00e9"}');
  });
});

describe('entry hash', () => {
  it('when an entry is hashed twice, or with its JSON members reordered, then the hash is the same 64 hex digits', () => {
    const reordered: HashedEntryContent = { ...content, before: { limits: { tiers: [1, 2], daily: 100 }, status: 'active' } };
    expect(entryHash(content)).toMatch(/^[0-9a-f]{64}$/);
    expect(entryHash(content)).toBe(entryHash(reordered));
  });

  it('when the entry is the same as when this test was written, then its hash is the one written then (the format never changes for stored entries)', () => {
    expect(canonicalEntryText(content)).toBe(
      '{"action":"partner.status.change","actor":{"displayName":"Ama Mensah","id":"operator-1","kind":"person"},"address":"10.0.0.1",' +
        '"after":{"status":"suspended"},"before":{"limits":{"daily":100,"tiers":[1,2]},"status":"active"},' +
        '"entryId":"0b6f1d4e-8a2c-4c47-9f5e-2d1a3b4c5d6e","occurredAt":"2026-11-28T13:37:11.123456Z","outcome":"done","partnerId":null,' +
        `"previousHash":"${genesisHash}","reason":null,"requestId":"req-1","sequence":"7","target":{"id":"p-1","kind":"partner"},` +
        '"userAgent":"Mozilla/5.0","version":"audit-entry-v1"}',
    );
    expect(entryHash(content)).toBe(entryHash(JSON.parse(JSON.stringify(content))));
  });

  it.each([
    ['sequence', { sequence: 8 }],
    ['previous hash', { previousHash: 'f'.repeat(64) }],
    ['time', { occurredAt: '2026-11-28T13:37:11.123457Z' }],
    ['a nested value', { before: { status: 'active', limits: { daily: 101, tiers: [1, 2] } } }],
    ['the reason', { reason: 'x' }],
    ['the actor', { actor: { kind: 'person', id: 'operator-2', displayName: 'Ama Mensah' } }],
  ])('when the %s changes, then the hash changes', (_field, change) => {
    expect(entryHash({ ...content, ...change })).not.toBe(entryHash(content));
  });

  it('when a field is null rather than an empty text, then the hash differs', () => {
    expect(entryHash({ ...content, requestId: '' })).not.toBe(entryHash({ ...content, requestId: null }));
  });
});
