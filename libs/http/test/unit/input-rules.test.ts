import fc from 'fast-check';
import {
  contentEncodingProblemOf,
  contentTypeVerdictOf,
  findUnsafeText,
  jsonNestingDepthMax,
  jsonNestingExceeds,
  requestTargetProblemOf,
  textProblemOf,
} from '../../src';

const bytesOf = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('JSON nesting depth', () => {
  it('when arrays and objects nest up to the limit, then the body is within it; one more level exceeds it', () => {
    const atLimit = `${'['.repeat(jsonNestingDepthMax - 1)}{"a":1}${']'.repeat(jsonNestingDepthMax - 1)}`;
    const overLimit = `[${atLimit}]`;
    expect(jsonNestingExceeds(bytesOf(atLimit))).toBe(false);
    expect(jsonNestingExceeds(bytesOf(overLimit))).toBe(true);
    expect(() => JSON.parse(overLimit) as unknown).not.toThrow();
  });

  it('when 5,000 arrays nest, then the check answers at once without recursing', () => {
    expect(jsonNestingExceeds(bytesOf(`${'['.repeat(5000)}${']'.repeat(5000)}`))).toBe(true);
  });

  it('when brackets and braces are inside strings, escaped quotes included, then they do not count', () => {
    const inStrings = JSON.stringify({ note: `${'['.repeat(100)}\\"{{{{`, other: '"]]]]' });
    expect(jsonNestingExceeds(bytesOf(inStrings))).toBe(false);
    expect(jsonNestingExceeds(bytesOf(`{"a":"\\\\"}`), 1)).toBe(false);
  });

  it('when any JSON value is checked, then the verdict is the depth JSON.parse sees', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 1, max: 6 }), (value, depthMax) => {
        expect(jsonNestingExceeds(bytesOf(JSON.stringify(value)), depthMax)).toBe(depthOf(value) > depthMax);
      }),
      { numRuns: 500, seed: 14 },
    );
  });
});

function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (typeof value === 'object' && value !== null) return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

describe('the text rule', () => {
  it.each([
    ['NUL', '\u0000', 'control_character'],
    ['a tab', 'a\tb', 'control_character'],
    ['a line break', 'a\nb', 'control_character'],
    ['DEL', 'a\u007f', 'control_character'],
    ['a C1 control', 'a\u0085', 'control_character'],
    ['a lone high surrogate', 'a\ud800', 'lone_surrogate'],
    ['a lone low surrogate', '\udc00a', 'lone_surrogate'],
    ['surrogates in the wrong order', '\udc00\ud800', 'lone_surrogate'],
  ])('when a text holds %s, then it is refused', (_case, text, problem) => {
    expect(textProblemOf(text)).toBe(problem);
  });

  it.each([['plain ASCII'], ['Grüße, ¿qué?'], ['emoji 😀 (a surrogate pair)'], ['\u00a0no-break space'], ['Liberian dollars: L$ 1,000']])(
    'when a text is %s, then it is accepted',
    (text) => {
      expect(textProblemOf(text)).toBeUndefined();
    },
  );

  it('when a body holds an unsafe string anywhere, then its path is named, for values and field names', () => {
    expect(findUnsafeText({ quoteId: 'x', externalId: 'a\u0000b' })).toEqual({ path: 'externalId', part: 'value', problem: 'control_character' });
    expect(findUnsafeText({ items: [{ ok: 'x' }, { name: '\ud800' }] })).toEqual({ path: 'items[1].name', part: 'value', problem: 'lone_surrogate' });
    expect(findUnsafeText({ outer: { 'bad\u0001key': 1 } })).toEqual({ path: 'outer', part: 'name', problem: 'control_character' });
    expect(findUnsafeText(['\u0000'])).toEqual({ path: '[0]', part: 'value', problem: 'control_character' });
    expect(findUnsafeText({ a: 1, b: [true, null, 'fine'] })).toBeUndefined();
  });

  it('when any string goes through the rule, then it is refused exactly when it has a control character or a lone surrogate', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 20 }), (text) => {
        const expectedUnsafe = [...text].some((character) => {
          const code = character.codePointAt(0) ?? 0;
          return code <= 0x1f || (code >= 0x7f && code <= 0x9f) || (code >= 0xd800 && code <= 0xdfff);
        });
        expect(textProblemOf(text) !== undefined).toBe(expectedUnsafe);
        expect(findUnsafeText({ field: text }) !== undefined).toBe(expectedUnsafe);
      }),
      { numRuns: 1000, seed: 14 },
    );
  });
});

describe('the request target', () => {
  it.each([
    ['/partner/v1/account/%E0%A4%A', '', /path is not valid.*UTF-8/],
    ['/partner/v1/collection/PKC-1-%00', '', /path segment contains a control character/],
    ['/partner/v1/collection/%ED%A0%80', '', /UTF-8/],
    ['/partner/v1/webhooks/deliveries', 'referenceId=%00', /^Query parameter referenceId contains a control character/],
    ['/partner/v1/webhooks/deliveries', 'referenceId=%FF', /^Query parameter referenceId is not valid/],
    ['/partner/v1/webhooks/deliveries', '%00=1', /parameter name contains a control character/],
    ['/partner/v1/webhooks/deliveries', `${'n'.repeat(4000)}=%00`, /^Query parameter n{64}… contains/],
  ])('when the target is %s?%s, then it is refused with a message naming the problem', (path, query, message) => {
    expect(requestTargetProblemOf(path, query)).toMatch(message);
  });

  it.each([
    ['/partner/v1/account/%2B231770123456', ''],
    ['/partner/v1/collection/PKC-1-ABC', ''],
    ['/partner/v1/webhooks/deliveries', 'referenceId=PKC-1&status=failed&limit=5'],
    ['/partner/v1/webhooks/deliveries', 'note=caf%C3%A9+au+lait&empty=&flag'],
  ])('when the target is %s?%s, then it is accepted', (path, query) => {
    expect(requestTargetProblemOf(path, query)).toBeUndefined();
  });
});

describe('body headers', () => {
  it.each([
    ['application/json', false],
    ['application/json; charset=utf-8', false],
    ['Application/JSON; Charset="UTF-8"', false],
    ['application/merge-patch+json', false],
    ['application/x-www-form-urlencoded', true],
    ['application/x-www-form-urlencoded;charset=UTF-8', true],
    ['application/json;charset=utf8', false],
  ])('when the Content-Type is %s (form accepted: %s), then the body is accepted', (contentType, formAccepted) => {
    expect(contentTypeVerdictOf(contentType, formAccepted).problem).toBeUndefined();
  });

  it.each([
    [undefined, false, 'Content-Type must be application/json; the body was sent without one'],
    ['text/plain', false, 'Content-Type must be application/json (this body was sent as text/plain)'],
    ['application/x-www-form-urlencoded', false, 'Content-Type must be application/json (this body was sent as application/x-www-form-urlencoded)'],
    ['text/plain', true, 'Content-Type must be application/json or application/x-www-form-urlencoded (this body was sent as text/plain)'],
    ['application/json; charset=latin1', false, 'Content-Type charset must be utf-8'],
    ['application/json; charset=utf-16', false, 'Content-Type charset must be utf-8'],
    ['ünïcode/ty pe', false, 'Content-Type must be application/json'],
  ])('when the Content-Type is %s (form accepted: %s), then the refusal says: %s', (contentType, formAccepted, problem) => {
    expect(contentTypeVerdictOf(contentType, formAccepted).problem).toBe(problem);
  });

  it('when the Content-Encoding is one the API decodes, then it is accepted; another is named in the refusal', () => {
    for (const encoding of [undefined, 'identity', 'gzip', 'GZIP', 'deflate', 'br']) expect(contentEncodingProblemOf(encoding)).toBeUndefined();
    expect(contentEncodingProblemOf('zstd')).toBe('Content-Encoding zstd is not supported: send the body uncompressed or with one of gzip, deflate or br');
    expect(contentEncodingProblemOf('gzip, br')).toMatch(/^Content-Encoding is not supported/);
  });
});
