/** Minor units (cents) of an amount: an integer, never a float. */
export type MinorUnits = bigint;

export type AmountParseFailure = 'not_a_number' | 'not_positive' | 'too_many_decimals' | 'too_large';

export type AmountParseResult = { ok: true; minor: MinorUnits } | { ok: false; failure: AmountParseFailure };

/** Far above any limit the API allows, and far below 2^63 so BIGINT columns can never overflow. */
export const amountMinorMax = 10n ** 15n;
