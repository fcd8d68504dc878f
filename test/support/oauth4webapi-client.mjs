// A partner's client built on oauth4webapi, which is published as ESM only: Jest here runs
// CommonJS, so test/support/oauth4webapi.ts runs this script in a child `node` process. It reads
// one plan as JSON on stdin, carries it out with oauth4webapi exactly as its documentation shows,
// and prints one JSON result on stdout. The stack's CA certificate reaches the library through its
// customFetch option (an undici Agent that trusts that certificate and nothing else).
import * as oauth from 'oauth4webapi';
import { Agent, fetch as undiciFetch } from 'undici';

const plan = JSON.parse(await readStdin());
const dispatcher = new Agent({ connect: { ca: plan.caPem } });
const options = { [oauth.customFetch]: (url, init) => undiciFetch(url, { ...init, dispatcher }) };
const authorizationServer = { issuer: plan.issuer, token_endpoint: plan.tokenEndpoint };
const client = { client_id: plan.clientId };
const clientAuthentication = plan.method === 'client_secret_basic' ? oauth.ClientSecretBasic(plan.clientSecret) : oauth.ClientSecretPost(plan.clientSecret);

try {
  process.stdout.write(JSON.stringify(await carryOut(plan)));
} finally {
  await dispatcher.close();
}

async function carryOut(step) {
  const token = await requestToken();
  if (!token.ok || step.resourceUrl === undefined) return { token };
  return { token, resource: await callResource(step.resourceUrl, token.accessToken) };
}

/** The client credentials grant; a refusal is reported as the library surfaced it. */
async function requestToken() {
  try {
    const response = await oauth.clientCredentialsGrantRequest(authorizationServer, client, clientAuthentication, plan.parameters ?? {}, options);
    const result = await oauth.processClientCredentialsResponse(authorizationServer, client, response);
    return { ok: true, accessToken: result.access_token, tokenType: result.token_type, expiresIn: result.expires_in };
  } catch (error) {
    return { ok: false, ...(await describeError(error)) };
  }
}

/** A bearer request with the token, as oauth4webapi makes them (RFC 6750 challenges are checked). */
async function callResource(url, accessToken) {
  try {
    const response = await oauth.protectedResourceRequest(accessToken, 'GET', new URL(url), { accept: 'application/json' }, null, options);
    return { ok: true, status: response.status, body: await response.json() };
  } catch (error) {
    return { ok: false, ...(await describeError(error)) };
  }
}

async function describeError(error) {
  const response = error?.response;
  // A ResponseBodyError has read the body already (its cause); other errors leave it to be read.
  const body = error?.name === 'ResponseBodyError' ? error.cause : await response?.clone().json().catch(() => undefined);
  return {
    name: error?.name,
    code: error?.code,
    status: response?.status,
    // ResponseBodyError: the RFC 6749 body the library parsed; WWWAuthenticateChallengeError: the challenges.
    error: error?.error,
    challenges: error?.name === 'WWWAuthenticateChallengeError' ? error.cause : undefined,
    wwwAuthenticate: response?.headers.get('www-authenticate') ?? undefined,
    body,
  };
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
