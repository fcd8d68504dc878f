import { formattedMoney, minorUnitsOf } from './money';

/**
 * A fee schedule's tiers as a maker types them (decision 0014): each up to an amount (the last one
 * open-ended), a flat part and a percentage. Amounts in major units and the percentage with at most
 * two decimals are turned into the API's minor-unit strings and basis points by text alone, never
 * through floats; a problem names the tier and the field to fix.
 */
export interface TypedTier {
  upTo: string;
  flat: string;
  percent: string;
}

export interface FeeTier {
  upToMinor: string | null;
  flatMinor: string;
  basisPoints: number;
}

export type TiersParse = { ok: true; tiers: FeeTier[] } | { ok: false; problem: string };

export const emptyTier: TypedTier = { upTo: '', flat: '', percent: '' };
export const tiersMax = 20;

/** "1.5" → 150 basis points; 0 to 100 percent, at most two decimals. */
export function basisPointsOf(typed: string): number | undefined {
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(typed.trim().replace(/%$/, '').trim());
  if (match === null) return undefined;
  const basisPoints = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return basisPoints <= 10_000 ? basisPoints : undefined;
}

/** A flat fee may be zero ("0", "0.00"); else an exact positive amount. */
function flatMinorOf(typed: string): string | undefined {
  const text = typed.trim();
  if (text === '' || /^0*(\.0{0,2})?$/.test(text)) return '0';
  const parsed = minorUnitsOf(text);
  return parsed.ok ? parsed.minor : undefined;
}

export function parsedTiers(rows: readonly TypedTier[]): TiersParse {
  if (rows.length === 0 || rows.length > tiersMax) return { ok: false, problem: `Fee tiers: from 1 to ${tiersMax} tiers` };
  const tiers: FeeTier[] = [];
  let previous = 0n;
  for (const [index, row] of rows.entries()) {
    const where = `Tier ${index + 1}`;
    const last = index === rows.length - 1;
    let upToMinor: string | null = null;
    if (last) {
      if (row.upTo.trim() !== '') return { ok: false, problem: `${where}, up to: leave it empty: the last tier has no upper bound` };
    } else {
      const parsed = minorUnitsOf(row.upTo);
      if (!parsed.ok) return { ok: false, problem: `${where}, up to: ${parsed.problem}` };
      if (BigInt(parsed.minor) <= previous) return { ok: false, problem: `${where}, up to: must be above the tier before it` };
      previous = BigInt(parsed.minor);
      upToMinor = parsed.minor;
    }
    const flatMinor = flatMinorOf(row.flat);
    if (flatMinor === undefined) return { ok: false, problem: `${where}, flat fee: an amount such as 0.50 (at most two decimals), or empty for none` };
    const basisPoints = row.percent.trim() === '' ? 0 : basisPointsOf(row.percent);
    if (basisPoints === undefined) return { ok: false, problem: `${where}, percentage: from 0 to 100, at most two decimals (1.5 for 1.5 %)` };
    tiers.push({ upToMinor, flatMinor, basisPoints });
  }
  return { ok: true, tiers };
}

/** "up to USD 100.00: USD 0.50 + 1.50 %; above: USD 5.00 + 0.50 %" */
export function describedTiers(tiers: readonly FeeTier[], currency: string): string {
  return tiers
    .map((tier) => {
      const percent = `${Math.floor(tier.basisPoints / 100)}.${String(tier.basisPoints % 100).padStart(2, '0')} %`;
      const bound = tier.upToMinor === null ? (tiers.length === 1 ? 'any amount' : 'above') : `up to ${formattedMoney(tier.upToMinor, currency)}`;
      return `${bound}: ${formattedMoney(tier.flatMinor, currency)} + ${percent}`;
    })
    .join('; ');
}

