import type { JsonValue } from './audit-entry';

/**
 * Words that make a key look secret. A key is compared in lower case with everything but letters
 * and digits removed, so `clientSecret`, `client_secret`, `X-Session-Id` and `Set-Cookie` all match.
 * The rule refuses on doubt: a harmless key that matches (`sessionTimeoutMs`) is named otherwise
 * by the caller (`idleTimeoutMs`), which costs less than a secret in an append-only log.
 */
export const secretKeyWords: readonly string[] = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'totp',
  'session',
  'cookie',
  'authorization',
  'apikey',
  'privatekey',
];

/** How deep a value is searched; a deeper value is refused by the entry's validation first. */
const depthMax = 64;
const shownKeyLengthMax = 40;

export function keyLooksSecret(key: string): boolean {
  const normalised = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  return secretKeyWords.some((word) => normalised.includes(word));
}

/**
 * The path of the first key that looks secret (`after.credentials[0].clientSecret`), or undefined.
 * Only key names appear in the path, never a value.
 */
export function findSecretKeyPath(value: JsonValue, rootName: string): string | undefined {
  return search(value, rootName, 0);
}

function search(value: JsonValue, path: string, depth: number): string | undefined {
  if (value === null || typeof value !== 'object' || depth > depthMax) return undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = search(item, `${path}[${index}]`, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyPath = `${path}${pathStepOf(key)}`;
    if (keyLooksSecret(key)) return keyPath;
    const found = search(item, keyPath, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function pathStepOf(key: string): string {
  if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) && key.length <= shownKeyLengthMax) return `.${key}`;
  const shown = key.length <= shownKeyLengthMax ? key : `${key.slice(0, shownKeyLengthMax)}…`;
  return `[${JSON.stringify(shown)}]`;
}
