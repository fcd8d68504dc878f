import {
  PkcError,
  allPkcCodes,
  errorCatalogue,
  errorEnvelope,
  httpStatusOf,
  isPkcCode,
  isPkcError,
  successEnvelope,
} from '@pwa/errors';

describe('errorEnvelope', () => {
  test('when given only a code, then it answers the catalogue message and nothing else', () => {
    const envelope = errorEnvelope('PKC_7001');
    expect(envelope).toEqual({ success: false, code: 'PKC_7001', message: errorCatalogue.PKC_7001.message });
    expect(Object.keys(JSON.parse(JSON.stringify(envelope)) as object).sort()).toEqual(['code', 'message', 'success']);
  });

  test('when given a message, then it replaces the default and keeps the code', () => {
    expect(errorEnvelope('PKC_2008', 'amount is required')).toEqual({ success: false, code: 'PKC_2008', message: 'amount is required' });
  });
});

describe('successEnvelope', () => {
  test('when given a payload, then it wraps it as data with success true', () => {
    expect(successEnvelope({ LRD: 10, USD: 2.5 })).toEqual({ success: true, data: { LRD: 10, USD: 2.5 } });
  });
});

describe('PkcError', () => {
  test('when made from a code, then it carries that code, its HTTP status and the default message', () => {
    const error = new PkcError('PKC_1006');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('PkcError');
    expect(error.code).toBe('PKC_1006');
    expect(error.httpStatus).toBe(403);
    expect(error.message).toBe(errorCatalogue.PKC_1006.message);
    expect(error.headers).toEqual({});
  });

  test('when given a message, headers and a cause, then it keeps them, and the headers cannot change', () => {
    const cause = new Error('redis down');
    const headers = { 'Retry-After': '60' };
    const error = new PkcError('PKC_7001', 'slow down', { headers, cause });
    headers['Retry-After'] = '1';
    expect(error.message).toBe('slow down');
    expect(error.cause).toBe(cause);
    expect(error.headers).toEqual({ 'Retry-After': '60' });
    expect(Object.isFrozen(error.headers)).toBe(true);
  });

  test('when there is no cause, then the error has no cause property', () => {
    expect('cause' in new PkcError('PKC_7002')).toBe(false);
  });
});

describe('isPkcError', () => {
  test('when given a PkcError, then it is true', () => {
    expect(isPkcError(new PkcError('PKC_5002'))).toBe(true);
  });

  test('when given an object of the same shape from another copy of the package, then it is true', () => {
    expect(isPkcError({ name: 'PkcError', code: 'PKC_5002', message: 'Quote already used' })).toBe(true);
  });

  test.each([
    ['a plain Error', new Error('boom')],
    ['null', null],
    ['a string', 'PKC_5002'],
    ['an unknown code', { name: 'PkcError', code: 'PKC_9999' }],
    ['another error name', { name: 'TypeError', code: 'PKC_5002' }],
  ])('when given %s, then it is false', (_label, value) => {
    expect(isPkcError(value)).toBe(false);
  });
});

describe('catalogue helpers', () => {
  test('when asked about catalogue codes and other strings, then isPkcCode tells them apart', () => {
    expect(isPkcCode('PKC_4010')).toBe(true);
    expect(isPkcCode('PKC_0000')).toBe(false);
    expect(isPkcCode('toString')).toBe(false);
    expect(isPkcCode(4010)).toBe(false);
  });

  test('when asked for a status, then httpStatusOf answers the catalogue status', () => {
    expect(httpStatusOf('PKC_6003')).toBe(410);
    expect(httpStatusOf('PKC_7004')).toBe(504);
  });

  test('when listing codes, then allPkcCodes has every catalogue key once', () => {
    expect([...allPkcCodes].sort()).toEqual(Object.keys(errorCatalogue).sort());
    expect(new Set(allPkcCodes).size).toBe(allPkcCodes.length);
  });
});

describe('structured error fields', () => {
  test('when a PkcError carries fields, then the envelope has them beside success, code and message', () => {
    expect(errorEnvelope('PKC_6001', 'taken', { referenceId: 'PKD-1-AB', status: 'completed' })).toEqual({
      success: false,
      code: 'PKC_6001',
      message: 'taken',
      referenceId: 'PKD-1-AB',
      status: 'completed',
    });
  });

  test('when fields name success, code or message, then the envelope keeps its own values', () => {
    expect(errorEnvelope('PKC_2008', undefined, { success: true, code: 'X', message: 'Y', extra: 1 })).toEqual({
      success: false,
      code: 'PKC_2008',
      message: 'One or more required body fields missing',
      extra: 1,
    });
  });
});
