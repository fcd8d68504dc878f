import type { ReactNode } from 'react';
import { emptyTier, tiersMax, type TypedTier } from './fee-tiers';
import { Field } from './ui';

/** The tiers as editable rows: add one before the open-ended last, remove any but the only one. */
export function FeeTiersEditor(props: { rows: TypedTier[]; onChange: (rows: TypedTier[]) => void }): ReactNode {
  const { rows, onChange } = props;
  const set = (index: number, field: keyof TypedTier, value: string): void => onChange(rows.map((row, at) => (at === index ? { ...row, [field]: value } : row)));
  return (
    <fieldset>
      <legend>Fee tiers (they replace all the schedule&apos;s tiers)</legend>
      <p className="hint">Amounts in major units. The last tier has no upper bound. Fee = flat part + percentage of the amount.</p>
      {rows.map((row, index) => (
        <div className="inline" key={index} role="group" aria-label={`Tier ${index + 1}`}>
          <Field id={`tier-${index}-up-to`} label={`Tier ${index + 1}: up to`}>
            <input id={`tier-${index}-up-to`} inputMode="decimal" disabled={index === rows.length - 1} placeholder={index === rows.length - 1 ? 'no upper bound' : ''} value={row.upTo} onChange={(event) => set(index, 'upTo', event.target.value)} />
          </Field>
          <Field id={`tier-${index}-flat`} label={`Tier ${index + 1}: flat fee`}>
            <input id={`tier-${index}-flat`} inputMode="decimal" value={row.flat} onChange={(event) => set(index, 'flat', event.target.value)} />
          </Field>
          <Field id={`tier-${index}-percent`} label={`Tier ${index + 1}: percentage`}>
            <input id={`tier-${index}-percent`} inputMode="decimal" value={row.percent} onChange={(event) => set(index, 'percent', event.target.value)} />
          </Field>
          {rows.length > 1 ? (
            <button type="button" className="secondary small" onClick={() => onChange(rows.filter((_, at) => at !== index).map((each, at, kept) => (at === kept.length - 1 ? { ...each, upTo: '' } : each)))}>
              Remove tier {index + 1}
            </button>
          ) : null}
        </div>
      ))}
      {rows.length < tiersMax ? (
        <button type="button" className="secondary" onClick={() => onChange([...rows.slice(0, -1), { ...emptyTier }, ...rows.slice(-1)])}>
          Add a tier
        </button>
      ) : null}
    </fieldset>
  );
}
