import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { generate as generateCertificate } from 'selfsigned';
import { isPartnerApiError, PartnerApiClient, type PartnerApiClientOptions, type PartnerApiError } from '../../src';
import { createLocalhostCertificate } from '../../../scripts/lib/local-files';

/**
 * The SDK's trust in a server's certificate, over real TLS: an HTTPS server on 127.0.0.1 presenting
 * the certificate `npm start` makes for the local sandbox (scripts/lib/local-files.ts, self-signed
 * for localhost), answering the token endpoint and the balance as the gateway does. Without `ca` the
 * handshake refuses it and the error names the fix; with `ca` (or NODE_EXTRA_CA_CERTS for the
 * global fetch) the calls go through. An expired certificate and one for another host get their
 * own advice. The TLS is Node's own: nothing is mocked.
 */
const execFileAsync = promisify(execFile);
const repoRoot = path.resolve(__dirname, '../../..');
const balance = { LRD: 1_000_000, USD: 10_000 };

interface TlsPair {
  cert: string;
  key: string;
}

interface RunningServer {
  baseUrl: string;
  /** Requests that reached the server's HTTP layer (a refused handshake sends none). */
  paths: string[];
  close(): Promise<void>;
}

/** A gateway stand-in over HTTPS with the pair: a token for any credentials, and the balance. */
async function startServer(pair: TlsPair): Promise<RunningServer> {
  const paths: string[] = [];
  const server: Server = createServer({ cert: pair.cert, key: pair.key }, (request, response) => {
    paths.push(`${request.method ?? ''} ${request.url ?? ''}`);
    request.resume();
    request.on('end', () => {
      const json = (status: number, body: unknown): void => void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (request.method === 'POST' && request.url === '/api/v1/partner/auth/token') json(200, { access_token: 'token-1', token_type: 'Bearer', expires_in: 3600 });
      else if (request.method === 'GET' && request.url === '/api/v1/partner/v1/balance') json(200, { success: true, data: balance });
      else json(404, { success: false, code: 'PKC_6002', message: 'No such endpoint' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `https://127.0.0.1:${port}/api/v1`,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A self-signed P-256 certificate with the given names and validity (for the cases npm start never makes). */
async function selfSignedPair(options: { dnsName: string; notBeforeDate: Date; notAfterDate: Date }): Promise<TlsPair> {
  const pems = await generateCertificate([{ name: 'commonName', value: options.dnsName }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: options.notBeforeDate,
    notAfterDate: options.notAfterDate,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: options.dnsName }] }],
  });
  return { cert: pems.cert, key: pems.private };
}

async function refusalOf(promise: Promise<unknown>): Promise<PartnerApiError> {
  try {
    await promise;
  } catch (error) {
    if (isPartnerApiError(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

const dayMs = 24 * 60 * 60 * 1000;

describe('the SDK and the server’s TLS certificate', () => {
  let workDirectory: string;
  let certificateFile: string;
  let sandbox: RunningServer;

  beforeAll(async () => {
    workDirectory = mkdtempSync(path.join(os.tmpdir(), 'sdk-certificate-'));
    certificateFile = path.join(workDirectory, 'cert.pem');
    const keyFile = path.join(workDirectory, 'key.pem');
    // The very function npm start uses for .local/tls/cert.pem.
    await createLocalhostCertificate(certificateFile, keyFile);
    sandbox = await startServer({ cert: readFileSync(certificateFile, 'utf8'), key: readFileSync(keyFile, 'utf8') });
  });

  afterAll(async () => {
    await sandbox?.close();
    rmSync(workDirectory, { recursive: true, force: true });
  });

  const clientOf = (baseUrl: string, options: Partial<PartnerApiClientOptions> = {}): PartnerApiClient =>
    new PartnerApiClient({ baseUrl, clientId: 'client', clientSecret: 'secret', retry: { baseDelayMs: 1 }, ...options });

  test('when a client without ca calls the sandbox with its self-signed certificate, then the first call fails once with SDK_NETWORK, nothing reached the server, and the message says to pass ca or set NODE_EXTRA_CA_CERTS', async () => {
    const before = sandbox.paths.length;

    const error = await refusalOf(clientOf(sandbox.baseUrl).getBalance());

    expect({ code: error.code, status: error.status, attempts: error.attempts, outcomeUnknown: error.outcomeUnknown, operationId: error.operationId }).toEqual({
      code: 'SDK_NETWORK',
      status: 0,
      attempts: 1,
      outcomeUnknown: false,
      operationId: 'getAccessToken',
    });
    expect(error.message).toContain('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(error.message).toContain("ca: readFileSync('.local/tls/cert.pem')");
    expect(error.message).toContain('NODE_EXTRA_CA_CERTS=.local/tls/cert.pem');
    expect(sandbox.paths.length).toBe(before);
  });

  test.each([
    ['the certificate file as a Buffer', (file: string) => readFileSync(file)],
    ['the certificate as a string', (file: string) => readFileSync(file, 'utf8')],
    ['a list holding the certificate', (file: string) => [readFileSync(file)]],
  ])('when a client is given %s as ca, then its calls go through over the verified connection', async (_name, caOf) => {
    const before = sandbox.paths.length;

    const answer = await clientOf(sandbox.baseUrl, { ca: caOf(certificateFile) }).getBalance();

    expect(answer).toEqual(balance);
    expect(sandbox.paths.slice(before)).toEqual(['POST /api/v1/partner/auth/token', 'GET /api/v1/partner/v1/balance']);
  });

  test('when a client with the sandbox’s ca calls a server whose certificate another authority made, then it is still refused: ca adds trust in that certificate only', async () => {
    const other = await startServer(await selfSignedPair({ dnsName: 'localhost', notBeforeDate: new Date(Date.now() - 60_000), notAfterDate: new Date(Date.now() + dayMs) }));
    try {
      const error = await refusalOf(clientOf(other.baseUrl.replace('127.0.0.1', 'localhost'), { ca: readFileSync(certificateFile) }).getBalance());

      expect(error.code).toBe('SDK_NETWORK');
      expect(error.message).toContain('DEPTH_ZERO_SELF_SIGNED_CERT');
      expect(other.paths).toEqual([]);
    } finally {
      await other.close();
    }
  });

  test('when the trusted certificate has expired, then the message names CERT_HAS_EXPIRED and says to check the clock or renew it with npm start', async () => {
    const expired = await selfSignedPair({ dnsName: 'localhost', notBeforeDate: new Date(Date.now() - 3 * dayMs), notAfterDate: new Date(Date.now() - dayMs) });
    const server = await startServer(expired);
    try {
      const error = await refusalOf(clientOf(server.baseUrl.replace('127.0.0.1', 'localhost'), { ca: expired.cert }).getBalance());

      expect({ code: error.code, attempts: error.attempts }).toEqual({ code: 'SDK_NETWORK', attempts: 1 });
      expect(error.message).toContain('CERT_HAS_EXPIRED');
      expect(error.message).toContain("check this machine's clock");
      expect(error.message).toContain('npm start');
    } finally {
      await server.close();
    }
  });

  test('when the trusted certificate names another host than baseUrl’s, then the message names ERR_TLS_CERT_ALTNAME_INVALID and the hosts the sandbox’s certificate is for', async () => {
    const elsewhere = await selfSignedPair({ dnsName: 'sandbox.partner-wallet.example', notBeforeDate: new Date(Date.now() - 60_000), notAfterDate: new Date(Date.now() + dayMs) });
    const server = await startServer(elsewhere);
    try {
      const error = await refusalOf(clientOf(server.baseUrl, { ca: elsewhere.cert }).getBalance());

      expect(error.code).toBe('SDK_NETWORK');
      expect(error.message).toContain('ERR_TLS_CERT_ALTNAME_INVALID');
      expect(error.message).toContain('localhost and 127.0.0.1');
    } finally {
      await server.close();
    }
  });

  test('when both ca and fetch are given, then the client refuses to be made: a fetch of your own carries its own CA', () => {
    expect(() => clientOf(sandbox.baseUrl, { ca: 'pem', fetch: async () => Promise.reject(new Error('unused')) })).toThrow('pass ca or fetch, not both');
  });

  test('when the built SDK runs in a Node started with NODE_EXTRA_CA_CERTS naming the certificate, then the global fetch trusts the sandbox without ca', async () => {
    const built = path.join(repoRoot, 'sdk/dist/cjs/index.js');
    if (!existsSync(built)) throw new Error('sdk/dist is missing: run `npm run build` first');
    const script = `
      const { PartnerApiClient } = require(${JSON.stringify(built)});
      new PartnerApiClient({ baseUrl: ${JSON.stringify(sandbox.baseUrl)}, clientId: 'client', clientSecret: 'secret' })
        .getBalance().then((answer) => console.log(JSON.stringify(answer)), (error) => { console.log(JSON.stringify({ code: error.code, message: error.message })); });
    `;

    const { stdout } = await execFileAsync(process.execPath, ['-e', script], { env: { ...process.env, NODE_EXTRA_CA_CERTS: certificateFile }, timeout: 30_000 });

    expect(JSON.parse(stdout)).toEqual(balance);
  });
});
