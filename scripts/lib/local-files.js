// Files npm start keeps under .local/ (git-ignored): the key that encrypts auth's signing keys and
// the key that seals partners' webhook signing secrets, a self-signed TLS pair for localhost, and the
// sandbox partner's credentials. Each is made once and reused, because losing them has a cost: a new
// key cannot open the signing keys or webhook secrets already stored, and the sandbox secrets are
// shown only once.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

/** Certificates this close to expiry are replaced at the next start. */
const certificateRenewBeforeMs = 7 * 24 * 60 * 60 * 1000;
const certificateValidityDays = 365;

function readJsonFile(file) {
  if (!fs.existsSync(file)) return undefined;
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${error.message}); fix or delete it`);
  }
}

/** Writes JSON readable by the owner only: these files hold secrets. */
function writePrivateJsonFile(file, value) {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
}

function isBase64Of32Bytes(value) {
  return typeof value === 'string' && /^[A-Za-z0-9+/]{43}=$/.test(value) && Buffer.from(value, 'base64').length === 32;
}

/**
 * A 32-byte key kept in .local/secrets.json under `name`: from the environment when set, else from
 * the file, else a new random one written there (next to the keys already in it). Returns
 * { value, source }. Each key is made once: a new one cannot open what the old one sealed.
 */
function loadOrCreateLocalKey(name, secretsFile, env = process.env) {
  if (env[name]) return { value: env[name], source: 'environment' };
  const stored = readJsonFile(secretsFile) ?? {};
  if (stored[name] !== undefined) {
    if (!isBase64Of32Bytes(stored[name])) {
      throw new Error(`${secretsFile}: ${name} is not base64 of 32 bytes`);
    }
    return { value: stored[name], source: secretsFile };
  }
  const value = crypto.randomBytes(32).toString('base64');
  writePrivateJsonFile(secretsFile, { ...stored, [name]: value });
  return { value, source: `${secretsFile} (new)` };
}

/** AUTH_KEY_ENCRYPTION_KEY (encrypts auth's token signing keys); see loadOrCreateLocalKey. */
function loadOrCreateAuthKeyEncryptionKey(secretsFile, env = process.env) {
  return loadOrCreateLocalKey('AUTH_KEY_ENCRYPTION_KEY', secretsFile, env);
}

/** WEBHOOK_SECRET_SEALING_KEY (seals partners' webhook signing secrets); see loadOrCreateLocalKey. */
function loadOrCreateWebhookSecretSealingKey(secretsFile, env = process.env) {
  return loadOrCreateLocalKey('WEBHOOK_SECRET_SEALING_KEY', secretsFile, env);
}

function certificateIsUsable(certFile, keyFile) {
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

/**
 * A self-signed P-256 certificate for localhost, 127.0.0.1 and ::1, made with the selfsigned package.
 * It is its own trust anchor: clients pass it as the CA (curl --cacert, Node's `ca`).
 */
async function ensureLocalhostCertificate(certFile, keyFile) {
  if (certificateIsUsable(certFile, keyFile)) return { created: false };
  const selfsigned = require('selfsigned');
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + certificateValidityDays * 24 * 60 * 60 * 1000);
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
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
  return { created: true };
}

module.exports = {
  readJsonFile,
  writePrivateJsonFile,
  loadOrCreateLocalKey,
  loadOrCreateAuthKeyEncryptionKey,
  loadOrCreateWebhookSecretSealingKey,
  ensureLocalhostCertificate,
  certificateIsUsable,
  isBase64Of32Bytes,
};
