import { PkcError } from '@pwa/errors';
import { writtenNumber } from '@pwa/money';
import { finalStatusOf, parseBulkTransferRequest } from '../../src/domain/bulk';
import { parseBulkQuoteRequest } from '../../src/domain/bulk-quote-request';
import { isBulkId, newBulkId } from '../../src/domain/reference-id';

const codeOf = (run: () => unknown): string => {
  try {
    run();
    return 'accepted';
  } catch (error) {
    if (error instanceof PkcError) return error.code;
    throw error;
  }
};

const valid = { phone: '0770000001', amount: 10, externalId: 'pay-1' };

describe('the bulk quote body', () => {
  test.each([
    ['not an object', 'PKC_2008', []],
    ['null', 'PKC_2008', null],
    ['no currency', 'PKC_2008', { items: [valid] }],
    ['no items', 'PKC_2008', { currency: 'USD' }],
    ['items not a list', 'PKC_2008', { currency: 'USD', items: { 0: valid } }],
    ['no item', 'PKC_2008', { currency: 'USD', items: [] }],
    ['1,001 items', 'PKC_2008', { currency: 'USD', items: Array.from({ length: 1001 }, () => valid) }],
    ['a currency that is not LRD or USD', 'PKC_2005', { currency: 'usd', items: [valid] }],
  ])('when the body has %s, then the whole call is refused with %s', (_label, code, body) => {
    expect(codeOf(() => parseBulkQuoteRequest(body))).toBe(code);
  });

  test('when 1,000 items are sent, then each is judged', () => {
    expect(parseBulkQuoteRequest({ currency: 'USD', items: Array.from({ length: 1000 }, (_, index) => ({ ...valid, externalId: `pay-${index}` })) }).items).toHaveLength(1000);
  });

  test('when items break their own rules, then each gets the first rule it breaks, in the documented order, and the others pass', () => {
    const items = [
      valid,
      'text',
      { amount: 10, externalId: 'a' },
      { phone: '12345', amount: 10, externalId: 'b' },
      { phone: '0770000001', amount: writtenNumber('10.005'), externalId: 'c' },
      { phone: '0770000001', amount: 0.5, externalId: 'd' },
      { phone: '0770000001', amount: 10_001, externalId: 'e' },
      { phone: '0770000001', amount: 10 },
      { phone: '0770000001', amount: 10, externalId: 7 },
      { phone: '0770000001', amount: 10, externalId: 'x'.repeat(101) },
      { phone: '0770000001', amount: 10, externalId: 'f', note: 'n'.repeat(201) },
      { phone: '0770000001', amount: 10, externalId: 'g', note: 5 },
      { phone: '0770000001', amount: 10, externalId: 'h\u0000' },
      { phone: '12345', amount: 10, externalId: 'x'.repeat(101) },
      { phone: '+231880000002', amount: 10, externalId: '😀'.repeat(100), note: '' },
    ];
    const parsed = parseBulkQuoteRequest({ currency: 'USD', items });
    expect(parsed.items.map((item) => (item.outcome === 'checked' ? 'checked' : item.code))).toEqual([
      'checked', 'PKC_2008', 'PKC_2008', 'PKC_2001', 'PKC_2002', 'PKC_2003', 'PKC_2004', 'PKC_2008', 'PKC_2008', 'PKC_2006', 'PKC_2007', 'PKC_2008', 'PKC_2008', 'PKC_2001', 'checked',
    ]);
    expect(parsed.items.map((item) => item.index)).toEqual(items.map((_, index) => index));
    expect(parsed.items[14]).toMatchObject({ outcome: 'checked', phone: '+231880000002', amountMinor: 1000n, note: null });
    expect(parsed.items[3]).toMatchObject({ externalId: 'b' });
    expect(parsed.items[8]).toMatchObject({ externalId: null });
  });

  test('when an item is refused for its own fields, then its invalidFields and message name each field under the item, and the code stays', () => {
    const items = [
      valid,
      'text',
      { phone: '12345', amount: 10, externalId: 'b' },
      { phone: '0770000001', amount: writtenNumber('10.005'), externalId: 'c' },
      { phone: '0770000001', amount: 10, externalId: 'x'.repeat(101) },
      { phone: '0770000001', amount: 10, externalId: 'f', note: 'n'.repeat(201) },
      { phone: '0770000001', amount: 10, externalId: 'g', memo: 'no item takes it' },
      { amount: 10 },
    ];
    const parsed = parseBulkQuoteRequest({ currency: 'USD', items });
    const refusals = parsed.items.map((item) => (item.outcome === 'checked' ? 'checked' : { code: item.code, fields: item.invalidFields?.map(({ field, problem }) => `${field}:${problem}`) }));
    expect(refusals).toEqual([
      'checked',
      { code: 'PKC_2008', fields: ['items.1:wrong_type'] },
      { code: 'PKC_2001', fields: ['items.2.phone:wrong_format'] },
      { code: 'PKC_2002', fields: ['items.3.amount:wrong_format'] },
      { code: 'PKC_2006', fields: ['items.4.externalId:too_long'] },
      { code: 'PKC_2007', fields: ['items.5.note:too_long'] },
      { code: 'PKC_2008', fields: ['items.6.memo:unknown'] },
      { code: 'PKC_2008', fields: ['items.7.phone:missing'] },
    ]);
    for (const item of parsed.items) {
      if (item.outcome === 'invalid') for (const { field } of item.invalidFields ?? []) expect(item.message).toContain(field);
    }
    expect(parsed.items[2]).toMatchObject({ message: expect.stringMatching(/^Invalid Liberian phone number: items\.2\.phone has the wrong format \(expected /) });
  });

  test('when an item is refused for something other than its fields, then it lists no invalidFields', () => {
    const parsed = parseBulkQuoteRequest({ currency: 'LRD', items: [{ phone: '0770000001', amount: 100, externalId: 'same' }, { phone: '0770000002', amount: 100, externalId: 'same' }] });
    expect(parsed.items.map((item) => (item.outcome === 'invalid' ? [item.code, item.invalidFields] : item.outcome))).toEqual([
      ['PKC_6001', undefined],
      ['PKC_6001', undefined],
    ]);
  });

  test('when two or more items share an externalId, then every one of them is refused PKC_6001 and an invalid item does not count', () => {
    const parsed = parseBulkQuoteRequest({
      currency: 'LRD',
      items: [
        { phone: '0770000001', amount: 100, externalId: 'same' },
        { phone: '0770000002', amount: 100, externalId: 'other' },
        { phone: '0770000003', amount: 100, externalId: 'same' },
        { phone: 'bad', amount: 100, externalId: 'other' },
      ],
    });
    expect(parsed.items.map((item) => (item.outcome === 'checked' ? 'checked' : item.code))).toEqual(['PKC_6001', 'checked', 'PKC_6001', 'PKC_2001']);
  });
});

describe('the bulk transfer body', () => {
  const quoteId = '2f7d1c4e-5a6b-4c8d-9e0f-1a2b3c4d5e6f';
  test.each([
    ['not an object', 'PKC_2008', 'x'],
    ['no bulkQuoteId', 'PKC_2008', { externalId: 'a' }],
    ['an empty externalId', 'PKC_2008', { bulkQuoteId: quoteId, externalId: '' }],
    ['a numeric externalId', 'PKC_2008', { bulkQuoteId: quoteId, externalId: 5 }],
    ['a bulkQuoteId that is not a UUID', 'PKC_2009', { bulkQuoteId: 'abc', externalId: 'a' }],
    ['an externalId of 101 characters', 'PKC_2006', { bulkQuoteId: quoteId, externalId: 'x'.repeat(101) }],
    ['a control character in the externalId', 'PKC_2008', { bulkQuoteId: quoteId, externalId: 'a\nb' }],
    ['an upper-case bulkQuoteId and 100 characters outside the BMP', 'accepted', { bulkQuoteId: quoteId.toUpperCase(), externalId: '😀'.repeat(100) }],
  ])('when it has %s, then the answer is %s', (_label, code, body) => {
    expect(codeOf(() => parseBulkTransferRequest(body))).toBe(code);
  });

  test('when it is read, then the bulkQuoteId is in lower case', () => {
    expect(parseBulkTransferRequest({ bulkQuoteId: quoteId.toUpperCase(), externalId: 'a' }).bulkQuoteId).toBe(quoteId);
  });
});

describe('a bulk’s final status and id', () => {
  test.each([
    [{ pending: 1, failed: 0 }, undefined],
    [{ pending: 0, failed: 0 }, 'completed'],
    [{ pending: 0, failed: 2 }, 'completed_with_failures'],
  ])('when %j, then %s', (progress, status) => {
    expect(finalStatusOf(progress)).toBe(status);
  });

  test('when a bulk id is made, then it is PKB-, the time and 24 upper-case hex digits', () => {
    const id = newBulkId(new Date(1_718_000_000_000), Buffer.alloc(12, 0xab));
    expect(id).toBe('PKB-1718000000000-ABABABABABABABABABABABAB');
    expect([isBulkId(id), isBulkId(id.replace('PKB', 'PKD')), isBulkId(`${id}0`)]).toEqual([true, false, false]);
  });
});
