import type { JsonValue } from './audit-entry';

/**
 * A JSON text that is the same for the same value, whatever order its keys were written in: object
 * keys sorted (by UTF-16 code units, as Array.prototype.sort compares them), no white space,
 * strings and numbers as JSON.stringify writes them. It is what an entry's hash is computed over,
 * so it must never change for a stored entry: a change of this function is a new hash version.
 */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const members = Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] ?? null)}`);
  return `{${members.join(',')}}`;
}
