import { accessTokenFor, onboardPartner } from '../../support/partners';
import { startStack } from '../../support/stack';
test('debug', async () => {
  const stack = await startStack();
  try {
    const token = await accessTokenFor(stack.client, await onboardPartner(stack));
    const r = await stack.client.request('POST', '/partner/v1/collection/quote', { bearer: token, rawBody: '{"phone": ', headers: { 'content-type': 'application/json' } });
    console.log(r.status, r.text);
    const r2 = await stack.client.get('/partner/v1/balance', { bearer: token });
    console.log(r2.status, r2.text, r2.headers);
    console.log(stack.logs().split('\n').filter((l) => l.startsWith('[gateway')).join('\n'));
  } finally { await stack.stop(); }
});
