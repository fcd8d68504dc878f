import { request as httpRequest } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { expectedForms } from '@pwa/errors';
import { databaseFingerprint, type DatabaseFingerprint } from '../support/database-fingerprint';
import { RawHttpsClient, type RawResponse } from '../support/fuzz-client';
import { accessTokenFor, onboardPartner, type OnboardedPartner } from '../support/partners';
import { internalServiceNames, startStack, type Stack } from '../support/stack';
import { createWalletUser, creditWallet, fundPartner, type WalletUser } from '../support/wallet-users';

/**
 * Issue 14, "Bad input must never produce a 5xx, and must never consume anything": each case the
 * issue lists, through the gateway over HTTPS as a partner sends it (raw paths, raw bytes), and the
 * path cases also straight at every service. Refusals are 4xx envelopes with a catalogue code; a
 * refused confirm leaves its quote usable and its externalId free.
 */
describe('bad input through the gateway', () => {
  let stack: Stack;
  let client: RawHttpsClient;
  let partner: OnboardedPartner;
  let token: string;
  let user: WalletUser;
  let sequence = 0;

  beforeAll(async () => {
    stack = await startStack({ logLevel: 'warn' });
    client = new RawHttpsClient({ port: stack.gateway.port, certificatePem: stack.certificatePem });
    partner = await onboardPartner(stack, { rateLimitPerMinute: 100_000 });
    await fundPartner(stack, partner.partnerId, 'USD', '10000.00');
    token = await accessTokenFor(stack.client, partner);
    user = await createWalletUser(stack);
    await creditWallet(stack, user, 'USD', '1000.00');
  });

  afterAll(async () => {
    try {
      if (stack) {
        expect(stack.logs()).not.toContain('"msg":"unhandled error"');
        expect(stack.logs()).not.toContain('Maximum call stack size exceeded');
        expect(await stack.walletOperator(['check-ledger'])).toMatchObject({ ok: true, problems: [] });
      }
    } finally {
      client?.close();
      await stack?.stop();
    }
  });

  const bearer = (): Record<string, string> => ({ authorization: `Bearer ${token}` });
  const jsonHeaders = (): Record<string, string> => ({ ...bearer(), 'content-type': 'application/json' });

  function post(path: string, body: Buffer | string, headers: Record<string, string> = jsonHeaders()): Promise<RawResponse> {
    return client.send({ method: 'POST', path, headers, body: Buffer.from(body) });
  }

  function get(path: string): Promise<RawResponse> {
    return client.send({ method: 'GET', path, headers: bearer() });
  }

  function expectRefusal(response: RawResponse, status: number, code: string, message?: string | RegExp): void {
    const expectedMessage = message === undefined ? expect.any(String) : typeof message === 'string' ? message : expect.stringMatching(message);
    expect({ status: response.status, body: response.body }).toEqual({ status, body: expect.objectContaining({ success: false, code, message: expectedMessage }) });
  }

  async function quote(type: 'collection' | 'disbursement', amount = 10): Promise<string> {
    const response = await post(`/partner/v1/${type}/quote`, JSON.stringify({ phone: user.localPhone, amount, currency: 'USD' }));
    if (response.status !== 200) throw new Error(`quote failed: ${response.status} ${response.text}`);
    return response.body.data.quoteId as string;
  }

  const quoteBody = (amountText: string): string => `{"phone":"${user.localPhone}","amount":${amountText},"currency":"USD"}`;
  const nextExternalId = (): string => `bad-input-${Date.now()}-${(sequence += 1)}`;
  const confirmFingerprint = (): Promise<DatabaseFingerprint> => databaseFingerprint(stack.databaseUrl, ['wallet', 'collections', 'disbursements']);

  /** Bodies the confirm calls must refuse before the quote is used: the NUL, and its cousins. */
  function refusedConfirmBodies(quoteId: string, externalId: string): { name: string; bytes: Buffer }[] {
    const text = (body: unknown): Buffer => Buffer.from(JSON.stringify(body));
    return [
      { name: 'a NUL in externalId', bytes: text({ quoteId, externalId: `${externalId}\u0000` }) },
      { name: 'a NUL in note', bytes: text({ quoteId, externalId, note: 'payment\u0000' }) },
      { name: 'a line break in note', bytes: text({ quoteId, externalId, note: 'line 1\nline 2' }) },
      { name: 'a C1 control in externalId', bytes: text({ quoteId, externalId: `${externalId}\u0085` }) },
      { name: 'a lone surrogate in note', bytes: text({ quoteId, externalId, note: 'x\ud800' }) },
      { name: 'bytes that are not UTF-8 in externalId', bytes: Buffer.concat([Buffer.from(`{"quoteId":"${quoteId}","externalId":"${externalId}`), Buffer.from([0xff]), Buffer.from('"}')]) },
    ];
  }

  describe('strings with control characters, lone surrogates or bytes that are not UTF-8', () => {
    test('when a transfer carries a NUL (or another unsafe character) in externalId or note, then it is 400 PKC_2008, and the same quote and externalId then transfer', async () => {
      const quoteId = await quote('disbursement');
      const externalId = nextExternalId();
      const balanceBefore = (await get('/partner/v1/balance')).body;
      const before = await confirmFingerprint();

      for (const { name, bytes } of refusedConfirmBodies(quoteId, externalId)) {
        const response = await post('/partner/v1/disbursement/transfer', bytes);
        // A field whose value breaks the text rule is named (decision 0075); a body that is not UTF-8 names none.
        const { invalidFields, ...envelope } = response.body as { invalidFields?: { field: string }[] };
        expect({ name, ...envelope }).toEqual({ name, success: false, code: 'PKC_2008', message: expect.any(String) });
        if (invalidFields !== undefined) expect(invalidFields.map(({ field }) => field)).toEqual([name.endsWith('note') ? 'note' : 'externalId']);
        expect(response.status).toBe(400);
      }

      expect(await confirmFingerprint()).toEqual(before);
      expect((await get('/partner/v1/balance')).body).toEqual(balanceBefore);
      const retried = await post('/partner/v1/disbursement/transfer', JSON.stringify({ quoteId, externalId, note: 'payment' }));
      expect({ status: retried.status, status_: retried.body.data?.status }).toEqual({ status: 200, status_: 'completed' });
      // The success took that very externalId: another quote with it is now a duplicate.
      expectRefusal(await post('/partner/v1/disbursement/transfer', JSON.stringify({ quoteId: await quote('disbursement'), externalId })), 409, 'PKC_6001');
    });

    test('when a collection request carries a NUL (or another unsafe character) in externalId or note, then it is 400 PKC_2008, and the same quote and externalId then work', async () => {
      const quoteId = await quote('collection');
      const externalId = nextExternalId();
      const before = await confirmFingerprint();

      for (const { name, bytes } of refusedConfirmBodies(quoteId, externalId)) {
        const response = await post('/partner/v1/collection/request', bytes);
        expect({ name, status: response.status, code: response.body?.code }).toEqual({ name, status: 400, code: 'PKC_2008' });
      }

      expect(await confirmFingerprint()).toEqual(before);
      const retried = await post('/partner/v1/collection/request', JSON.stringify({ quoteId, externalId }));
      expect(retried.status).toBe(202);
      expectRefusal(await post('/partner/v1/collection/request', JSON.stringify({ quoteId: await quote('collection'), externalId })), 409, 'PKC_6001');
    });

    test('when the refusal names the field, then it says what the rule is and never echoes the value', async () => {
      const response = await post('/partner/v1/collection/quote', JSON.stringify({ phone: user.localPhone, amount: 10, currency: 'USD', reference: 'secret\u0000value' }));

      expectRefusal(response, 400, 'PKC_2008', `Field reference contains a control character: reference has the wrong format (expected ${expectedForms.text})`);
      expect(response.body.invalidFields).toEqual([{ field: 'reference', problem: 'wrong_format', expected: expectedForms.text }]);
      expect(response.text).not.toContain('secret');
    });

    test('when a body is not valid UTF-8, then it is 400 PKC_2008 rather than decoded with replacement characters', async () => {
      const bytes = Buffer.concat([Buffer.from(`{"phone":"${user.localPhone}","amount":10,"currency":"US`), Buffer.from([0xc3]), Buffer.from('D"}')]);

      expectRefusal(await post('/partner/v1/disbursement/quote', bytes), 400, 'PKC_2008', 'Request body is not valid UTF-8');
    });
  });

  describe('path parameters and query strings that cannot be read', () => {
    test.each([
      ['GET', '/partner/v1/account/%E0%A4%A', 'phone'],
      ['GET', '/partner/v1/disbursement/%E0%A4%A', 'referenceId'],
      ['GET', '/partner/v1/collection/PKC-1-%00', 'referenceId'],
      ['GET', '/partner/v1/collection/%ED%A0%80', 'referenceId'],
      ['POST', '/partner/v1/sandbox/collection/PKC-1-%00/approve', 'referenceId'],
      ['POST', '/partner/v1/webhooks/deliveries/%FF/redeliver', 'deliveryId'],
    ])('when %s %s arrives, then the gateway answers 400 PKC_2008 naming %s and forwards nothing', async (method, path, parameter) => {
      const response = await client.send({ method, path, headers: bearer() });

      expectRefusal(response, 400, 'PKC_2008', `Path parameter ${parameter} is not valid: ${parameter} has the wrong format (expected percent-encoded UTF-8 ${expectedForms.text})`);
      expect(response.body.invalidFields).toEqual([{ field: parameter, problem: 'wrong_format', expected: `percent-encoded UTF-8 ${expectedForms.text}` }]);
    });

    test('when a query value is %00 or not UTF-8, then the answer is 400 PKC_2008 naming the parameter', async () => {
      expectRefusal(await get('/partner/v1/webhooks/deliveries?referenceId=%00'), 400, 'PKC_2008', /^Query parameter referenceId is not valid: referenceId has the wrong format \(expected percent-encoded UTF-8 text/);
      expectRefusal(await get('/partner/v1/webhooks/deliveries?referenceId=%E0%A4%A'), 400, 'PKC_2008', /^Query parameter referenceId is not valid: referenceId has the wrong format/);
    });

    test.each(internalServiceNames)('when a path or query that cannot be read reaches %s directly, then it answers 400 PKC_2008 too, never 500', async (service) => {
      for (const path of ['/partner/v1/collection/%E0%A4%A', '/partner/v1/disbursement/PKD-1-%00', '/partner/v1/account/%E0%A4%A', '/partner/v1/webhooks/deliveries?referenceId=%00']) {
        const response = await sendDirect(stack.internalUrls[service], path);
        expect({ path, status: response.status, code: response.body?.code }).toEqual({ path, status: 400, code: 'PKC_2008' });
      }
    });

    test('when the delivery log is asked with an unknown filter, then the refusal names that filter', async () => {
      expectRefusal(await get('/partner/v1/webhooks/deliveries?foo=1'), 400, 'PKC_2008', 'foo is not a field of this request: remove it');
      expectRefusal(await get('/partner/v1/webhooks/deliveries?foo=1&bar=2'), 400, 'PKC_2008', 'foo is not a field of this request: remove it; bar is not a field of this request: remove it');
    });
  });

  describe('deeply nested JSON', () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;

    test('when a quote body nests 5,000 arrays, then it is 400 PKC_2008 naming the depth limit, and the gateway goes on serving', async () => {
      expectRefusal(await post('/partner/v1/collection/quote', deep), 400, 'PKC_2008', 'Request body nests JSON arrays and objects more than 32 levels deep');
      expectRefusal(await post('/partner/v1/collection/quote', `{"phone":${'{"a":'.repeat(40)}1${'}'.repeat(40)}}`), 400, 'PKC_2008', /more than 32 levels deep/);

      expect((await post('/partner/v1/collection/quote', quoteBody('10'))).status).toBe(200);
    });

    test('when a token request body nests 5,000 arrays, then the token endpoint answers 401 PKC_1001 as for any unreadable body', async () => {
      const response = await client.send({ method: 'POST', path: '/partner/auth/token', headers: { 'content-type': 'application/json' }, body: Buffer.from(deep) });

      expectRefusal(response, 401, 'PKC_1001');
    });
  });

  describe('amounts as written', () => {
    test.each([
      ['1.999999999999999999', /^Amount must have at most 2 decimal places: amount has the wrong format \(expected a JSON number/],
      ['10.005', /^Amount must have at most 2 decimal places: amount has the wrong format/],
      ['1e400', /^Amount must be a JSON number .*: amount is out of range/],
    ])('when the amount is written %s, then the answer is 400 PKC_2002, whatever a double makes of it', async (amountText, message) => {
      expectRefusal(await post('/partner/v1/disbursement/quote', quoteBody(amountText)), 400, 'PKC_2002', message);
    });

    test('when the amount has trailing zeros or an exponent, then it is the same amount, never rounded', async () => {
      for (const amountText of ['10.500', '10.50', '1.05E1']) {
        const response = await post('/partner/v1/disbursement/quote', quoteBody(amountText));
        expect({ amountText, status: response.status, amount: response.body.data?.amount }).toEqual({ amountText, status: 200, amount: 10.5 });
      }
    });

    test('when a compressed body carries 1.999999999999999999, then the decoded text is what counts', async () => {
      const response = await post('/partner/v1/disbursement/quote', gzipSync(quoteBody('1.999999999999999999')), { ...jsonHeaders(), 'content-encoding': 'gzip' });

      expectRefusal(response, 400, 'PKC_2002');
    });
  });

  describe('Content-Type', () => {
    test('when a valid JSON body is sent as text/plain or without a Content-Type, then the answer is 400 PKC_2008 saying the Content-Type must be application/json', async () => {
      expectRefusal(await post('/partner/v1/collection/quote', quoteBody('10'), { ...bearer(), 'content-type': 'text/plain' }), 400, 'PKC_2008', 'Content-Type must be application/json (this body was sent as text/plain)');
      expectRefusal(await post('/partner/v1/collection/quote', quoteBody('10'), bearer()), 400, 'PKC_2008', 'Content-Type must be application/json; the body was sent without one');
      expectRefusal(
        await post('/partner/v1/collection/quote', quoteBody('10'), { ...bearer(), 'content-type': 'application/x-www-form-urlencoded' }),
        400,
        'PKC_2008',
        'Content-Type must be application/json (this body was sent as application/x-www-form-urlencoded)',
      );
    });

    test('when the token endpoint gets a form body, then it still works; a text/plain body is 401 PKC_1001 there', async () => {
      const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: partner.clientId, client_secret: partner.clientSecret }).toString();
      const issued = await post('/partner/auth/token', form, { 'content-type': 'application/x-www-form-urlencoded' });
      expect({ status: issued.status, tokenType: issued.body?.token_type }).toEqual({ status: 200, tokenType: 'Bearer' });

      const plain = await post('/partner/auth/token', JSON.stringify({ client_id: partner.clientId, client_secret: partner.clientSecret }), { 'content-type': 'text/plain' });
      expectRefusal(plain, 401, 'PKC_1001');
    });

    test('when a form body holds %00 or bytes that are not UTF-8, then the token endpoint refuses it like an unreadable JSON body (401 PKC_1001)', async () => {
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const nul = await post('/partner/auth/token', `grant_type=client_credentials&client_id=${partner.clientId}%00&client_secret=x`, form);
      const notUtf8 = await post('/partner/auth/token', `grant_type=client_credentials&client_id=${partner.clientId}&client_secret=%E0%A4%A`, form);

      expectRefusal(nul, 401, 'PKC_1001', 'Form field client_id contains a control character');
      expectRefusal(notUtf8, 401, 'PKC_1001', 'Form field client_secret is not valid: percent-encoded bytes must be UTF-8');
    });
  });

  describe('Content-Encoding', () => {
    test.each([
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ])('when a quote body is sent with Content-Encoding %s, then it is decoded and quoted', async (encoding, compress) => {
      const response = await post('/partner/v1/collection/quote', compress(Buffer.from(quoteBody('12.5'))), { ...jsonHeaders(), 'content-encoding': encoding });

      expect({ status: response.status, amount: response.body.data?.amount }).toEqual({ status: 200, amount: 12.5 });
    });

    test('when the compressed bytes do not decode, the encoding is unknown, or the decoded body is over 16 kb, then the answer is 400 PKC_2008 saying which', async () => {
      expectRefusal(await post('/partner/v1/collection/quote', quoteBody('10'), { ...jsonHeaders(), 'content-encoding': 'gzip' }), 400, 'PKC_2008', 'Request body is not valid gzip data');
      expectRefusal(await post('/partner/v1/collection/quote', quoteBody('10'), { ...jsonHeaders(), 'content-encoding': 'br' }), 400, 'PKC_2008', 'Request body is not valid br data');
      expectRefusal(
        await post('/partner/v1/collection/quote', quoteBody('10'), { ...jsonHeaders(), 'content-encoding': 'compress' }),
        400,
        'PKC_2008',
        'Content-Encoding compress is not supported: send the body uncompressed or with one of gzip, deflate or br',
      );
      const bomb = gzipSync(Buffer.from(JSON.stringify({ phone: user.localPhone, amount: 10, currency: 'USD', pad: 'x'.repeat(1_000_000) })));
      expectRefusal(await post('/partner/v1/collection/quote', bomb, { ...jsonHeaders(), 'content-encoding': 'gzip' }), 400, 'PKC_2008', 'Request body is too large');
    });
  });

  describe('echoed input', () => {
    test('when a 4,000-character referenceId is not found, then the 404 message repeats at most 64 characters of it', async () => {
      const response = await get(`/partner/v1/collection/${'A'.repeat(4000)}`);

      expectRefusal(response, 404, 'PKC_6002');
      expect(response.body.message.length).toBeLessThan(200);
      expect(response.body.message).toContain(`${'A'.repeat(64)}…`);
    });

    test('when a refusal names a 4,000-character query parameter, then the name is capped too', async () => {
      const name = 'n'.repeat(4000);

      const unsafe = await get(`/partner/v1/webhooks/deliveries?${name}=%00`);
      const unknown = await get(`/partner/v1/webhooks/deliveries?${name}=1`);

      expectRefusal(unsafe, 400, 'PKC_2008', `Query parameter ${'n'.repeat(64)}… is not valid: ${'n'.repeat(64)}… has the wrong format (expected percent-encoded UTF-8 ${expectedForms.text})`);
      expectRefusal(unknown, 400, 'PKC_2008', `${'n'.repeat(64)}… is not a field of this request: remove it`);
      expect(unknown.body.invalidFields).toEqual([{ field: `${'n'.repeat(64)}…`, problem: 'unknown' }]);
    });
  });
});

/** A request straight to a service, the path exactly as given (as the gateway would forward it, with a partner id). */
function sendDirect(baseUrl: string, path: string): Promise<{ status: number; body: any }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: url.hostname, port: url.port, method: 'GET', path, headers: { 'x-partner-id': '00000000-0000-4000-8000-000000000000', accept: 'application/json' } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: response.statusCode ?? 0, body });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}
