import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { api, queryOf } from '../api';
import { describedChange, parameterRows, type ApprovalRequestView } from '../describe';
import { Pager, useCursorTrail } from '../../../../../libs/console-web/pages/paging';
import { Link } from '../../../../../libs/console-web/pages/router';
import { hasRole, useSession } from '../session';
import { ErrorNotice, SuccessNotice, dateTime } from '../ui';

const statuses = ['pending', 'approved', 'executed', 'rejected', 'expired', 'failed'] as const;
type Status = (typeof statuses)[number];

interface Page {
  requests: ApprovalRequestView[];
  nextCursor: string | null;
}

/** The four-eyes queue by status, in keyset pages; checkers decide here after a confirmation. */
export function ApprovalsPage(): ReactNode {
  const { session } = useSession();
  const [status, setStatus] = useState<Status>('pending');
  const trail = useCursorTrail();
  const [page, setPage] = useState<Page>();
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState<string>();

  const { cursor } = trail;
  // Resolves once the page is in state: a decision's notice waits for it, so it never shows above the old list.
  const load = useCallback((): Promise<void> => {
    setError(undefined);
    return api<Page>('GET', `/api/v1/approval-requests${queryOf({ status, cursor, pageSize: '20' })}`)
      .then(setPage)
      .catch(setError);
  }, [status, cursor]);
  useEffect(() => {
    void load();
  }, [load]);

  const choose = (next: Status): void => {
    setStatus(next);
    trail.reset();
    setPage(undefined);
    setNotice(undefined);
  };

  return (
    <section aria-labelledby="approvals-title">
      <div className="page-head">
        <h1 id="approvals-title">Approvals</h1>
        {hasRole(session, 'maker') ? (
          <Link to="/approvals/new" className="button primary">
            New request
          </Link>
        ) : null}
      </div>
      <div className="tabs" role="group" aria-label="Status">
        {statuses.map((each) => (
          <button key={each} type="button" className={each === status ? 'tab active' : 'tab'} aria-pressed={each === status} onClick={() => choose(each)}>
            {each[0]?.toUpperCase()}
            {each.slice(1)}
          </button>
        ))}
      </div>
      {notice === undefined ? null : <SuccessNotice>{notice}</SuccessNotice>}
      <ErrorNotice error={error} />
      {page === undefined ? (
        <p>Loading…</p>
      ) : page.requests.length === 0 ? (
        <p className="empty">No {status} requests.</p>
      ) : (
        <ul className="cards">
          {page.requests.map((request) => (
            <li key={request.requestId}>
              <RequestCard
                request={request}
                ownId={session.operator.operatorId}
                mayDecide={hasRole(session, 'checker')}
                onDecided={(decided) => {
                  void load().then(() => setNotice(`Request ${decided.requestId} is now ${decided.status}.`));
                }}
              />
            </li>
          ))}
        </ul>
      )}
      <Pager trail={trail} nextCursor={page?.nextCursor} />
    </section>
  );
}

function RequestCard(props: { request: ApprovalRequestView; ownId: string; mayDecide: boolean; onDecided: (request: ApprovalRequestView) => void }): ReactNode {
  const { request } = props;
  const [confirming, setConfirming] = useState<'approve' | 'reject'>();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const description = describedChange(request.action, request.target, request.parameters);

  const decide = (): void => {
    if (confirming === undefined) return;
    setBusy(true);
    setError(undefined);
    api<ApprovalRequestView>('POST', `/api/v1/approval-requests/${encodeURIComponent(request.requestId)}/${confirming}`, note.trim() === '' ? {} : { note: note.trim() })
      .then((decided) => {
        setConfirming(undefined);
        props.onDecided(decided);
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };

  const headingId = `request-${request.requestId}`;
  return (
    <article className="card" aria-labelledby={headingId}>
      <h2 id={headingId} className="card-title">
        {description}
      </h2>
      <dl className="facts">
        <dt>Action</dt>
        <dd>
          <code>{request.action}</code>
        </dd>
        <dt>Target</dt>
        <dd>
          {request.target.kind} <code>{request.target.id}</code>
        </dd>
        {parameterRows(request.parameters, request.target).map(([name, value]) => (
          <FactRow key={name} name={name} value={value} />
        ))}
        <dt>Reason</dt>
        <dd>{request.reason}</dd>
        <dt>Maker</dt>
        <dd>
          {request.makerName ?? 'unknown operator'}
          {request.makerId === props.ownId ? ' (you)' : ''} <code className="muted">{request.makerId}</code>
        </dd>
        <dt>Requested</dt>
        <dd>{dateTime(request.requestedAt)}</dd>
        <dt>{request.status === 'pending' ? 'Expires' : 'Expired or expires'}</dt>
        <dd>{dateTime(request.expiresAt)}</dd>
        <dt>Status</dt>
        <dd>
          <span className={`badge badge-${request.status}`}>{request.status}</span>
        </dd>
        {request.checkerId === null ? null : (
          <>
            <dt>Checker</dt>
            <dd>
              {request.checkerName ?? 'unknown operator'} <code className="muted">{request.checkerId}</code> at {dateTime(request.decidedAt)}
              {request.decisionNote === null ? '' : ` — ${request.decisionNote}`}
            </dd>
          </>
        )}
        {request.executedAt === null ? null : (
          <>
            <dt>Executed</dt>
            <dd>{dateTime(request.executedAt)}</dd>
          </>
        )}
        {request.executionResult === null || request.executionResult === undefined ? null : (
          <>
            <dt>Outcome</dt>
            <dd>
              <code>{JSON.stringify(request.executionResult)}</code>
            </dd>
          </>
        )}
      </dl>
      <ErrorNotice error={error} />
      {request.status === 'pending' && props.mayDecide ? (
        confirming === undefined ? (
          <div className="actions">
            <button type="button" className="primary" onClick={() => setConfirming('approve')}>
              Approve
            </button>
            <button type="button" className="danger" onClick={() => setConfirming('reject')}>
              Reject
            </button>
          </div>
        ) : (
          <div className="confirm" role="group" aria-label={`Confirm ${confirming}`}>
            <p>
              <strong>{confirming === 'approve' ? 'Approve and run now:' : 'Reject, nothing will run:'}</strong> {description}.
            </p>
            <div className="field">
              <label htmlFor={`note-${request.requestId}`}>Note (optional)</label>
              <input id={`note-${request.requestId}`} value={note} maxLength={500} onChange={(event) => setNote(event.target.value)} />
            </div>
            <div className="actions">
              <button type="button" className={confirming === 'approve' ? 'primary' : 'danger'} disabled={busy} onClick={decide}>
                {confirming === 'approve' ? 'Yes, approve' : 'Yes, reject'}
              </button>
              <button type="button" className="secondary" disabled={busy} onClick={() => setConfirming(undefined)}>
                Cancel
              </button>
            </div>
          </div>
        )
      ) : null}
    </article>
  );
}

function FactRow(props: { name: string; value: string }): ReactNode {
  return (
    <>
      <dt>{props.name}</dt>
      <dd>{props.value}</dd>
    </>
  );
}
