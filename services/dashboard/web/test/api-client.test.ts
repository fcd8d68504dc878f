import { ApiRefusal, createApiClient } from '../../../../libs/console-web/pages/api-client';

/** The consoles' API client against answers made here: which 401 sends the person to sign-in. */
describe('the consoles’ API client and a 401', () => {
  const answerWith = (status: number, body: unknown): void => {
    jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
  };
  afterEach(() => jest.restoreAllMocks());

  async function refusalAndSignOut(path: string): Promise<{ refusal: ApiRefusal; signedOut: number }> {
    const client = createApiClient({ consoleName: 'The dashboard', publicPrefixes: ['/api/v1/sign-in'] });
    let signedOut = 0;
    client.whenSignedOut(() => (signedOut += 1));
    const refusal = await client.api('POST', path, {}).then(
      () => {
        throw new Error('the call was answered as a success');
      },
      (error: unknown) => error as ApiRefusal,
    );
    return { refusal, signedOut };
  }

  test('when the session is gone (CON_1004), then the person is sent to sign-in', async () => {
    answerWith(401, { success: false, code: 'CON_1004', message: 'Not signed in, or the session ended: sign in again' });
    await expect(refusalAndSignOut('/api/v1/members')).resolves.toMatchObject({ refusal: { status: 401, code: 'CON_1004' }, signedOut: 1 });
  });

  test('when a 401 carries no catalogue code (a proxy answered), then the person is sent to sign-in', async () => {
    answerWith(401, '<html>Unauthorized</html>');
    await expect(refusalAndSignOut('/api/v1/members')).resolves.toMatchObject({ refusal: { status: 401, code: 'HTTP_401' }, signedOut: 1 });
  });

  test.each(['CON_1012', 'CON_1009', 'CON_1003'])('when a change is refused with %s (a fresh code, a passkey, a code), then the page shows it and the session stands', async (code) => {
    answerWith(401, { success: false, code, message: 'the catalogue message' });
    await expect(refusalAndSignOut('/api/v1/members')).resolves.toMatchObject({ refusal: { status: 401, code, message: 'the catalogue message' }, signedOut: 0 });
  });

  test('when sign-in itself answers 401, then it is the sign-in page’s to show', async () => {
    answerWith(401, { success: false, code: 'CON_1004', message: 'Not signed in' });
    await expect(refusalAndSignOut('/api/v1/sign-in/password')).resolves.toMatchObject({ signedOut: 0 });
  });
});
