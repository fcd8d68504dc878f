import type { ReactNode } from 'react';
import { ApiRefusal } from './api-client';

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

