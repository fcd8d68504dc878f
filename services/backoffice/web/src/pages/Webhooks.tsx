import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { api, queryOf } from '../api';
import { Pager, useCursorTrail } from '../../../../../libs/console-web/pages/paging';
import { Link } from '../../../../../libs/console-web/pages/router';
import { hasRole, useSession } from '../session';
import { ErrorNotice, Field, SuccessNotice, dateTime, newIdempotencyKey } from '../ui';

interface Delivery {
  deliveryId: string;
  eventId: string;
  partnerId: string;
  event: string;
  referenceId: string | null;
  status: string;
  deliveryState: string;
  attemptCount: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  failedAt: string | null;
}

/** The webhook backlog and dead letters, newest first; makers and admins redeliver (one key per click, so a double click is one redelivery). */
export function WebhooksPage(): ReactNode {
  const { session } = useSession();
  const trail = useCursorTrail();
  const [status, setStatus] = useState('');
  const [typedPartner, setTypedPartner] = useState('');
  const [partnerId, setPartnerId] = useState('');
  const [page, setPage] = useState<{ deliveries: Delivery[]; nextCursor: string | null }>();
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState<string>();

  // Resolves once the page is in state: a redelivery's notice waits for it, so it never shows above the old list.
  const load = useCallback((): Promise<void> => {
    setError(undefined);
    return api<{ deliveries: Delivery[]; nextCursor: string | null }>('GET', `/api/v1/webhook-deliveries${queryOf({ status, partnerId, cursor: trail.cursor, pageSize: '25' })}`)
      .then(setPage)
      .catch(setError);
  }, [status, partnerId, trail.cursor]);
  useEffect(() => {
    void load();
  }, [load]);

  const search = (event: FormEvent): void => {
    event.preventDefault();
    trail.reset();
    setPartnerId(typedPartner);
  };

  const mayRedeliver = hasRole(session, 'maker', 'admin');
  const redeliver = (delivery: Delivery): void => {
    setError(undefined);
    api<{ replayed: boolean; after: { deliveryState: string } }>('POST', `/api/v1/webhook-deliveries/${encodeURIComponent(delivery.deliveryId)}/redeliver`, {}, { 'Idempotency-Key': newIdempotencyKey() })
      .then((answer) => load().then(() => setNotice(`Delivery ${delivery.deliveryId} is ${answer.after.deliveryState} again${answer.replayed ? ' (already asked)' : ''}.`)))
      .catch(setError);
  };

  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhook deliveries</h1>
      <form className="filters" role="search" onSubmit={search}>
        <Field id="delivery-status" label="Status">
          <select
            id="delivery-status"
            value={status}
            onChange={(event) => {
              trail.reset();
              setStatus(event.target.value);
            }}
          >
            <option value="">any (pending, retrying, dead)</option>
            <option value="pending">pending</option>
            <option value="retrying">retrying</option>
            <option value="dead">dead</option>
          </select>
        </Field>
        <Field id="delivery-partner" label="Partner id">
          <input id="delivery-partner" value={typedPartner} onChange={(event) => setTypedPartner(event.target.value)} />
        </Field>
        <div className="field">
          <button type="submit" className="primary">
            Search
          </button>
        </div>
      </form>
      {notice === undefined ? null : <SuccessNotice>{notice}</SuccessNotice>}
      <ErrorNotice error={error} />
      {page === undefined ? null : page.deliveries.length === 0 ? (
        <p className="empty">No delivery waiting or dead.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Webhook deliveries">
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Event</th>
                <th scope="col">Partner</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last error</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.deliveries.map((delivery) => (
                <tr key={delivery.deliveryId}>
                  <td className="nowrap">{dateTime(delivery.createdAt)}</td>
                  <td>
                    <code>{delivery.event}</code>
                    {delivery.referenceId === null ? null : <div className="hint">{delivery.referenceId}</div>}
                  </td>
                  <td>
                    <Link to={`/partners/${delivery.partnerId}`}>{delivery.partnerId.slice(0, 8)}…</Link>
                  </td>
                  <td>{delivery.status}</td>
                  <td>{delivery.attemptCount}</td>
                  <td>
                    {delivery.lastStatusCode === null ? '' : `HTTP ${delivery.lastStatusCode} `}
                    {delivery.lastError ?? ''}
                  </td>
                  <td>
                    {mayRedeliver ? (
                      <button type="button" className="secondary small" onClick={() => redeliver(delivery)}>
                        Redeliver
                      </button>
                    ) : null}
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
