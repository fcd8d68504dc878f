import http from 'node:http';
import express from 'express';
import { Registry } from 'prom-client';
import { beginDraining, operationalRoutes, resetDrainingForTests } from '../../src/health';
import { listen, type RunningServer } from '../../src/server';

function get(port: number, path: string, agent: http.Agent | false = false): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body, connection: response.headers.connection }));
      })
      .on('error', reject);
  });
}

describe('draining readiness', () => {
  let server: RunningServer;
  const registry = new Registry();

  beforeAll(async () => {
    const app = express();
    app.use(operationalRoutes(registry, [{ name: 'postgres', check: () => Promise.resolve() }]));
    server = await listen(app, 0, '127.0.0.1');
  });

  afterAll(async () => {
    resetDrainingForTests();
    await server.close();
  });

  test('when the process starts draining, then /readyz answers 503 draining and service_ready reads 0 while /healthz stays 200', async () => {
    expect((await get(server.port, '/readyz')).status).toBe(200);
    expect(await registry.getSingleMetricAsString('service_ready')).toContain('service_ready 1');

    beginDraining();

    const readiness = await get(server.port, '/readyz');
    expect(readiness.status).toBe(503);
    expect(JSON.parse(readiness.body)).toMatchObject({ status: 'draining' });
    expect(await registry.getSingleMetricAsString('service_ready')).toContain('service_ready 0');
    expect((await get(server.port, '/healthz')).status).toBe(200);
  });
});

describe('closeServer', () => {
  test('when a keep-alive client holds an idle connection and a slow request is in flight, then close waits for the request and nothing else', async () => {
    const app = express();
    app.get('/fast', (_req, res) => res.json({ ok: true }));
    app.get('/slow', (_req, res) => {
      setTimeout(() => res.json({ slow: true }), 400);
    });
    const server = await listen(app, 0, '127.0.0.1');
    const agent = new http.Agent({ keepAlive: true });
    try {
      await get(server.port, '/fast', agent);
      const slow = get(server.port, '/slow');
      await new Promise((resolve) => setTimeout(resolve, 50));
      const startedAt = Date.now();
      await server.close();
      const closedAfterMs = Date.now() - startedAt;
      const answer = await slow;
      expect(answer.status).toBe(200);
      expect(answer.body).toBe('{"slow":true}');
      expect(closedAfterMs).toBeGreaterThanOrEqual(250);
      expect(closedAfterMs).toBeLessThan(2_000);
    } finally {
      agent.destroy();
    }
  });
});
