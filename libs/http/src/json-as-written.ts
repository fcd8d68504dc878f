import type { Request } from 'express';
import { parse } from 'lossless-json';
import { PkcError } from '@pwa/errors';
import { rawJsonBodyOf } from './body-rules';

/**
 * The request's JSON body parsed again from its bytes with every number handed to `numberAsWritten`
 * as its lexeme ("1.999999999999999999", "1e400"), where JSON.parse would have made a double of
 * it. Undefined when the request has no JSON body. The bytes already passed the body rules (valid
 * UTF-8, nesting bounded), so the recursive parser below cannot run out of stack. A repeated field
 * keeps its last value, as JSON.parse does.
 */
export function jsonBodyAsWritten(req: Request, numberAsWritten: (text: string) => unknown): unknown {
  const bytes = rawJsonBodyOf(req);
  if (bytes === undefined) return undefined;
  try {
    return parse(bytes.toString('utf8'), null, { parseNumber: numberAsWritten, onDuplicateKey: ({ newValue }) => newValue });
  } catch (error) {
    throw new PkcError('PKC_2008', 'Request body is not valid JSON', { cause: error });
  }
}
