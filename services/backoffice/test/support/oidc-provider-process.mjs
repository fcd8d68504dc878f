// A real OpenID Connect provider (oidc-provider, ESM-only, hence a child process) for the
// back-office's tests. It listens on 127.0.0.1 on a free port and prints `listening <port>`.
// Settings come as JSON in OIDC_TEST_PROVIDER: the client (id, secret, redirect URI) and the
// accounts by id ({ email, email_verified, amr }). There is no login page: the interaction signs
// in the account the authorization request names in login_hint, with that account's amr, and
// grants the openid and email scopes, so a test follows the redirects with fetch and cookies.
import http from 'node:http';
import Provider from 'oidc-provider';

const settings = JSON.parse(process.env.OIDC_TEST_PROVIDER ?? '{}');
const accounts = settings.accounts ?? {};

const server = http.createServer();
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  const provider = new Provider(`http://127.0.0.1:${port}`, {
    clients: [
      {
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
        redirect_uris: [settings.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    // amr with the openid scope: the ID token says how the person signed in (a standalone claim would need the claims parameter).
    claims: { openid: ['sub', 'amr', 'acr', 'auth_time'], email: ['email', 'email_verified'] },
    scopes: ['openid', 'email'],
    cookies: { keys: ['oidc-test-provider-cookie-key-0123456789'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    findAccount: (_ctx, id) => {
      const account = accounts[id];
      if (!account) return undefined;
      return { accountId: id, claims: () => ({ sub: id, email: account.email, email_verified: account.email_verified }) };
    },
  });
  const oidc = provider.callback();
  server.on('request', (req, res) => {
    const interaction = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
    if (!interaction) {
      oidc(req, res);
      return;
    }
    finishInteraction(provider, req, res).catch((error) => {
      res.statusCode = 500;
      res.end(String(error?.message ?? error));
    });
  });
  process.stdout.write(`listening ${port}\n`);
});

async function finishInteraction(provider, req, res) {
  const details = await provider.interactionDetails(req, res);
  const accountId = details.params.login_hint;
  const account = typeof accountId === 'string' ? accounts[accountId] : undefined;
  if (!account) {
    await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'no such test account' }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = new provider.Grant({ accountId, clientId: details.params.client_id });
  grant.addOIDCScope('openid email');
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { login: { accountId, amr: account.amr ?? ['pwd'] }, consent: { grantId } }, { mergeWithLastSubmission: false });
}

process.on('SIGTERM', () => server.close(() => process.exit(0)));
