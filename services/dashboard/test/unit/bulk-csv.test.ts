import { lineProblemOf, readBulkCsv } from '../../src/domain/bulk-csv';

describe('a bulk payout file', () => {
  test('when the columns come in any order and case with quoted cells, then each line is a payout with its line number', () => {
    const reading = readBulkCsv('\uFEFFExternalId,Phone,AMOUNT,note\r\npay-1,0770000001,25.50,"November, salary"\r\n"pay-2",+231770000003,"1,000",\r\n');
    expect(reading).toEqual({
      kind: 'read',
      payouts: [
        { line: 2, phone: '0770000001', amount: 25.5, externalId: 'pay-1', note: 'November, salary' },
        { line: 3, phone: '+231770000003', amount: 1000, externalId: 'pay-2', note: null },
      ],
      problems: [],
    });
  });

  test('when lines are wrong, then each is a problem naming its line and what to fix, and the others are read', () => {
    const reading = readBulkCsv('phone,amount,externalId\n0770000001,12.345,a\n,5,b\n0770000001,ten,c\n0770000001,5,\n0770000001,5,ok\n');
    expect(reading).toEqual({
      kind: 'read',
      payouts: [{ line: 6, phone: '0770000001', amount: 5, externalId: 'ok', note: null }],
      problems: [
        { line: 2, externalId: 'a', message: 'Line 2: amount "12.345" is not an amount such as 25.50 (at most two decimals)' },
        { line: 3, externalId: 'b', message: 'Line 3: phone is empty' },
        { line: 4, externalId: 'c', message: 'Line 4: amount "ten" is not an amount such as 25.50 (at most two decimals)' },
        { line: 5, externalId: null, message: 'Line 5: externalId is empty' },
      ],
    });
  });

  test('when the file cannot be a bulk, then it is refused with what to fix', () => {
    expect(readBulkCsv('')).toMatchObject({ kind: 'refused', message: expect.stringContaining('empty') });
    expect(readBulkCsv('phone,amount\n0770000001,5\n')).toMatchObject({ kind: 'refused', message: expect.stringContaining('missing: externalId') });
    expect(readBulkCsv('phone,amount,externalId\n')).toMatchObject({ kind: 'refused', message: expect.stringContaining('no payout') });
    expect(readBulkCsv('phone,amount,externalId\n"unclosed,5,x\n')).toMatchObject({ kind: 'refused', message: expect.stringContaining('not CSV') });
    const tooMany = `phone,amount,externalId\n${Array.from({ length: 1001 }, (_, index) => `0770000001,1,p${index}`).join('\n')}`;
    expect(readBulkCsv(tooMany)).toMatchObject({ kind: 'refused', message: expect.stringContaining('at most 1000') });
  });
});

describe('a line’s result in the preview', () => {
  test('when the bulk quote names the item’s field by its place in the request, then the line names the field alone', () => {
    const failure = { code: 'PKC_2003', message: 'Amount below the per-transaction minimum (1 USD or 50 LRD): items.4.amount is out of range (expected from 50.00 to 1,850,000.00 LRD)' };
    expect(lineProblemOf(failure, 4)).toBe('PKC_2003: Amount below the per-transaction minimum (1 USD or 50 LRD): amount is out of range (expected from 50.00 to 1,850,000.00 LRD)');
  });

  test('when the message names no item, or another one, then it is kept as the API wrote it', () => {
    expect(lineProblemOf({ code: 'PKC_3001', message: 'No account for this phone number' }, 2)).toBe('PKC_3001: No account for this phone number');
    expect(lineProblemOf({ code: 'PKC_2008', message: 'items.14.phone is missing' }, 1)).toBe('PKC_2008: items.14.phone is missing');
  });
});
