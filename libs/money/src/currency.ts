export const currencies = ['LRD', 'USD'] as const;
export type Currency = (typeof currencies)[number];

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (currencies as readonly string[]).includes(value);
}

/** Both currencies have two decimal places: one major unit is 100 minor units. */
export const minorUnitsPerMajor = 100n;
