import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { onboardPartner } from '../support/partners';
import { probeHttp } from '../support/process-probe';
import { entryOf, repoRoot, startStack, type Stack } from '../support/stack';
import { createWalletUser, creditWallet, type WalletUser } from '../support/wallet-users';

/**
 * Graceful shutdown (libs/runtime gracefulShutdown) of a real service process: on SIGTERM /readyz
 * answers 503 while the listener still serves (SHUTDOWN_DRAIN_DELAY_MS), a request in flight
 * finishes, and the process exits 0; past SHUTDOWN_TIMEOUT_MS it exits 1. The slow request is a
 * wallet posting held by the sandbox fault injection (WALLET_POST_DELAY_MS).
 */
let stack: Stack;
let partnerId: string;
let user: WalletUser;

beforeAll(async () => {
  stack = await startStack();
  partnerId = (await onboardPartner(stack)).partnerId;
  user = await createWalletUser(stack);
  await creditWallet(stack, user, 'USD', '100.00');
}, 120_000);

afterAll(async () => {
  await stack.stop();
});

interface WalletProcess {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code, and how long after `since` it came. */
  exited: Promise<{ code: number | null; atMs: number }>;
  output: () => string;
}

async function startWallet(env: Record<string, string>): Promise<WalletProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [entryOf('wallet')], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', ENVIRONMENT: 'sandbox', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: stack.databaseUrl, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; atMs: number }>((resolve) => child.once('exit', (code) => resolve({ code, atMs: Date.now() })));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while ((await probeHttp(`${url}/readyz`)) !== 200) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`wallet did not become ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, child, exited, output: () => output };
}

/** A collection posting the wallet holds for WALLET_POST_DELAY_MS before it claims the transfer id. */
function postSlowTransfer(walletUrl: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const body = JSON.stringify({
    transferId: randomUUID(),
    type: 'collection',
    partnerId,
    phone: user.phone,
    currency: 'USD',
    amountMinor: '100',
    feeMinor: '0',
    reference: 'graceful shutdown e2e',
  });
  return requestJson(`${walletUrl}/internal/transfers`, 'POST', body);
}

function requestJson(url: string, method: string, body?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, agent: false, headers: body === undefined ? {} : { 'content-type': 'application/json' } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => {
        try {
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> });
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

function metricsText(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(`${url}/metrics`, { agent: false }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () => resolve(text));
      })
      .on('error', reject);
  });
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('graceful shutdown', () => {
  test('when SIGTERM arrives during a slow request, then readiness turns false first, the request completes and the process exits 0 within the bound', async () => {
    const wallet = await startWallet({ WALLET_POST_DELAY_MS: '3000', SHUTDOWN_DRAIN_DELAY_MS: '1000', SHUTDOWN_TIMEOUT_MS: '15000' });
    expect(await metricsText(wallet.url)).toMatch(/^service_ready\{service="wallet"\} 1$/m);

    const inFlight = postSlowTransfer(wallet.url);
    await sleep(300);
    const signalledAtMs = Date.now();
    wallet.child.kill('SIGTERM');

    // Within the drain delay the listener still answers, and says it is not ready.
    await sleep(200);
    const readiness = await requestJson(`${wallet.url}/readyz`, 'GET');
    expect(readiness).toMatchObject({ status: 503, body: { status: 'draining' } });
    expect(await metricsText(wallet.url)).toMatch(/^service_ready\{service="wallet"\} 0$/m);

    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'posted' });

    const { code, atMs } = await wallet.exited;
    expect(code).toBe(0);
    expect(atMs - signalledAtMs).toBeLessThan(15_000);
    // The request held the stop: it cannot have ended before the posting delay did.
    expect(atMs - signalledAtMs).toBeGreaterThanOrEqual(2_000);
    expect(wallet.output()).toContain('"msg":"stopped"');
    expect(await probeHttp(`${wallet.url}/healthz`)).toBe(0);
  });

  test('when the stop takes longer than SHUTDOWN_TIMEOUT_MS, then the process logs it and exits 1 at the bound', async () => {
    const wallet = await startWallet({ WALLET_POST_DELAY_MS: '8000', SHUTDOWN_DRAIN_DELAY_MS: '0', SHUTDOWN_TIMEOUT_MS: '1500' });
    const inFlight = postSlowTransfer(wallet.url).catch((error: unknown) => error);
    await sleep(300);
    const signalledAtMs = Date.now();
    wallet.child.kill('SIGTERM');

    const { code, atMs } = await wallet.exited;
    expect(code).toBe(1);
    expect(atMs - signalledAtMs).toBeGreaterThanOrEqual(1_400);
    expect(atMs - signalledAtMs).toBeLessThan(5_000);
    expect(wallet.output()).toContain('graceful stop exceeded SHUTDOWN_TIMEOUT_MS');
    await inFlight;
  });
});
