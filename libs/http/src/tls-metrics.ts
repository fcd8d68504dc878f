import type { Logger } from '@pwa/logging';
import { Gauge, type Registry } from 'prom-client';
import type { TlsCertificateFacts } from './tls-files';

const gaugeName = 'tls_certificate_not_after_seconds';

/**
 * The served certificate's expiry as a gauge (Unix seconds), set at start and at every reload, so
 * an alert sees a certificate running out, or a renewal that never arrived, on the process itself.
 */
export function recordServedCertificate(registry: Registry, facts: TlsCertificateFacts): void {
  const gauge =
    (registry.getSingleMetric(gaugeName) as Gauge | undefined) ??
    new Gauge({ name: gaugeName, help: 'When the TLS certificate this process serves expires (Unix time in seconds); follows a reload of the files.', registers: [registry] });
  gauge.set(Math.floor(facts.notAfter.getTime() / 1_000));
}

/** What a process that terminates TLS does when its certificate is served, reloaded or refused: the gauge and a log line (never the key). */
export function servedCertificateObserver(registry: Registry, logger: Logger) {
  return {
    served: (facts: TlsCertificateFacts): void => recordServedCertificate(registry, facts),
    onReloaded: (facts: TlsCertificateFacts): void => {
      logger.info({ subject: facts.subject, fingerprint256: facts.fingerprint256, notAfter: facts.notAfter.toISOString() }, 'TLS certificate reloaded: new connections get it');
    },
    onRefused: (problem: string): void => {
      logger.warn({ problem }, 'TLS files changed but do not make a working pair yet; the certificate in use stays');
    },
  };
}
