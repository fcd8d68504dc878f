// How the dashboard's pages write amounts and field names for people (plain TypeScript: unit-tested
// without a browser). The API gives amounts in major units, as numbers with at most two decimals.

const amountFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** An amount in major units as every page shows it: two decimals, thousands grouped (1,234.50). */
export function amountText(amount: number): string {
  return amountFormat.format(amount);
}

/** An amount with its currency (LRD 1,234.50), or a dash when there is none. */
export function moneyText(amount: number | null | undefined, currency?: string): string {
  if (amount === null || amount === undefined) return '—';
  return `${currency ?? ''} ${amountText(amount)}`.trim();
}

/** A field a page does not lay out, named for people: cancelledAt reads "Cancelled at". */
export function labelOfField(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
