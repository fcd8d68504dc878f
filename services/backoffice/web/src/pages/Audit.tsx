import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { api, queryOf } from '../api';
import { Pager, useCursorTrail } from '../../../../../libs/console-web/pages/paging';
import { ErrorNotice, Field, SuccessNotice, dateTime } from '../ui';

interface AuditEntry {
  sequence: number;
  entryId: string;
  occurredAt: string;
  actor: { kind: string; id: string; displayName: string };
  action: string;
  target: { kind: string; id: string };
  outcome: string;
  reason?: string | null;
}

type Verification = { ok: true; entries: number } | { ok: false; firstBrokenSequence: number; entryId: string | null; problem: string };

const filterNames = ['actorId', 'action', 'targetKind', 'targetId', 'outcome', 'from', 'before'] as const;
type Filters = Record<(typeof filterNames)[number], string>;
const noFilters: Filters = { actorId: '', action: '', targetKind: '', targetId: '', outcome: '', from: '', before: '' };
const labels: Record<keyof Filters, string> = { actorId: 'Person (operator id)', action: 'Action (prefix)', targetKind: 'Target kind', targetId: 'Target id', outcome: 'Outcome', from: 'From (UTC date)', before: 'Before (UTC date)' };

function instantOf(day: string): string | undefined {
  return day === '' ? undefined : new Date(`${day}T00:00:00Z`).toISOString();
}

/** The audit log for checkers and admins: filters, pages by sequence, exports and the chain's verification. */
export function AuditPage(): ReactNode {
  const trail = useCursorTrail();
  const [typed, setTyped] = useState<Filters>(noFilters);
  const [filters, setFilters] = useState<Filters>(noFilters);
  const [page, setPage] = useState<{ entries: AuditEntry[]; nextCursor: string | null }>();
  const [error, setError] = useState<unknown>();
  const [verification, setVerification] = useState<Verification>();

  const apiFilters = { ...filters, from: instantOf(filters.from), before: instantOf(filters.before) };
  useEffect(() => {
    setError(undefined);
    const query = queryOf({ ...filters, from: instantOf(filters.from), before: instantOf(filters.before), cursor: trail.cursor, pageSize: '50' });
    api<{ entries: AuditEntry[]; nextCursor: string | null }>('GET', `/api/v1/audit-log${query}`).then(setPage).catch(setError);
  }, [filters, trail.cursor]);

  const search = (event: FormEvent): void => {
    event.preventDefault();
    trail.reset();
    setFilters(typed);
  };

  const verify = (): void => {
    setVerification(undefined);
    api<Verification>('GET', '/api/v1/audit-log/verification').then(setVerification).catch(setError);
  };

  return (
    <section aria-labelledby="audit-title">
      <div className="page-head">
        <h1 id="audit-title">Audit log</h1>
        <div className="actions">
          <a className="button secondary" href={`/api/v1/audit-log/export${queryOf({ ...apiFilters, format: 'csv' })}`} download>
            Export CSV
          </a>
          <a className="button secondary" href={`/api/v1/audit-log/export${queryOf({ ...apiFilters, format: 'ndjson' })}`} download>
            Export NDJSON
          </a>
          <button type="button" className="primary" onClick={verify}>
            Verify chain
          </button>
        </div>
      </div>
      {verification === undefined ? null : verification.ok ? (
        <SuccessNotice>The chain is intact: {verification.entries} entries verified.</SuccessNotice>
      ) : (
        <div className="notice notice-error" role="alert">
          The chain is broken at entry {verification.firstBrokenSequence} ({verification.problem}){verification.entryId === null ? '' : `, entry id ${verification.entryId}`}.
        </div>
      )}
      <form className="filters" role="search" onSubmit={search}>
        {filterNames.map((name) =>
          name === 'outcome' ? (
            <Field key={name} id="audit-outcome" label={labels.outcome}>
              <select id="audit-outcome" value={typed.outcome} onChange={(event) => setTyped({ ...typed, outcome: event.target.value })}>
                <option value="">any</option>
                <option value="done">done</option>
                <option value="refused">refused</option>
              </select>
            </Field>
          ) : (
            <Field key={name} id={`audit-${name}`} label={labels[name]}>
              <input id={`audit-${name}`} type={name === 'from' || name === 'before' ? 'date' : 'text'} value={typed[name]} onChange={(event) => setTyped({ ...typed, [name]: event.target.value })} />
            </Field>
          ),
        )}
        <div className="field">
          <button type="submit" className="primary">
            Search
          </button>
        </div>
      </form>
      <ErrorNotice error={error} />
      {page === undefined ? null : page.entries.length === 0 ? (
        <p className="empty">No entry matches.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Audit entries">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {page.entries.map((entry) => (
                <tr key={entry.entryId}>
                  <td className="nowrap">{entry.sequence}</td>
                  <td className="nowrap">{dateTime(entry.occurredAt)}</td>
                  <td>{entry.actor.displayName}</td>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td>
                    {entry.target.kind} <code>{entry.target.id}</code>
                  </td>
                  <td>
                    {entry.outcome}
                    {entry.reason === undefined || entry.reason === null ? '' : `: ${entry.reason}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager trail={trail} nextCursor={page?.nextCursor} />
    </section>
  );
}
