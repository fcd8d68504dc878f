import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { X509Certificate } from 'node:crypto';

/**
 * The certificate and key a listener terminates TLS with, read from files and read again while it
 * runs, so a renewed certificate (cert-manager rewriting a Secret, an operator copying files) is
 * served to new connections without a restart and without refusing any request: a pair is taken
 * only when the key matches the certificate (a half-written renewal keeps the pair in use until the
 * other file follows), and connections already open keep the context they began with.
 */
export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

export interface TlsPair {
  cert: Buffer;
  key: Buffer;
}

/** What a newly taken certificate is: for the log line and the expiry gauge (never the key). */
export interface TlsCertificateFacts {
  subject: string;
  fingerprint256: string;
  notAfter: Date;
}

export function readTlsPair(files: TlsFiles): TlsPair {
  return { cert: readFileSync(files.certFile), key: readFileSync(files.keyFile) };
}

export function certificateFactsOf(cert: Buffer): TlsCertificateFacts {
  const certificate = new X509Certificate(cert);
  return { subject: certificate.subject, fingerprint256: certificate.fingerprint256, notAfter: new Date(certificate.validTo) };
}

/** Why a pair cannot serve (the key does not match, a file is not PEM), or undefined when it can. */
export function tlsPairProblem(pair: TlsPair): string | undefined {
  try {
    createSecureContext({ cert: pair.cert, key: pair.key });
    certificateFactsOf(pair.cert);
    return undefined;
  } catch (error) {
    return messageOf(error);
  }
}

export interface TlsFileWatch {
  files: TlsFiles;
  /** How often the files are read again; 0 reads them only at start. */
  intervalMs: number;
  /** A new pair was taken: its certificate's facts. */
  onReloaded?: (facts: TlsCertificateFacts) => void;
  /** Changed files that cannot serve (yet): the pair in use stays. Said once per content. */
  onRefused?: (problem: string) => void;
}

/**
 * Reads the files every `intervalMs`; when their bytes differ from the pair in use and make a
 * working pair, hands it to `apply`. Returns the stop function (the timer does not hold the
 * process open).
 */
export function watchTlsFiles(watch: TlsFileWatch, inUse: TlsPair, apply: (pair: TlsPair) => void): () => void {
  if (watch.intervalMs <= 0) return () => undefined;
  let current = inUse;
  let refusedContent: string | undefined;
  const timer = setInterval(() => {
    let next: TlsPair;
    try {
      next = readTlsPair(watch.files);
    } catch (error) {
      const problem = `cannot read the TLS files: ${messageOf(error)}`;
      if (refusedContent !== problem) watch.onRefused?.(problem);
      refusedContent = problem;
      return;
    }
    if (next.cert.equals(current.cert) && next.key.equals(current.key)) return;
    const problem = tlsPairProblem(next);
    if (problem !== undefined) {
      const content = `${next.cert.toString('base64')}:${next.key.length}`;
      if (refusedContent !== content) watch.onRefused?.(problem);
      refusedContent = content;
      return;
    }
    apply(next);
    current = next;
    refusedContent = undefined;
    watch.onReloaded?.(certificateFactsOf(next.cert));
  }, watch.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** An error's message, also for an error made in another realm (node:tls under a test runner's VM). */
function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : 'unreadable';
}
