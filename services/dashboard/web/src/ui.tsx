import { useState, type ReactNode } from 'react';
import { ApiRefusal } from './api';

/** A refusal as the API worded it, with its catalogue code, announced to screen readers. */
export function ErrorNotice(props: { error: unknown }): ReactNode {
  if (props.error === undefined || props.error === null) return null;
  const refusal = props.error instanceof ApiRefusal ? props.error : undefined;
  const message = refusal?.message ?? (props.error instanceof Error ? props.error.message : 'Something went wrong');
  return (
    <div className="notice notice-error" role="alert">
      <strong>Refused{refusal === undefined ? '' : ` (${refusal.code})`}:</strong> {message}
    </div>
  );
}

export function SuccessNotice(props: { children: ReactNode }): ReactNode {
  return (
    <div className="notice notice-success" role="status">
      {props.children}
    </div>
  );
}

export function Field(props: { id: string; label: string; hint?: string; children: ReactNode }): ReactNode {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      {props.children}
      {props.hint === undefined ? null : (
        <p className="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      )}
    </div>
  );
}

export function dateTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC');
}

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
