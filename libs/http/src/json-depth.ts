/**
 * The deepest a request's JSON may nest arrays and objects. The API's bodies nest one level; 32
 * leaves room for any reasonable client while keeping every recursive step that may follow
 * (a parser that keeps numbers as written, JSON.stringify, a logger's serialiser) far from the
 * stack's limit: 5,000 nested arrays exhaust it.
 */
export const jsonNestingDepthMax = 32;

const quote = 0x22;
const backslash = 0x5c;
const openBracket = 0x5b;
const openBrace = 0x7b;
const closeBracket = 0x5d;
const closeBrace = 0x7d;

/**
 * True when the JSON text opens more than `depthMax` arrays or objects inside one another. It scans
 * the bytes once, skipping string contents, and runs before any parser does, so the check itself
 * cannot recurse. Text that is not JSON is left to the parser to refuse.
 */
export function jsonNestingExceeds(bytes: Uint8Array, depthMax: number = jsonNestingDepthMax): boolean {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (const byte of bytes) {
    if (inString) {
      if (escaped) escaped = false;
      else if (byte === backslash) escaped = true;
      else if (byte === quote) inString = false;
    } else if (byte === quote) {
      inString = true;
    } else if (byte === openBracket || byte === openBrace) {
      depth += 1;
      if (depth > depthMax) return true;
    } else if (byte === closeBracket || byte === closeBrace) {
      depth -= 1;
    }
  }
  return false;
}
