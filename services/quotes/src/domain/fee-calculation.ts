import type { MinorUnits } from '@pwa/money';
import { basisPointsPerWhole, type FeeRule, type FeeTier } from './fee-schedule';

/**
 * The fee for an amount under a rule, in whole minor units and with integer arithmetic only:
 * the tier's flat part plus its percentage of the amount rounded half-up to the cent, then held
 * within the rule's minimum and maximum. The rule is assumed valid (assertValidFeeRule).
 */
export function calculateFeeMinor(rule: FeeRule, amountMinor: MinorUnits): MinorUnits {
  if (amountMinor <= 0n) throw new RangeError('the amount must be positive');
  const tier = tierFor(rule.tiers, amountMinor);
  const percentageMinor = roundHalfUpDivide(amountMinor * BigInt(tier.basisPoints), BigInt(basisPointsPerWhole));
  const feeMinor = tier.flatMinor + percentageMinor;
  if (feeMinor < rule.minimumFeeMinor) return rule.minimumFeeMinor;
  if (feeMinor > rule.maximumFeeMinor) return rule.maximumFeeMinor;
  return feeMinor;
}

/** The first tier whose inclusive upper bound the amount does not exceed; the open-ended last tier otherwise. */
export function tierFor(tiers: readonly FeeTier[], amountMinor: MinorUnits): FeeTier {
  const tier = tiers.find((candidate) => candidate.upToMinor === null || amountMinor <= candidate.upToMinor);
  if (!tier) throw new RangeError('the fee schedule has no tier for this amount');
  return tier;
}

/** numerator / denominator rounded to the nearest integer, halves up; both operands non-negative. */
export function roundHalfUpDivide(numerator: bigint, denominator: bigint): bigint {
  if (numerator < 0n || denominator <= 0n) throw new RangeError('roundHalfUpDivide takes a non-negative numerator and positive denominator');
  return (numerator * 2n + denominator) / (denominator * 2n);
}
