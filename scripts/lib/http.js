// Small HTTP(S) helpers for the scripts: one request with a deadline, and polling a readiness URL.
'use strict';
const http = require('node:http');
const https = require('node:https');

const requestTimeoutMs = 3000;

/**
 * Sends one request and resolves { status, headers, text, json } (json is undefined when the body
 * is not JSON). Rejects on network errors and on timeout. `ca` trusts a certificate for HTTPS.
 * Without `agent` every request has a connection of its own; with one (keep-alive) it reuses them.
 */
function request(rawUrl, { method = 'GET', headers = {}, body, ca, timeoutMs = requestTimeoutMs, agent = false } = {}) {
  const url = new URL(rawUrl);
  const transport = url.protocol === 'https:' ? https : http;
  const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const options = {
    method,
    headers: { ...headers, ...(payload ? { 'content-length': String(payload.length) } : {}) },
    timeout: timeoutMs,
    agent,
    ...(ca ? { ca } : {}),
  };
  return new Promise((resolve, reject) => {
    const outgoing = transport.request(url, options, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: response.statusCode, headers: response.headers, text, json });
      });
      response.on('error', reject);
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`${method} ${rawUrl} timed out after ${timeoutMs} ms`)));
    outgoing.on('error', reject);
    if (payload) outgoing.write(payload);
    outgoing.end();
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls url until it answers 200. Rejects after timeoutMs, or as soon as `gaveUp()` returns a
 * reason (the process behind the URL died, say). Returns the milliseconds it took.
 */
async function waitUntilReady(url, { timeoutMs, gaveUp = () => undefined, intervalMs = 250 }) {
  const startedAt = Date.now();
  let lastProblem = 'no answer yet';
  for (;;) {
    const reason = gaveUp();
    if (reason) throw new Error(reason);
    try {
      const response = await request(url, { timeoutMs: 2000 });
      if (response.status === 200) return Date.now() - startedAt;
      lastProblem = `HTTP ${response.status} ${response.text.slice(0, 300)}`;
    } catch (error) {
      lastProblem = error.message;
    }
    if (Date.now() - startedAt > timeoutMs) {
      throw new Error(`${url} not ready after ${Math.round(timeoutMs / 1000)} s (last: ${lastProblem})`);
    }
    await sleep(intervalMs);
  }
}

module.exports = { request, waitUntilReady, sleep };
