import type { Currency, MinorUnits } from '@pwa/money';
import type { QuoteType } from './quote-type';

/**
 * One band of a fee schedule. An amount falls in the first tier whose upper bound it does not
 * exceed (bounds are inclusive); the last tier has no upper bound, so every amount has a tier.
 * The whole amount is charged at its tier's rate (bands, not marginal slices).
 */
export interface FeeTier {
  /** Inclusive upper bound of the tier in minor units; null for the last, open-ended tier. */
  upToMinor: MinorUnits | null;
  flatMinor: MinorUnits;
  /** Percentage part in basis points: 100 is 1 %. */
  basisPoints: number;
}

/** The fee rule for one quote type and currency, as the operator configures it. */
export interface FeeSchedule {
  type: QuoteType;
  currency: Currency;
  tiers: readonly FeeTier[];
  minimumFeeMinor: MinorUnits;
  maximumFeeMinor: MinorUnits;
  /** Goes up by one at every change; each quote records the revision its fee came from. */
  revision: number;
}

export type FeeRule = Pick<FeeSchedule, 'tiers' | 'minimumFeeMinor' | 'maximumFeeMinor'>;

export const basisPointsPerWhole = 10_000;
export const tierCountMax = 20;
/** No fee part may exceed this (1,000,000.00 in major units); it keeps every sum far inside BIGINT. */
export const feePartMaxMinor = 100_000_000n;

export class FeeScheduleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeeScheduleError';
  }
}

/**
 * Refuses a rule that could produce a fee outside its own bounds or leave an amount without a
 * tier. Used on every write (the operator CLI) and on every read (a row edited by hand must not
 * price a quote).
 */
export function assertValidFeeRule(rule: FeeRule): void {
  const { tiers, minimumFeeMinor, maximumFeeMinor } = rule;
  if (tiers.length === 0 || tiers.length > tierCountMax) throw new FeeScheduleError(`a schedule needs 1 to ${tierCountMax} tiers`);
  if (minimumFeeMinor < 0n) throw new FeeScheduleError('the minimum fee must not be negative');
  if (maximumFeeMinor < minimumFeeMinor) throw new FeeScheduleError('the maximum fee must not be below the minimum fee');
  if (maximumFeeMinor > feePartMaxMinor) throw new FeeScheduleError('the maximum fee is implausibly large');
  let previousUpToMinor = 0n;
  tiers.forEach((tier, index) => {
    const isLast = index === tiers.length - 1;
    if (isLast !== (tier.upToMinor === null)) throw new FeeScheduleError('only the last tier is open-ended (upToMinor null), and it must be');
    if (tier.upToMinor !== null) {
      if (tier.upToMinor <= previousUpToMinor) throw new FeeScheduleError('tier upper bounds must be positive and strictly increasing');
      previousUpToMinor = tier.upToMinor;
    }
    if (tier.flatMinor < 0n || tier.flatMinor > feePartMaxMinor) throw new FeeScheduleError('a flat fee must be between 0 and 1,000,000.00');
    if (!Number.isInteger(tier.basisPoints) || tier.basisPoints < 0 || tier.basisPoints > basisPointsPerWhole) {
      throw new FeeScheduleError('basis points must be an integer from 0 to 10000');
    }
  });
}

/** The tiers as they are stored and printed: minor units as decimal strings, never JSON numbers. */
export interface StoredFeeTier {
  upToMinor: string | null;
  flatMinor: string;
  basisPoints: number;
}

export function storedTiersOf(tiers: readonly FeeTier[]): StoredFeeTier[] {
  return tiers.map((tier) => ({
    upToMinor: tier.upToMinor === null ? null : tier.upToMinor.toString(),
    flatMinor: tier.flatMinor.toString(),
    basisPoints: tier.basisPoints,
  }));
}

/**
 * Reads tiers from their stored or typed form. Minor units may be given as decimal strings or as
 * safe integers; an absent upToMinor on the last tier means open-ended.
 */
export function parseFeeTiers(value: unknown): FeeTier[] {
  if (!Array.isArray(value)) throw new FeeScheduleError('tiers must be a JSON array');
  return value.map((raw: unknown, index) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new FeeScheduleError(`tier ${index + 1} must be an object`);
    const tier = raw as Record<string, unknown>;
    const known = new Set(['upToMinor', 'flatMinor', 'basisPoints']);
    const unknown = Object.keys(tier).filter((key) => !known.has(key));
    if (unknown.length > 0) throw new FeeScheduleError(`tier ${index + 1} has unknown fields: ${unknown.join(', ')}`);
    return {
      upToMinor: tier.upToMinor === undefined || tier.upToMinor === null ? null : minorOf(tier.upToMinor, `tier ${index + 1} upToMinor`),
      flatMinor: tier.flatMinor === undefined ? 0n : minorOf(tier.flatMinor, `tier ${index + 1} flatMinor`),
      basisPoints: basisPointsOf(tier.basisPoints, index),
    };
  });
}

function minorOf(value: unknown, label: string): MinorUnits {
  if (typeof value === 'string' && /^\d{1,18}$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  throw new FeeScheduleError(`${label} must be a whole number of minor units (for example "150" for 1.50)`);
}

function basisPointsOf(value: unknown, index: number): number {
  if (value === undefined) return 0;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  throw new FeeScheduleError(`tier ${index + 1} basisPoints must be an integer (100 is 1 %)`);
}
