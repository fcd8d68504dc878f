import { z } from 'zod';
import { fields } from './fields';

/**
 * Where TLS ends for a people console (the back-office, the partner dashboard; decision 0067), the
 * settings each console's config shares. terminate: the process serves the console over HTTPS with
 * TLS_CERT_FILE and TLS_KEY_FILE, and on the same port answers plain HTTP only with /healthz,
 * /readyz and /metrics. proxy: plain HTTP behind a TLS-terminating ingress. Unset: terminate when a
 * certificate is given, else proxy, except in production, which must say which.
 */
/**
 * How often a listener that terminates TLS reads its certificate and key files again (seconds; 0:
 * only at start). A renewed pair serves new connections without a restart (libs/http tls-files).
 */
export const tlsReloadIntervalField = z.coerce.number().int().min(0).max(3_600).default(30);

export const consoleTlsConfigFields = {
  TLS_MODE: z.enum(['terminate', 'proxy']).optional(),
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),
  TLS_RELOAD_INTERVAL_SECONDS: tlsReloadIntervalField,
};

/** A console's public address: https://, or http:// only on 127.0.0.1 or localhost. */
export const consolePublicUrlField = fields.url.refine((value) => /^https:\/\//.test(value) || /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(`${value}/`), {
  message: 'must be an https:// address (http:// only on 127.0.0.1 or localhost)',
});

export interface ConsoleTlsSettings {
  ENVIRONMENT: string;
  publicUrl: { key: string; value: string };
  trustedProxyHops: { key: string; value: number };
  TLS_MODE?: 'terminate' | 'proxy' | undefined;
  TLS_CERT_FILE?: string | undefined;
  TLS_KEY_FILE?: string | undefined;
}

/** TLS_MODE as set, or (unset) terminate when a certificate is given and proxy when not. */
export function resolvedConsoleTlsMode(config: { TLS_MODE?: 'terminate' | 'proxy' | undefined; TLS_CERT_FILE?: string | undefined }): 'terminate' | 'proxy' {
  return config.TLS_MODE ?? (config.TLS_CERT_FILE === undefined ? 'proxy' : 'terminate');
}

/**
 * Why a console's TLS settings cannot run, if they cannot. Production never guesses: it names its
 * mode, and in proxy mode trusts at least one proxy hop, so every console request is known to have
 * reached the ingress over HTTPS (X-Forwarded-Proto) and a plain one is redirected, never served.
 */
export function consoleTlsProblems(config: ConsoleTlsSettings): { key: string; message: string }[] {
  const problems: { key: string; message: string }[] = [];
  const { publicUrl, trustedProxyHops } = config;
  if ((config.TLS_CERT_FILE === undefined) !== (config.TLS_KEY_FILE === undefined)) {
    problems.push({ key: 'TLS_KEY_FILE', message: 'TLS_CERT_FILE and TLS_KEY_FILE are set together, or neither' });
  }
  const mode = resolvedConsoleTlsMode(config);
  if (mode === 'terminate') {
    for (const key of ['TLS_CERT_FILE', 'TLS_KEY_FILE'] as const) {
      if (config[key] === undefined) problems.push({ key, message: 'required when TLS_MODE is terminate' });
    }
    if (!publicUrl.value.startsWith('https://')) problems.push({ key: publicUrl.key, message: 'must be https:// when TLS_MODE is terminate' });
  }
  if (config.ENVIRONMENT === 'production') {
    if (config.TLS_MODE === undefined) problems.push({ key: 'TLS_MODE', message: 'must be set in production: terminate (with TLS_CERT_FILE and TLS_KEY_FILE) or proxy (behind a TLS-terminating ingress)' });
    if (mode === 'proxy' && trustedProxyHops.value < 1) {
      problems.push({ key: trustedProxyHops.key, message: 'must be 1 or more in production with TLS_MODE proxy: the ingress tells the console that the browser used HTTPS' });
    }
    if (!publicUrl.value.startsWith('https://')) problems.push({ key: publicUrl.key, message: 'must be https:// in production' });
  }
  return problems;
}
