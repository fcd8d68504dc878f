import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { api, queryOf } from '../api';
import { Link } from '../../../../../libs/console-web/pages/router';
import { dateTime, ErrorNotice, Field, Pager, useCursorTrail } from '../ui';
// The API's event kinds, for the filter; the list shows any kind the API gives.
import { webhookEventTypes as eventTypes } from '../../../../../libs/contracts/src/public/webhook-event-types';

interface PartnerEvent {
  eventId: string;
  type: string;
  createdAt: string;
  deliveryStatus: string;
  payload: { referenceId?: unknown; bulkId?: unknown; status?: unknown };
}

interface EventPage {
  items: PartnerEvent[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** What an event is about: a transaction's referenceId (linked to its story) or a bulk's bulkId. */
function SubjectOf(props: { payload: PartnerEvent['payload'] }): ReactNode {
  const { referenceId, bulkId } = props.payload;
  if (typeof referenceId === 'string' && /^PK[CDR]-/.test(referenceId)) return <Link to={`/transactions/${encodeURIComponent(referenceId)}`}>{referenceId}</Link>;
  if (typeof bulkId === 'string') return <Link to={`/bulk-payouts/${encodeURIComponent(bulkId)}`}>{bulkId}</Link>;
  return typeof referenceId === 'string' ? <code>{referenceId}</code> : '—';
}

/**
 * The partner's events (GET /partner/v1/events through the dashboard): every webhook sent or to be
 * sent in the last 30 days, oldest first, whatever became of its delivery, with the API's filters
 * (kind, since) and keyset pages. For catching up after an outage of the partner's receiver.
 */
export function EventsSection(): ReactNode {
  const [filters, setFilters] = useState({ type: '', since: '' });
  const [applied, setApplied] = useState(filters);
  const trail = useCursorTrail();
  const [page, setPage] = useState<EventPage>();
  const [error, setError] = useState<unknown>();
  const { cursor } = trail;

  useEffect(() => {
    setError(undefined);
    api<EventPage>('GET', `/api/v1/events${queryOf({ ...applied, limit: '20', cursor })}`).then(setPage, (refusal: unknown) => {
      setPage(undefined);
      setError(refusal);
    });
  }, [applied, cursor]);

  const apply = (event: FormEvent): void => {
    event.preventDefault();
    trail.reset();
    setApplied(filters);
  };
  return (
    <section aria-labelledby="events-title">
      <h2 id="events-title">Events</h2>
      <p>Every event of the last 30 days, oldest first, whether or not its webhook was delivered.</p>
      <form onSubmit={apply} aria-label="Event filters" className="filters">
        <Field id="event-type" label="Event">
          <select id="event-type" value={filters.type} onChange={(event) => setFilters({ ...filters, type: event.target.value })}>
            <option value="">Any</option>
            {eventTypes.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </Field>
        <Field id="event-since" label="Since (ISO 8601)">
          <input id="event-since" placeholder="2026-11-01T00:00:00Z" value={filters.since} onChange={(event) => setFilters({ ...filters, since: event.target.value })} />
        </Field>
        <button type="submit" className="secondary">
          Show events
        </button>
      </form>
      <ErrorNotice error={error} />
      {page === undefined ? null : page.items.length === 0 ? (
        <p>No event.</p>
      ) : (
        <table aria-label="Events">
          <thead>
            <tr>
              <th scope="col">Recorded</th>
              <th scope="col">Event</th>
              <th scope="col">About</th>
              <th scope="col">Webhook</th>
              <th scope="col">Event id</th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((event) => (
              <tr key={event.eventId}>
                <td>{dateTime(event.createdAt)}</td>
                <td>{event.type}</td>
                <td>
                  <SubjectOf payload={event.payload} />
                </td>
                <td>{event.deliveryStatus}</td>
                <td>
                  <code>{event.eventId}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager trail={trail} nextCursor={page?.nextCursor} previousLabel="Previous events" nextLabel="Next events" />
    </section>
  );
}
