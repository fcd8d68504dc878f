// Files npm start keeps under .local/ (git-ignored): the key that encrypts auth's signing keys, the
// key that seals partners' webhook signing secrets, the key that seals operators' TOTP secrets in the
// back-office, a self-signed TLS pair for localhost, and the sandbox partner's credentials. Each is
// made once and reused, because losing them has a cost: a new
// key cannot open the signing keys or webhook secrets already stored, and the sandbox secrets are
// shown only once.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { generate as generateCertificate } from 'selfsigned';
import { asRecord } from './http';
import type { Environment } from './settings';

/** Certificates this close to expiry are replaced at the next start. */
const certificateRenewBeforeMs = 7 * 24 * 60 * 60 * 1000;
const certificateValidityDays = 365;
const dayMs = 24 * 60 * 60 * 1000;

/** A JSON file's object, undefined when the file is missing; throws when it is not a JSON object. */
export function readJsonFile(file: string): Record<string, unknown> | undefined {
  if (!fs.existsSync(file)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}); fix or delete it`);
  }
  const record = asRecord(value);
  if (record === undefined) throw new Error(`${file} is not a JSON object; fix or delete it`);
  return record;
}

/** Writes JSON readable by the owner only: these files hold secrets. */
export function writePrivateJsonFile(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
}

export function isBase64Of32Bytes(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9+/]{43}=$/.test(value) && Buffer.from(value, 'base64').length === 32;
}

export interface LocalKey {
  value: string;
  /** 'environment', the secrets file, or the secrets file with " (new)". */
  source: string;
}

/**
 * A 32-byte key kept in .local/secrets.json under `name`: from the environment when set, else from
 * the file, else a new random one written there (next to the keys already in it). Each key is made
 * once: a new one cannot open what the old one sealed.
 */
export function loadOrCreateLocalKey(name: string, secretsFile: string, env: Environment = process.env): LocalKey {
  const fromEnvironment = env[name];
  if (fromEnvironment) return { value: fromEnvironment, source: 'environment' };
  const stored = readJsonFile(secretsFile) ?? {};
  const recorded = stored[name];
  if (recorded !== undefined) {
    if (!isBase64Of32Bytes(recorded)) throw new Error(`${secretsFile}: ${name} is not base64 of 32 bytes`);
    return { value: recorded, source: secretsFile };
  }
  const value = crypto.randomBytes(32).toString('base64');
  writePrivateJsonFile(secretsFile, { ...stored, [name]: value });
  return { value, source: `${secretsFile} (new)` };
}

/** AUTH_KEY_ENCRYPTION_KEY (encrypts auth's token signing keys); see loadOrCreateLocalKey. */
export function loadOrCreateAuthKeyEncryptionKey(secretsFile: string, env: Environment = process.env): LocalKey {
  return loadOrCreateLocalKey('AUTH_KEY_ENCRYPTION_KEY', secretsFile, env);
}

/** WEBHOOK_SECRET_SEALING_KEY (seals partners' webhook signing secrets); see loadOrCreateLocalKey. */
export function loadOrCreateWebhookSecretSealingKey(secretsFile: string, env: Environment = process.env): LocalKey {
  return loadOrCreateLocalKey('WEBHOOK_SECRET_SEALING_KEY', secretsFile, env);
}

/** BACKOFFICE_SEALING_KEY (seals operators' TOTP secrets: a new key means every operator enrols again); see loadOrCreateLocalKey. */
export function loadOrCreateBackofficeSealingKey(secretsFile: string, env: Environment = process.env): LocalKey {
  return loadOrCreateLocalKey('BACKOFFICE_SEALING_KEY', secretsFile, env);
}

export function loadOrCreateDashboardSealingKey(secretsFile: string, env: Environment = process.env): LocalKey {
  return loadOrCreateLocalKey('DASHBOARD_SEALING_KEY', secretsFile, env);
}

export function certificateIsUsable(certFile: string, keyFile: string): boolean {
  if (!fs.existsSync(certFile) || !fs.existsSync(keyFile)) return false;
  try {
    const certificate = new crypto.X509Certificate(fs.readFileSync(certFile));
    const privateKey = crypto.createPrivateKey(fs.readFileSync(keyFile));
    const expiresAt = new Date(certificate.validTo).getTime();
    return certificate.checkPrivateKey(privateKey) && expiresAt - Date.now() > certificateRenewBeforeMs;
  } catch {
    return false;
  }
}

export interface CertificateOptions {
  /** Marked as a certificate authority that signs itself (the e2e harness's clients want one); else a plain server certificate. */
  authority?: boolean;
  validityDays?: number;
}

/**
 * Writes a new self-signed P-256 certificate for localhost, 127.0.0.1 and ::1, made with the
 * selfsigned package, and its key; resolves the certificate's PEM. It is its own trust anchor:
 * clients pass it as the CA (curl --cacert, Node's `ca`).
 */
export async function createLocalhostCertificate(certFile: string, keyFile: string, { authority = false, validityDays = certificateValidityDays }: CertificateOptions = {}): Promise<string> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + validityDays * dayMs);
  const pems = await generateCertificate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      authority ? { name: 'basicConstraints', cA: true } : { name: 'basicConstraints', cA: false, critical: true },
      authority ? { name: 'keyUsage', digitalSignature: true, keyCertSign: true } : { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  fs.mkdirSync(path.dirname(certFile), { recursive: true, mode: 0o700 });
  fs.mkdirSync(path.dirname(keyFile), { recursive: true, mode: 0o700 });
  fs.writeFileSync(keyFile, pems.private, { mode: 0o600 });
  fs.writeFileSync(certFile, pems.cert, { mode: 0o644 });
  return pems.cert;
}

/** The localhost certificate of createLocalhostCertificate, made only when there is none or it is about to expire. */
export async function ensureLocalhostCertificate(certFile: string, keyFile: string): Promise<{ created: boolean }> {
  if (certificateIsUsable(certFile, keyFile)) return { created: false };
  await createLocalhostCertificate(certFile, keyFile);
  return { created: true };
}
