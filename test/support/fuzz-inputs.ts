import { brotliCompressSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { RouteDefinition } from '../../services/gateway/src/domain/routes';

/**
 * Generated bad input for the input fuzz suite (test/e2e/input-fuzz.test.ts): strings with
 * control characters and lone surrogates, bytes that are not UTF-8, huge and deeply nested values,
 * odd numbers, path parameters and query strings that do not decode, and headers a partner may get
 * wrong. Every request is built for one route of the gateway's table.
 */

/** Characters the text rule refuses: C0 (NUL, tab, line breaks), DEL, C1 and lone surrogates. */
const unsafeCharacters = ['\u0000', '\u0001', '\u0007', '\t', '\n', '\r', '\u001b', '\u001f', '\u007f', '\u0080', '\u0085', '\u009f', '\ud800', '\udbff', '\udc00', '\udfff'];

/** A string that certainly breaks the text rule, somewhere inside ordinary text. */
export const unsafeString: fc.Arbitrary<string> = fc
  .tuple(fc.string({ maxLength: 12 }), fc.constantFrom(...unsafeCharacters), fc.string({ unit: 'binary', maxLength: 12 }))
  .map(([before, unsafe, after]) => `${before}${unsafe}${after}`);

/** Any string at all: printable, unsafe, long, or out of any plane. */
export const anyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  unsafeString,
  fc.constantFrom('', ' ', '\ufffd', '\u2028', '😀', 'é', 'null', '{}', "'; DROP TABLE quotes; --"),
  fc.integer({ min: 101, max: 15_000 }).map((length) => 'x'.repeat(length)),
);

/** Byte sequences that are not UTF-8: a lone continuation byte, a truncated sequence, an encoded surrogate, an overlong NUL. */
const invalidUtf8 = fc.constantFrom([0xff], [0xfe, 0xff], [0x80], [0xc3], [0xe0, 0xa4], [0xed, 0xa0, 0x80], [0xc0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]);

/** Number lexemes as a client might write them. */
const numberLexeme = fc.oneof(
  fc.constantFrom('1.999999999999999999', '1e400', '-1e400', '1e-400', '-0', '0', '0.001', '10.500', '1E2', '1.5E7', '9'.repeat(400), '1e21', '-10', '100'),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
);

export type BodyShape = Readonly<Record<string, unknown>>;

export type GeneratedBody =
  | { kind: 'json text'; text: string; certainlyRefused: boolean }
  | { kind: 'bytes'; bytes: Buffer; certainlyRefused: boolean };

/** A JSON text of the route's body shape with one field (or a new one) set to a string that breaks the rule, by value or by name. */
function withUnsafeField(shape: BodyShape): fc.Arbitrary<GeneratedBody> {
  const fieldNames = [...Object.keys(shape), 'extra'];
  return fc.oneof(
    fc.tuple(fc.constantFrom(...fieldNames), unsafeString).map(([field, value]) => ({ ...shape, [field]: value })),
    fc.tuple(unsafeString, anyString).map(([field, value]) => ({ ...shape, [field]: value })),
    fc.tuple(fc.constantFrom(...fieldNames), unsafeString).map(([field, value]) => ({ ...shape, [field]: { nested: [1, value] } })),
  ).map((body) => ({ kind: 'json text', text: JSON.stringify(body), certainlyRefused: true }));
}

/** The route's body with one string's contents replaced by bytes that are not UTF-8. */
function withInvalidUtf8(shape: BodyShape): fc.Arbitrary<GeneratedBody> {
  return invalidUtf8.map((bytes) => {
    const marker = '@@INVALID@@';
    const text = JSON.stringify({ ...shape, extra: marker });
    const [before = '', after = ''] = text.split(marker);
    return { kind: 'bytes', bytes: Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]), certainlyRefused: true };
  });
}

/** Arrays or objects nested past the limit (32), up to what the 16 kb body limit holds. */
const deeplyNested: fc.Arbitrary<GeneratedBody> = fc.tuple(fc.integer({ min: 33, max: 8_000 }), fc.boolean()).map(([depth, arrays]) => ({
  kind: 'json text',
  text: arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  certainlyRefused: true,
}));

/** A body over the 16 kb limit. */
function oversized(shape: BodyShape): fc.Arbitrary<GeneratedBody> {
  return fc.integer({ min: 17_000, max: 40_000 }).map((length) => ({ kind: 'json text', text: JSON.stringify({ ...shape, extra: 'x'.repeat(length) }), certainlyRefused: true }));
}

/** The route's body with its fields replaced by anything: strings, numbers as written, nulls, arrays. */
function withArbitraryFields(shape: BodyShape): fc.Arbitrary<GeneratedBody> {
  const fieldNames = Object.keys(shape).length > 0 ? Object.keys(shape) : ['field'];
  const value = fc.oneof(
    anyString.map((text) => JSON.stringify(text)),
    numberLexeme,
    fc.constantFrom('null', 'true', '[]', '{}', '""'),
    fc.jsonValue({ maxDepth: 3 }).map((json) => JSON.stringify(json)),
  );
  return fc
    .tuple(fc.constantFrom(...fieldNames), value)
    .map(([field, valueText]) => {
      const rest = Object.entries(shape).filter(([name]) => name !== field);
      const members = [...rest.map(([name, item]) => `${JSON.stringify(name)}:${JSON.stringify(item)}`), `${JSON.stringify(field)}:${valueText}`];
      return { kind: 'json text' as const, text: `{${members.join(',')}}`, certainlyRefused: false };
    });
}

/** Anything as a body: arbitrary JSON, or bytes that are not JSON at all. */
const arbitraryBody: fc.Arbitrary<GeneratedBody> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((value) => ({ kind: 'json text' as const, text: JSON.stringify(value) ?? 'null', certainlyRefused: false })),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ kind: 'bytes' as const, bytes: Buffer.from(bytes), certainlyRefused: false })),
);

/**
 * Bodies for a route whose shape is given. With `refusedOnly`, only bodies the body rules must
 * refuse whatever the headers (the suite sends them with a prepared quote's id, which must stay
 * unused).
 */
export function bodyFor(shape: BodyShape, refusedOnly: boolean): fc.Arbitrary<GeneratedBody> {
  const refused = [withUnsafeField(shape), withInvalidUtf8(shape), deeplyNested, oversized(shape)];
  if (refusedOnly) return fc.oneof(...refused);
  return fc.oneof(...refused, withArbitraryFields(shape), withArbitraryFields(shape), arbitraryBody);
}

/** Percent-encodes every byte: a segment exactly as the bytes say, whether they are UTF-8 or not. */
function percentEncodedBytes(bytes: Uint8Array): string {
  return [...bytes].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/** A path parameter as it goes on the wire: ordinary, encoded text of any kind, raw bytes, malformed escapes, or long. */
export const pathParameter: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9-]{1,24}$/),
  anyString.filter((text) => text.length > 0 && text.length < 200).map((text) => percentEncodedBytes(Buffer.from(text, 'utf8'))),
  fc.uint8Array({ minLength: 1, maxLength: 8 }).map(percentEncodedBytes),
  fc.constantFrom('%E0%A4%A', '%', '%G0', '%0', '%00', 'PKC-1-%00', '%C0%80', '%ED%A0%80', '%FF', '%2e%2e', '%2F', 'a%2Fb', '%25', '%7F', '%C2%85', '+231%20770', '%2B231770123456'),
  fc.integer({ min: 200, max: 4_000 }).map((length) => 'x'.repeat(length)),
);

/** A query string: names and values of any kind, encoded well or badly. */
export const queryString: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom('referenceId', 'status', 'event', 'from', 'to', 'limit', 'cursor', 'foo'), pathParameter),
      fc.oneof(pathParameter, fc.constantFrom('failed', 'collection.completed', '2026-01-01T00:00:00Z', '5', '0', '-1', '1e400', '')),
    ),
    { minLength: 1, maxLength: 3 },
  )
  .map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join('&'));

export interface GeneratedHeaders {
  contentType: string | undefined;
  contentEncoding: 'identity' | 'gzip' | 'br' | 'gzip (not compressed)' | 'compress' | 'gzip, br' | undefined;
  /** 'valid' stands for the suite's bearer token; anything else is sent as it is. */
  authorization: string;
  extra: Record<string, string>;
}

/** Header values the Node client can send (Latin-1 without controls); partners' mistakes among them. */
export const headers: fc.Arbitrary<GeneratedHeaders> = fc.record({
  contentType: fc.constantFrom(
    'application/json',
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=iso-8859-1',
    'application/json; charset=utf-16',
    'application/merge-patch+json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json; charset',
    ';;;',
    undefined,
  ),
  contentEncoding: fc.constantFrom('identity', 'gzip', 'br', 'gzip (not compressed)', 'compress', 'gzip, br', undefined, undefined, undefined),
  // Mostly the valid token, so that most requests get past admission to the body rules.
  authorization: fc.oneof(
    { arbitrary: fc.constant('valid'), weight: 8 },
    { arbitrary: fc.constantFrom('', 'Bearer', 'Bearer x.y.z', 'Basic Zm9vOmJhcg==', `Bearer ${'a'.repeat(5_000)}`, 'Bearer ÿÿÿ'), weight: 2 },
  ),
  extra: fc.record(
    {
      'x-request-id': fc.constantFrom('ok-1', 'with space', 'ÿ', 'x'.repeat(300), ''),
      traceparent: fc.constantFrom('00-00000000000000000000000000000000-0000000000000000-00', 'garbage', '00-' + 'f'.repeat(32) + '-' + 'f'.repeat(16) + '-01'),
      'user-agent': fc.constantFrom('fuzz/1.0', 'Grüße ÿ', 'u'.repeat(2_000)),
      accept: fc.constantFrom('application/json', 'text/html', '*/*', ''),
    },
    { requiredKeys: [] },
  ),
});

/** The body's bytes and headers as they go on the wire, compressed as the headers say. */
export function encodeBody(body: GeneratedBody, generated: GeneratedHeaders): { bytes: Buffer; headers: Record<string, string> } {
  const plain = body.kind === 'bytes' ? body.bytes : Buffer.from(body.text, 'utf8');
  const result: Record<string, string> = {};
  if (generated.contentType !== undefined) result['content-type'] = generated.contentType;
  let bytes = plain;
  switch (generated.contentEncoding) {
    case 'gzip':
      bytes = gzipSync(plain);
      result['content-encoding'] = 'gzip';
      break;
    case 'br':
      bytes = brotliCompressSync(plain);
      result['content-encoding'] = 'br';
      break;
    case 'gzip (not compressed)':
      result['content-encoding'] = 'gzip';
      break;
    case 'identity':
    case 'compress':
    case 'gzip, br':
      result['content-encoding'] = generated.contentEncoding;
      break;
    case undefined:
      break;
  }
  return { bytes, headers: result };
}

/** The route's path with every parameter replaced by a generated one. */
export function pathOf(route: RouteDefinition, parameters: readonly string[]): string {
  let index = 0;
  return route.pathTemplate
    .split('/')
    .map((segment) => (segment.startsWith(':') ? (parameters[index++] ?? 'x') : segment))
    .join('/');
}
