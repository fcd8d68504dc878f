import { collectionQuoteExample, collectionStatusExample, disbursementStatusExample, failedDisbursementStatusExample, webhookExampleHeaders, webhookPayloadExamples } from '../../src/public';
import { decimalPlacesOf, OpenApiAnswerMismatch, openApiAnswerValidator, OpenApiWebhookMismatch } from '../../../../test/support/openapi-validator';

/**
 * The validator every e2e answer goes through (test/support/https-client.ts): a field added in
 * code but missing from the document, a wrong type, a missing field or an undeclared status fails.
 */
const validator = openApiAnswerValidator();

function answer(method: string, path: string, status: number, body: unknown, contentType = 'application/json; charset=utf-8') {
  return { method, path: `/api/v1${path}`, status, contentType, text: typeof body === 'string' ? body : JSON.stringify(body) };
}

function mismatchOf(run: () => unknown): OpenApiAnswerMismatch {
  try {
    run();
  } catch (error) {
    if (error instanceof OpenApiAnswerMismatch) return error;
    throw error;
  }
  throw new Error('expected the answer to be refused');
}

describe('OpenAPI answer validator', () => {
  test('when real answers are validated, then they pass and name their operation', () => {
    expect(validator.validate(answer('POST', '/partner/v1/collection/quote', 200, { success: true, data: collectionQuoteExample }))).toEqual({
      operationId: 'quoteCollection',
      responseKey: '200',
    });
    expect(validator.validate(answer('GET', `/partner/v1/collection/${collectionStatusExample.referenceId}`, 200, { success: true, data: collectionStatusExample }))).toMatchObject({
      operationId: 'getCollection',
    });
    expect(validator.validate(answer('GET', '/partner/v1/disbursement/PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4', 200, { success: true, data: failedDisbursementStatusExample }))).toMatchObject({
      operationId: 'getDisbursement',
    });
    expect(validator.validate(answer('POST', '/partner/auth/token', 200, { access_token: 'eyJ.a.b', token_type: 'Bearer', expires_in: 3600 }))).toMatchObject({
      operationId: 'getAccessToken',
    });
    expect(validator.validate(answer('GET', '/partner/v1/balance?x=1', 400, { success: false, code: 'PKC_2008', message: 'Unknown query parameter x' }))).toMatchObject({
      operationId: 'getBalance',
      responseKey: '400',
    });
  });

  test('when the data carries a field the document does not declare, then the answer is refused naming the field, the operation and the status', () => {
    const mismatch = mismatchOf(() =>
      validator.validate(answer('GET', '/partner/v1/disbursement/PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4', 200, { success: true, data: { ...disbursementStatusExample, settlementBank: 'X' } })),
    );

    expect(mismatch.operationId).toBe('getDisbursement');
    expect(mismatch.status).toBe(200);
    expect(mismatch.problems).toEqual(['body.data must NOT have additional properties (settlementBank)']);
    expect(mismatch.message).toContain('GET /api/v1/partner/v1/disbursement/PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4 (getDisbursement) answered 200');
  });

  test('when a field has the wrong type, then the answer is refused', () => {
    const mismatch = mismatchOf(() => validator.validate(answer('POST', '/partner/v1/collection/quote', 200, { success: true, data: { ...collectionQuoteExample, amount: '25.50' } })));

    expect(mismatch.problems).toEqual(['body.data.amount must be number']);
  });

  test('when a required field is missing, then the answer is refused', () => {
    const withoutTotal: Record<string, unknown> = { ...collectionQuoteExample };
    delete withoutTotal.totalDebit;

    const mismatch = mismatchOf(() => validator.validate(answer('POST', '/partner/v1/collection/quote', 200, { success: true, data: withoutTotal })));

    expect(mismatch.problems).toEqual(["body.data must have required property 'totalDebit'"]);
  });

  test('when formats are wrong (an amount with 3 decimals, a time that is not ISO 8601, a reference id of the other kind), then the answer is refused', () => {
    const mismatch = mismatchOf(() =>
      validator.validate(
        answer('GET', `/partner/v1/collection/${collectionStatusExample.referenceId}`, 200, {
          success: true,
          data: { ...collectionStatusExample, fee: 0.255, createdAt: '10/06/2024 06:13', referenceId: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4' },
        }),
      ),
    );

    expect(mismatch.problems).toEqual(
      expect.arrayContaining([
        'body.data.fee must have at most 2 decimal places',
        'body.data.createdAt must match format "date-time"',
        expect.stringMatching(/^body\.data\.referenceId must match pattern/),
      ]),
    );
  });

  test('when the status is not declared, or the code is not one the operation answers with that status, or the error envelope has an extra field, then the answer is refused', () => {
    expect(mismatchOf(() => validator.validate(answer('GET', '/partner/v1/balance', 418, { success: false, code: 'PKC_7002', message: 'x' }))).problems[0]).toMatch(
      /^status 418 is not declared/,
    );
    expect(mismatchOf(() => validator.validate(answer('GET', '/partner/v1/balance', 400, { success: false, code: 'PKC_2001', message: 'Invalid' }))).problems).toEqual([
      'body.code must be equal to one of the allowed values (["PKC_2008"])',
    ]);
    expect(mismatchOf(() => validator.validate(answer('GET', '/partner/v1/balance', 400, { success: false, code: 'PKC_2008', message: 'x', stack: 'at …' }))).problems).toEqual([
      'body must NOT have additional properties (stack)',
    ]);
  });

  test('when a path or method is not in the document, or the answer is not JSON, then nothing is checked', () => {
    expect(validator.validate(answer('GET', '/partner/v1/nothing-here', 404, { success: false, code: 'PKC_6002', message: 'No such endpoint' }))).toBeUndefined();
    expect(validator.validate(answer('DELETE', '/partner/v1/balance', 404, { success: false, code: 'PKC_6002', message: 'No such endpoint' }))).toBeUndefined();
    expect(validator.validate({ method: 'GET', path: '/healthz', status: 200, contentType: 'application/json', text: '{}' })).toBeUndefined();
    expect(validator.validate(answer('GET', '/partner/v1/balance', 502, '<html>bad gateway</html>', 'text/html'))).toBeUndefined();
  });

  test('when a literal and a parameter both fit, then the literal wins, as in the gateway', () => {
    expect(validator.operationFor('POST', '/api/v1/partner/v1/collection/request')?.operationId).toBe('requestCollection');
    expect(validator.operationFor('GET', '/api/v1/partner/v1/collection/request')?.operationId).toBe('getCollection');
    expect(validator.operationFor('GET', '/api/v1/partner/v1/collection/..')).toBeUndefined();
  });

  test.each([
    [25.76, 2],
    [100, 0],
    [0.1 + 0.2, 17],
    [1e21, 0],
    [1e-7, 7],
  ])('when %p is written as JSON, then it has %p decimals', (value, places) => {
    expect(decimalPlacesOf(value)).toBe(places);
  });
});

/**
 * The webhook deliveries every e2e receiver gets go through the same document (its `webhooks`):
 * test/support/webhook-receiver.ts records a mismatch and fails the test that received it.
 */
describe('OpenAPI webhook validator', () => {
  const headers = {
    'content-type': 'application/json',
    ...Object.fromEntries(Object.entries(webhookExampleHeaders).map(([name, value]) => [name.toLowerCase(), value])),
  };
  const delivery = (body: unknown, headerOverrides: Record<string, string | undefined> = {}) => ({
    headers: { ...headers, ...headerOverrides },
    body: JSON.stringify(body),
  });

  function webhookMismatchOf(run: () => unknown): OpenApiWebhookMismatch {
    try {
      run();
    } catch (error) {
      if (error instanceof OpenApiWebhookMismatch) return error;
      throw error;
    }
    throw new Error('expected the delivery to be refused');
  }

  test.each(Object.entries(webhookPayloadExamples))('when a %s delivery is as the document says, then it passes', (event, body) => {
    expect(validator.validateWebhook(delivery(body))).toBe(event);
  });

  test('when the body carries a field the document does not have, then the delivery is refused naming it', () => {
    const mismatch = webhookMismatchOf(() => validator.validateWebhook(delivery({ ...webhookPayloadExamples['disbursement.completed'], partnerId: 'p-1' })));
    expect(mismatch.webhook).toBe('disbursement.completed');
    expect(mismatch.problems.join('\n')).toContain('partnerId');
  });

  test('when a field has the wrong type or format, then the delivery is refused', () => {
    const wrongAmount = webhookMismatchOf(() => validator.validateWebhook(delivery({ ...webhookPayloadExamples['collection.completed'], amount: '25.50' })));
    expect(wrongAmount.problems.join('\n')).toContain('body.amount');
    const wrongReference = webhookMismatchOf(() => validator.validateWebhook(delivery({ ...webhookPayloadExamples['collection.completed'], referenceId: 'PKD-1-AB' })));
    expect(wrongReference.problems.join('\n')).toContain('body.referenceId');
  });

  test('when a completed event carries a failureReason, or a failed one a transactionId, then the delivery is refused', () => {
    const completed = { ...webhookPayloadExamples['disbursement.completed'], failureReason: { code: 'PKC_4002', message: 'Partner balance insufficient for amount plus fee' } };
    expect(webhookMismatchOf(() => validator.validateWebhook(delivery(completed))).problems.join('\n')).toContain('failureReason');
    const failed = { ...webhookPayloadExamples['disbursement.failed'], transactionId: 'TXN-8D41E6B09A2C7F35' };
    expect(webhookMismatchOf(() => validator.validateWebhook(delivery(failed))).problems.join('\n')).toContain('transactionId');
  });

  test('when a signature header is missing or malformed, then the delivery is refused naming the header', () => {
    const missing = webhookMismatchOf(() => validator.validateWebhook(delivery(webhookPayloadExamples['collection.completed'], { 'x-service-signature': undefined })));
    expect(missing.problems).toContain('header X-Service-Signature is missing');
    const malformed = webhookMismatchOf(() => validator.validateWebhook(delivery(webhookPayloadExamples['collection.completed'], { 'webhook-timestamp': 'yesterday' })));
    expect(malformed.problems.join('\n')).toContain('header webhook-timestamp');
  });

  test('when the event type is not one of the document, or the body is not JSON, then the delivery is refused', () => {
    expect(webhookMismatchOf(() => validator.validateWebhook(delivery({ ...webhookPayloadExamples['collection.completed'], event: 'collection.refunded' }))).webhook).toBe('collection.refunded');
    expect(webhookMismatchOf(() => validator.validateWebhook({ headers, body: '{"event":' })).problems).toEqual(['the body is not valid JSON']);
  });

  test('when the Content-Type is not JSON, then the delivery is refused', () => {
    expect(webhookMismatchOf(() => validator.validateWebhook(delivery(webhookPayloadExamples['collection.completed'], { 'content-type': 'text/plain' }))).problems).toEqual(['Content-Type text/plain is not JSON']);
  });
});
