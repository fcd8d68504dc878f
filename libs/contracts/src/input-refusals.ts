import type { z } from 'zod';
import { alternatives, expectedForms, invalidFieldsErrorOf } from '@pwa/errors';
import { currencies, formatMinor, type Currency } from '@pwa/money';
import { liberianPhoneForms } from '@pwa/phone';
import { transactionBoundsMinor } from './transaction-bounds';

/**
 * How the public API's refusals of a request's fields say what is expected (issue 29, decision
 * 0075). The hand-written body checks (quotes, confirms, refunds, bulks) and the zod-parsed queries
 * and bodies (parsePublicInput) use these, so a field is described the same way on every route.
 */
export const expectedInputs = {
  phone: liberianPhoneForms,
  amount: 'a JSON number, not a string, greater than zero with at most 2 decimal places, such as 25.5',
  currency: alternatives(currencies),
  quoteId: `the quoteId of your quote: ${expectedForms.uuid}`,
  externalId: (lengthMax: number) => `text of 1 to ${lengthMax} characters`,
  optionalText: (lengthMax: number) => `text of at most ${lengthMax} characters`,
  ...expectedForms,
} as const;

/** "from 50.00 to 1,850,000.00 LRD": the per-transaction bounds of a currency (PKC_2003, PKC_2004). */
export function amountBoundsText(currency: Currency): string {
  const bounds = transactionBoundsMinor[currency];
  return `from ${formatMinor(bounds.minimumMinor)} to ${formatMinor(bounds.maximumMinor)} ${currency}`;
}

/**
 * Parses a public query, body or path with its contract's zod schema, or throws the one refusal of
 * input that does not parse: 400 PKC_2008 whose invalidFields name each field with its problem
 * (missing, unknown, wrong type, wrong format, not allowed, out of range, too long) and what the
 * schema expects there.
 */
export function parsePublicInput<Schema extends z.ZodType>(schema: Schema, input: unknown, location: 'body' | 'query' | 'path'): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw invalidFieldsErrorOf(parsed.error.issues, { input, location, expectedAt: (path) => expectedOfSchemaAt(schema, path) });
}

/** What a schema expects at a path, in words, when its type says (undefined otherwise). */
export function expectedOfSchemaAt(schema: z.ZodType, path: readonly PropertyKey[]): string | undefined {
  let at: z.ZodType | undefined = schema;
  for (const key of path) {
    const shape = objectShapeOf(unwrapped(at));
    at = typeof key === 'string' && shape !== undefined ? shape[key] : undefined;
    if (at === undefined) return undefined;
  }
  return describeSchema(unwrapped(at));
}

interface SchemaInternals {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}

function definitionOf(schema: z.ZodType): SchemaInternals {
  return (schema as unknown as { def: SchemaInternals }).def;
}

/** The schema under optional, nullable, default, readonly and a transform's input. */
function unwrapped(schema: z.ZodType): z.ZodType {
  let at = schema;
  for (let depth = 0; depth < 8; depth += 1) {
    const definition = definitionOf(at);
    const inner = definition.type === 'pipe' ? definition.in : definition.innerType;
    if (inner === undefined) return at;
    at = inner;
  }
  return at;
}

function objectShapeOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const definition = definitionOf(schema);
  return definition.type === 'object' ? definition.shape : undefined;
}

function describeSchema(schema: z.ZodType): string | undefined {
  const definition = definitionOf(schema);
  const described = schema as unknown as {
    options?: readonly unknown[];
    values?: ReadonlySet<unknown>;
    format?: string | null;
    minLength?: number | null;
    maxLength?: number | null;
    minValue?: number | null;
    maxValue?: number | null;
    isInt?: boolean;
  };
  switch (definition.type) {
    case 'enum':
      return alternatives((described.options ?? []).map(String));
    case 'literal':
      return alternatives([...(described.values ?? [])].map(String));
    case 'string':
      return describeText(described.format ?? null, described.minLength ?? null, described.maxLength ?? null);
    case 'number': {
      const noun = described.isInt === true ? 'a whole number' : 'a number';
      const { minValue, maxValue } = described;
      if (typeof minValue === 'number' && typeof maxValue === 'number' && Number.isFinite(minValue) && Number.isFinite(maxValue)) return `${noun} from ${minValue} to ${maxValue}`;
      return noun;
    }
    case 'boolean':
      return 'true or false';
    case 'object':
      return expectedForms.jsonObject;
    default:
      return undefined;
  }
}

function describeText(format: string | null, minLength: number | null, maxLength: number | null): string | undefined {
  if (format === 'datetime') return expectedForms.dateTime;
  if (format === 'uuid' || format === 'guid') return expectedForms.uuid;
  if (maxLength !== null) return minLength !== null && minLength > 0 ? `text of ${minLength} to ${maxLength} characters` : `text of at most ${maxLength} characters`;
  return 'text';
}
