import { basisPointsOf, describedTiers, parsedTiers } from '../src/fee-tiers';

describe('fee tiers as a maker types them', () => {
  test('when the tiers are ascending and the last is open-ended, then they become minor units and basis points exactly', () => {
    expect(
      parsedTiers([
        { upTo: '100', flat: '0', percent: '1.5' },
        { upTo: '1,000.10', flat: '0.29', percent: '0.75' },
        { upTo: '', flat: '5', percent: '' },
      ]),
    ).toEqual({
      ok: true,
      tiers: [
        { upToMinor: '10000', flatMinor: '0', basisPoints: 150 },
        { upToMinor: '100010', flatMinor: '29', basisPoints: 75 },
        { upToMinor: null, flatMinor: '500', basisPoints: 0 },
      ],
    });
  });

  test('when a tier is wrong, then the problem names the tier and the field to fix', () => {
    expect(parsedTiers([{ upTo: '100', flat: '', percent: '' }, { upTo: '50', flat: '', percent: '' }, { upTo: '', flat: '', percent: '' }])).toEqual({ ok: false, problem: 'Tier 2, up to: must be above the tier before it' });
    expect(parsedTiers([{ upTo: '100', flat: '', percent: '' }])).toEqual({ ok: false, problem: 'Tier 1, up to: leave it empty: the last tier has no upper bound' });
    expect(parsedTiers([{ upTo: '1.234', flat: '', percent: '' }, { upTo: '', flat: '', percent: '' }])).toMatchObject({ ok: false, problem: 'Tier 1, up to: At most two decimals (cents)' });
    expect(parsedTiers([{ upTo: '', flat: '-1', percent: '' }])).toMatchObject({ ok: false, problem: expect.stringContaining('Tier 1, flat fee') });
    expect(parsedTiers([{ upTo: '', flat: '', percent: '100.01' }])).toMatchObject({ ok: false, problem: expect.stringContaining('Tier 1, percentage') });
    expect(parsedTiers([])).toMatchObject({ ok: false });
  });

  test('when a percentage is typed, then it is read as text, never through a float', () => {
    expect(basisPointsOf('0.29')).toBe(29);
    expect(basisPointsOf('1.1')).toBe(110);
    expect(basisPointsOf('100')).toBe(10_000);
    expect(basisPointsOf('2.5 %')).toBe(250);
    expect(basisPointsOf('1.005')).toBeUndefined();
    expect(basisPointsOf('-1')).toBeUndefined();
  });

  test('when the tiers are described for the review, then each bound, flat part and percentage is in words', () => {
    expect(describedTiers([{ upToMinor: '10000', flatMinor: '50', basisPoints: 150 }, { upToMinor: null, flatMinor: '500', basisPoints: 5 }], 'USD')).toBe('up to USD 100.00: USD 0.50 + 1.50 %; above: USD 5.00 + 0.05 %');
    expect(describedTiers([{ upToMinor: null, flatMinor: '0', basisPoints: 100 }], 'LRD')).toBe('any amount: LRD 0.00 + 1.00 %');
  });
});
