import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { errorEnvelope } from '@pwa/errors';
import { listen, listenTlsDispatcher, sendErrorEnvelope, type servedCertificateObserver } from '@pwa/http';

/** What plain HTTP may still reach when a console terminates TLS: the probes and Prometheus, nothing of a person's. */
const operationalPaths: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

export type PlainHttpOutcome = 'redirected' | 'refused';

/** Where TLS ends for a console (decision 0067) and what it says when a browser came over plain HTTP. */
export interface ConsoleListenerSettings {
  TLS_MODE: 'terminate' | 'proxy';
  TLS_CERT_FILE?: string | undefined;
  TLS_KEY_FILE?: string | undefined;
  PORT: number;
  HOST: string;
  SHUTDOWN_TIMEOUT_MS: number;
  /** How often the certificate and key files are read again (0: only at start). */
  TLS_RELOAD_INTERVAL_SECONDS: number;
  /** The console's https origin, where a plain request is sent. */
  consoleOrigin: string;
  /** The console's name in the refusal ("the back-office", "the dashboard"). */
  consoleName: string;
}

/**
 * A console's listener: HTTPS and plain HTTP on one port (terminate: plain answers the probes and
 * metrics only, redirects a browser's GET to the https address and refuses the rest unread), or
 * plain behind a TLS-terminating ingress (proxy).
 */
export async function listenConsole(
  settings: ConsoleListenerSettings,
  app: RequestListener,
  onPlain: (outcome: PlainHttpOutcome) => void,
  certificates: Partial<ReturnType<typeof servedCertificateObserver>> = {},
): Promise<{ port: number; close: () => Promise<void> }> {
  if (settings.TLS_MODE === 'proxy') return listen(app, settings.PORT, settings.HOST);
  const dispatcher = await listenTlsDispatcher(
    {
      tls: {
        files: { certFile: requiredSetting('TLS_CERT_FILE', settings.TLS_CERT_FILE), keyFile: requiredSetting('TLS_KEY_FILE', settings.TLS_KEY_FILE) },
        intervalMs: settings.TLS_RELOAD_INTERVAL_SECONDS * 1_000,
        onReloaded: (facts) => {
          certificates.served?.(facts);
          certificates.onReloaded?.(facts);
        },
        ...(certificates.onRefused === undefined ? {} : { onRefused: certificates.onRefused }),
      },
      secureHandler: app,
      plainHandler: plainHandler(app, settings, onPlain),
      requestTimeoutMs: 60_000,
      stopGraceMs: Math.max(1_000, settings.SHUTDOWN_TIMEOUT_MS - 1_000),
    },
    settings.PORT,
    settings.HOST,
  );
  certificates.served?.(dispatcher.certificate);
  return { port: dispatcher.port, close: dispatcher.stop };
}

/** The config schema requires both files in terminate mode; this keeps the types honest. */
function requiredSetting(name: string, path: string | undefined): string {
  if (path === undefined) throw new Error(`${name} is required when TLS_MODE is terminate`);
  return path;
}

/**
 * Plain HTTP on the HTTPS port: the probes and Prometheus get /healthz, /readyz and /metrics; a
 * browser that typed http:// is redirected (GET, HEAD) to the same path at the console's https
 * address, never to the Host it sent; anything else is refused unread, so a form or a session
 * cookie sent in clear goes nowhere.
 */
function plainHandler(app: RequestListener, settings: Pick<ConsoleListenerSettings, 'consoleOrigin' | 'consoleName'>, onPlain: (outcome: PlainHttpOutcome) => void): RequestListener {
  return (req, res) => {
    const path = pathOf(req);
    if (path !== undefined && operationalPaths.has(path) && (req.method === 'GET' || req.method === 'HEAD')) {
      app(req, res);
      return;
    }
    answerPlainHttp(req, res, settings, onPlain);
  };
}

function pathOf(req: IncomingMessage): string | undefined {
  const target = req.url ?? '';
  if (!target.startsWith('/')) return undefined;
  return target.split('?')[0];
}

function answerPlainHttp(req: IncomingMessage, res: ServerResponse, settings: Pick<ConsoleListenerSettings, 'consoleOrigin' | 'consoleName'>, onPlain: (outcome: PlainHttpOutcome) => void): void {
  const target = req.url ?? '/';
  if ((req.method === 'GET' || req.method === 'HEAD') && target.startsWith('/') && !target.startsWith('//')) {
    onPlain('redirected');
    res.writeHead(308, { Location: `${settings.consoleOrigin}${target}`, 'Content-Length': '0', 'Cache-Control': 'no-store', Connection: 'close' });
    res.end();
    return;
  }
  onPlain('refused');
  const body = JSON.stringify(errorEnvelope('PKC_6005', httpsRequiredMessage(settings)));
  res.writeHead(403, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', Connection: 'close' });
  res.end(body);
}

function httpsRequiredMessage({ consoleOrigin, consoleName }: Pick<ConsoleListenerSettings, 'consoleOrigin' | 'consoleName'>): string {
  return `HTTPS is required: ${consoleName} does not accept plain HTTP. Open ${consoleOrigin} instead.`;
}

/**
 * Proxy mode behind a trusted ingress: express's req.protocol reads X-Forwarded-Proto from the
 * trusted hops only, so a console request the browser sent over plain HTTP is redirected (GET,
 * HEAD) or refused, and a client reaching the pod directly cannot claim HTTPS by a header alone.
 */
export function requireForwardedHttps(settings: Pick<ConsoleListenerSettings, 'consoleOrigin' | 'consoleName'>, onPlain: (outcome: PlainHttpOutcome) => void): RequestHandler {
  return (req, res, next) => {
    if (req.protocol === 'https') {
      next();
      return;
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      onPlain('redirected');
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(308, `${settings.consoleOrigin}${req.originalUrl.startsWith('/') && !req.originalUrl.startsWith('//') ? req.originalUrl : '/'}`);
      return;
    }
    onPlain('refused');
    res.setHeader('Connection', 'close');
    sendErrorEnvelope(res, 403, 'PKC_6005', httpsRequiredMessage(settings));
  };
}
