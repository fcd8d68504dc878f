import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { Registry } from 'prom-client';
import { generate } from 'selfsigned';
import { listenTlsDispatcher, recordServedCertificate, type RunningDispatcher, type TlsCertificateFacts } from '../../src';

/**
 * A renewed certificate is served without a restart and without one refused request: the real
 * dispatcher on 127.0.0.1, new connections and a kept-alive one sending requests the whole time,
 * the files rewritten as a renewal does (the key first, so for a moment the pair does not match,
 * then the certificate). The pair in use stays until the new one is whole; then every new
 * connection gets the new certificate, and the gauge says its expiry.
 */
/** A self-signed certificate for localhost under its own name (two anchors of one name would confuse the client's chain building). */
async function writeCertificate(files: { certFile: string; keyFile: string }, name: string, validityDays = 30): Promise<string> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const pems = await generate([{ name: 'commonName', value: name }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate: new Date(notBeforeDate.getTime() + validityDays * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] },
    ],
  });
  fs.writeFileSync(files.keyFile, pems.private);
  fs.writeFileSync(files.certFile, pems.cert);
  return pems.cert;
}

describe('the TLS dispatcher reloads its certificate files', () => {
  let directory: string;
  let dispatcher: RunningDispatcher | undefined;

  beforeEach(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'pwa-tls-reload-'));
  });

  afterEach(async () => {
    await dispatcher?.stop();
    dispatcher = undefined;
    fs.rmSync(directory, { recursive: true, force: true });
  });

  test('when the key and then the certificate are replaced under traffic, then no request fails and new connections get the new certificate', async () => {
    const files = { certFile: path.join(directory, 'tls.crt'), keyFile: path.join(directory, 'tls.key') };
    const first = await writeCertificate(files, 'tls reload first', 10);
    const renewal = { certFile: path.join(directory, 'next.crt'), keyFile: path.join(directory, 'next.key') };
    const second = await writeCertificate(renewal, 'tls reload second', 90);
    const fingerprintOf = (pem: string): string => new X509Certificate(pem).fingerprint256;
    const reloaded: TlsCertificateFacts[] = [];
    const refused: string[] = [];
    const registry = new Registry();
    dispatcher = await listenTlsDispatcher(
      {
        tls: {
          files,
          intervalMs: 50,
          onReloaded: (facts) => {
            reloaded.push(facts);
            recordServedCertificate(registry, facts);
          },
          onRefused: (problem) => refused.push(problem),
        },
        secureHandler: (_req, res) => res.end('ok'),
        plainHandler: (_req, res) => res.end('plain'),
        requestTimeoutMs: 5_000,
        stopGraceMs: 500,
      },
      0,
      '127.0.0.1',
    );
    recordServedCertificate(registry, dispatcher.certificate);
    expect(dispatcher.certificate.fingerprint256).toBe(fingerprintOf(first));
    const port = dispatcher.port;
    const keptAlive = new https.Agent({ keepAlive: true, maxSockets: 1, ca: [first, second] });

    /** One request; the fingerprint of the certificate its connection was given. */
    const ask = (agent: https.Agent | false): Promise<string> =>
      new Promise((resolve, reject) => {
        const request = https.request({ host: '127.0.0.1', port, path: '/', servername: 'localhost', agent, ca: [first, second], timeout: 5_000 }, (response) => {
          const fingerprint = (response.socket as TLSSocket).getPeerX509Certificate()?.fingerprint256 ?? 'none';
          response.resume();
          response.on('end', () => (response.statusCode === 200 ? resolve(fingerprint) : reject(new Error(`status ${String(response.statusCode)}`))));
        });
        request.on('timeout', () => request.destroy(new Error('timeout')));
        request.on('error', reject);
        request.end();
      });

    const failures: string[] = [];
    const seen = new Set<string>();
    let sent = 0;
    let sending = true;
    const traffic = (async () => {
      const deadline = Date.now() + 15_000;
      while (sending && Date.now() < deadline) {
        const answers = await Promise.allSettled([ask(false), ask(keptAlive)]);
        sent += answers.length;
        answers.forEach((answer, index) => {
          // A kept-alive (or resumed) connection may not show its peer certificate again: new connections tell which one is served.
          if (answer.status === 'fulfilled' && index === 0) seen.add(answer.value);
          if (answer.status === 'rejected') failures.push(String(answer.reason));
        });
      }
    })();

    await new Promise((resolve) => setTimeout(resolve, 300));
    // The renewal lands in two writes: the key, then (after the watcher has read the mismatched pair) the certificate.
    fs.copyFileSync(renewal.keyFile, files.keyFile);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reloaded).toEqual([]);
    fs.copyFileSync(renewal.certFile, files.certFile);
    const until = Date.now() + 5_000;
    while (reloaded.length === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 25));
    expect((await ask(false))).toBe(fingerprintOf(second));
    await new Promise((resolve) => setTimeout(resolve, 200));
    sending = false;
    await traffic;
    keptAlive.destroy();

    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(20);
    expect(seen).toEqual(new Set([fingerprintOf(first), fingerprintOf(second)]));
    expect(refused).toEqual([expect.stringMatching(/key values mismatch|mismatch/i)]);
    expect(reloaded.map((facts) => facts.fingerprint256)).toEqual([fingerprintOf(second)]);
    const gauge = (await registry.getSingleMetricAsString('tls_certificate_not_after_seconds')).split('\n').find((line) => line.startsWith('tls_certificate_not_after_seconds '));
    expect(Number(gauge?.split(' ')[1])).toBe(Math.floor(new Date(new X509Certificate(second).validTo).getTime() / 1_000));
  });

  test('when the interval is 0, then the files are read only at start', async () => {
    const files = { certFile: path.join(directory, 'tls.crt'), keyFile: path.join(directory, 'tls.key') };
    const first = await writeCertificate(files, 'tls reload first');
    const reloaded: TlsCertificateFacts[] = [];
    dispatcher = await listenTlsDispatcher(
      { tls: { files, intervalMs: 0, onReloaded: (facts) => reloaded.push(facts) }, secureHandler: (_req, res) => res.end('ok'), plainHandler: (_req, res) => res.end('plain'), requestTimeoutMs: 5_000, stopGraceMs: 500 },
      0,
      '127.0.0.1',
    );
    await writeCertificate(files, 'tls reload second');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reloaded).toEqual([]);
    expect(dispatcher.certificate.fingerprint256).toBe(new X509Certificate(first).fingerprint256);
  });
});
