import { useEffect, useState, type ReactNode } from 'react';
import { api, queryOf } from '../api';
import { dateTime, ErrorNotice, Pager, useCursorTrail } from '../ui';

interface Entry {
  sequence: number;
  occurredAt: string;
  actor: { displayName: string };
  action: string;
  target: { kind: string; id: string };
  outcome: string;
  reason: string | null;
  address: string | null;
}

/** The partner's own audit log: who on the team changed what, and every refusal, newest first. */
export function AuditPage(): ReactNode {
  const trail = useCursorTrail();
  const [page, setPage] = useState<{ entries: Entry[]; nextCursor: string | null }>();
  const [error, setError] = useState<unknown>();
  const { cursor } = trail;
  useEffect(() => {
    api<{ entries: Entry[]; nextCursor: string | null }>('GET', `/api/v1/audit-log${queryOf({ cursor, size: '50' })}`).then(setPage, setError);
  }, [cursor]);
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <p className="actions">
        <a className="button secondary" href="/api/v1/audit-log/export?format=csv" download>
          Download the whole log (CSV)
        </a>{' '}
        <a className="button secondary" href="/api/v1/audit-log/export?format=ndjson" download>
          Download as NDJSON
        </a>
      </p>
      <ErrorNotice error={error} />
      {page === undefined ? null : (
        <table aria-label="Audit entries">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Outcome</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {page.entries.map((entry) => (
              <tr key={entry.sequence}>
                <td>{dateTime(entry.occurredAt)}</td>
                <td>{entry.actor.displayName}</td>
                <td>{entry.action}</td>
                <td>
                  {entry.target.kind} {entry.target.id}
                </td>
                <td>{entry.reason === null ? entry.outcome : `${entry.outcome}: ${entry.reason}`}</td>
                <td>{entry.address ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager trail={trail} nextCursor={page?.nextCursor} previousLabel="Newer entries" nextLabel="Older entries" />
    </section>
  );
}
