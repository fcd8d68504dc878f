import { useState, type ReactNode } from 'react';
import { Field } from '../../../../libs/console-web/pages/ui';

export { ErrorNotice, SuccessNotice, Field, dateTime } from '../../../../libs/console-web/pages/ui';
export { amountText, moneyText } from './format';
export { Pager, useCursorTrail } from '../../../../libs/console-web/pages/paging';

/** Runs one piece of work at a time, keeping its refusal to show. */
export function useWork(): { busy: boolean; error: unknown; run: (work: () => Promise<void>) => Promise<void>; setError: (error: unknown) => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const run = async (work: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (refusal) {
      setError(refusal);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, setError };
}

/** A six-digit code field for the fresh MFA check an admin's change needs (left empty right after a sign-in). */
export function freshCodeOf(value: string): { code?: string } {
  return value.trim() === '' ? {} : { code: value.trim() };
}

/** A six-digit code field for the fresh MFA check an admin's change needs. */
export function FreshCodeField(props: { id: string; value: string; onChange: (value: string) => void }): ReactNode {
  return (
    <Field id={props.id} label="Code from your authenticator app" hint="Needed when you signed in more than a few minutes ago: a fresh code confirms it is you (each code works once).">
      <input id={props.id} inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} value={props.value} aria-describedby={`${props.id}-hint`} onChange={(event) => props.onChange(event.target.value)} />
    </Field>
  );
}
