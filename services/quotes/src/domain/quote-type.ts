/** A quote is for one operation and is valid only on that operation's confirm endpoint (PKC_5003). */
export const quoteTypes = ['collection', 'disbursement'] as const;
export type QuoteType = (typeof quoteTypes)[number];

export function isQuoteType(value: unknown): value is QuoteType {
  return typeof value === 'string' && (quoteTypes as readonly string[]).includes(value);
}
