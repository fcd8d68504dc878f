import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { api, queryOf } from '../api';
import { Link, navigate } from '../../../../../libs/console-web/pages/router';
import { may, useSession } from '../session';
import { dateTime, ErrorNotice, Field } from '../ui';

export type TransactionKind = 'collections' | 'disbursements' | 'refunds' | 'deliveries';

/** A row of any list: the fields each kind has, read as text (nothing a partner's customer typed ever runs as script: React renders text). */
export interface TransactionRow {
  referenceId?: string;
  deliveryId?: string;
  externalId?: string | null;
  status?: string;
  amount?: number;
  currency?: string;
  event?: string;
  createdAt?: string;
  attemptCount?: number;
}

const kinds: [TransactionKind, string][] = [
  ['collections', 'Collections'],
  ['disbursements', 'Disbursements'],
  ['refunds', 'Refunds'],
  ['deliveries', 'Webhook deliveries'],
];

/** Every list the API gives: its one shape (decision 0077). */
interface ListPage {
  items: TransactionRow[];
  nextCursor: string | null;
  hasMore: boolean;
}

export function TransactionRows(props: { kind: TransactionKind; rows: TransactionRow[]; label: string; onRedeliver?: (deliveryId: string) => void }): ReactNode {
  if (props.rows.length === 0) return <p>Nothing yet.</p>;
  const deliveries = props.kind === 'deliveries';
  return (
    <table aria-label={props.label}>
      <thead>
        <tr>
          <th scope="col">{deliveries ? 'Delivery' : 'Reference'}</th>
          <th scope="col">{deliveries ? 'Event' : 'Your externalId'}</th>
          <th scope="col">Status</th>
          {deliveries ? null : <th scope="col">Amount</th>}
          <th scope="col">Created</th>
          {deliveries && props.onRedeliver !== undefined ? <th scope="col">Again</th> : null}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row, index) => (
          <tr key={row.referenceId ?? row.deliveryId ?? index}>
            <td>{row.referenceId === undefined ? <code>{row.deliveryId}</code> : <Link to={`/transactions/${encodeURIComponent(row.referenceId)}`}>{row.referenceId}</Link>}</td>
            <td>{deliveries ? row.event : (row.externalId ?? '—')}</td>
            <td>{row.status}</td>
            {deliveries ? null : <td>{row.amount === undefined ? '—' : `${row.currency ?? ''} ${row.amount.toFixed(2)}`}</td>}
            <td>{dateTime(row.createdAt)}</td>
            {deliveries && props.onRedeliver !== undefined && row.deliveryId !== undefined ? (
              <td>
                <button type="button" className="secondary small" onClick={() => props.onRedeliver?.(row.deliveryId ?? '')}>
                  Send again
                </button>
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the search box holds: a referenceId (PK?-…), a phone (digits, +, spaces, hyphens), or else an externalId. */
export function searchOf(text: string): { by: 'referenceId' | 'phone' | 'externalId'; value: string } | undefined {
  const value = text.trim();
  if (value === '') return undefined;
  if (/^PK[CDR]-/i.test(value)) return { by: 'referenceId', value };
  if (/^(\+231|0)(77|88|55)\d{7}$/.test(value.replace(/[\s-]/g, ''))) return { by: 'phone', value };
  return { by: 'externalId', value };
}

/** The partner's transactions with the API's filters and keyset pages, and a search by referenceId, externalId or phone. */
export function TransactionsPage(props: { search: URLSearchParams }): ReactNode {
  const kind: TransactionKind = kinds.find(([name]) => name === props.search.get('kind'))?.[0] ?? 'collections';
  const [filters, setFilters] = useState({ status: '', currency: '', externalId: '', phone: '', createdFrom: '', createdTo: '' });
  const [applied, setApplied] = useState(filters);
  const [cursors, setCursors] = useState<string[]>([]);
  const [page, setPage] = useState<ListPage>();
  const [error, setError] = useState<unknown>();
  const [searched, setSearched] = useState('');
  const cursor = cursors[cursors.length - 1];

  useEffect(() => {
    setError(undefined);
    const query = queryOf({ ...(kind === 'deliveries' ? { status: applied.status } : kind === 'refunds' ? { ...applied, phone: '' } : applied), limit: '20', cursor });
    api<ListPage>('GET', `/api/v1/transactions/${kind}${query}`).then(setPage, (refusal: unknown) => {
      setPage(undefined);
      setError(refusal);
    });
  }, [kind, applied, cursor]);

  const apply = (event: FormEvent): void => {
    event.preventDefault();
    setCursors([]);
    setApplied(filters);
  };
  // One box for what support has at hand: a referenceId opens the transaction, a phone or an externalId filters the list.
  const lookUp = (event: FormEvent): void => {
    event.preventDefault();
    const found = searchOf(searched);
    if (found === undefined) return;
    if (found.by === 'referenceId') {
      navigate(`/transactions/${encodeURIComponent(found.value)}`);
      return;
    }
    const next = { ...filters, externalId: '', phone: '', [found.by]: found.value };
    setFilters(next);
    setCursors([]);
    setApplied(next);
  };
  const rows = page?.items ?? [];
  const session = useSession();
  const [notice, setNotice] = useState<string>();
  const redeliver = (deliveryId: string): void => {
    setError(undefined);
    setNotice(undefined);
    api('POST', `/api/v1/deliveries/${encodeURIComponent(deliveryId)}/redelivery`, {}).then(() => setNotice(`Delivery ${deliveryId} is sent again.`), setError);
  };
  return (
    <section aria-labelledby="transactions-title">
      <h1 id="transactions-title">Transactions</h1>
      <nav aria-label="Kinds" className="tabs">
        <ul>
          {kinds.map(([name, label]) => (
            <li key={name}>
              <Link to={`/transactions?kind=${name}`} current={name === kind}>
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <form onSubmit={lookUp} aria-label="Find a transaction" className="inline-form">
        <Field id="lookup" label="Find by referenceId, your externalId or the customer’s phone" hint="PKC-… (collection), PKD-… (disbursement) or PKR-… (refund) opens it; a phone (0770123456) or an externalId lists what matches.">
          <input id="lookup" value={searched} aria-describedby="lookup-hint" onChange={(event) => setSearched(event.target.value)} />
        </Field>
        <button type="submit" className="secondary">
          Find
        </button>
      </form>
      <form onSubmit={apply} aria-label="Filters" className="filters">
        <Field id="filter-status" label="Status">
          <input id="filter-status" value={filters.status} onChange={(event) => setFilters({ ...filters, status: event.target.value })} />
        </Field>
        {kind === 'deliveries' ? null : (
          <>
            <Field id="filter-currency" label="Currency">
              <select id="filter-currency" value={filters.currency} onChange={(event) => setFilters({ ...filters, currency: event.target.value })}>
                <option value="">Any</option>
                <option value="LRD">LRD</option>
                <option value="USD">USD</option>
              </select>
            </Field>
            <Field id="filter-external-id" label="Your externalId">
              <input id="filter-external-id" value={filters.externalId} onChange={(event) => setFilters({ ...filters, externalId: event.target.value })} />
            </Field>
            {kind === 'refunds' ? null : (
              <Field id="filter-phone" label="Customer’s phone">
                <input id="filter-phone" inputMode="tel" placeholder="0770123456" value={filters.phone} onChange={(event) => setFilters({ ...filters, phone: event.target.value })} />
              </Field>
            )}
            <Field id="filter-from" label="Created from (ISO 8601)">
              <input id="filter-from" placeholder="2026-11-01T00:00:00Z" value={filters.createdFrom} onChange={(event) => setFilters({ ...filters, createdFrom: event.target.value })} />
            </Field>
            <Field id="filter-to" label="Created before (ISO 8601)">
              <input id="filter-to" placeholder="2026-12-01T00:00:00Z" value={filters.createdTo} onChange={(event) => setFilters({ ...filters, createdTo: event.target.value })} />
            </Field>
          </>
        )}
        <button type="submit" className="secondary">
          Apply
        </button>
      </form>
      <ErrorNotice error={error} />
      {notice === undefined ? null : (
        <p className="notice notice-success" role="status">
          {notice}
        </p>
      )}
      <TransactionRows kind={kind} rows={rows} label={kinds.find(([name]) => name === kind)?.[1] ?? kind} {...(may(session, 'redeliver') ? { onRedeliver: redeliver } : {})} />
      <p className="pager">
        {cursors.length > 0 ? (
          <button type="button" className="secondary" onClick={() => setCursors(cursors.slice(0, -1))}>
            Previous page
          </button>
        ) : null}
        {page?.nextCursor ? (
          <button type="button" className="secondary" onClick={() => setCursors([...cursors, page.nextCursor ?? ''])}>
            Next page
          </button>
        ) : null}
      </p>
    </section>
  );
}

/** One transaction as its owner tells it; in the sandbox, a pending collection can be approved or declined as its user would. */
export function TransactionDetailPage(props: { referenceId: string }): ReactNode {
  const session = useSession();
  const [detail, setDetail] = useState<Record<string, unknown>>();
  const [error, setError] = useState<unknown>();
  const load = useCallback(() => api<Record<string, unknown>>('GET', `/api/v1/transaction/${encodeURIComponent(props.referenceId)}`).then(setDetail, setError), [props.referenceId]);
  useEffect(() => {
    void load();
  }, [load]);
  const decide = (decision: 'approve' | 'decline'): void => {
    setError(undefined);
    api('POST', `/api/v1/sandbox/collections/${encodeURIComponent(props.referenceId)}/${decision}`, {}).then(load, setError);
  };
  const pendingCollection = props.referenceId.startsWith('PKC-') && detail?.status === 'pending_approval' && may(session, 'simulate');
  return (
    <section aria-labelledby="detail-title">
      <h1 id="detail-title">{props.referenceId}</h1>
      <ErrorNotice error={error} />
      {pendingCollection ? (
        <div className="actions" role="group" aria-label="Sandbox: act as the user">
          <button type="button" className="secondary" onClick={() => decide('approve')}>
            Approve as the user (sandbox)
          </button>
          <button type="button" className="secondary" onClick={() => decide('decline')}>
            Decline as the user (sandbox)
          </button>
        </div>
      ) : null}
      {detail === undefined ? null : (
        <dl className="facts" aria-label="The transaction">
          {Object.entries(detail).map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{typeof value === 'object' && value !== null ? <code>{JSON.stringify(value)}</code> : String(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      {detail === undefined ? null : <TransactionStory referenceId={props.referenceId} />}
      <p>
        <Link to="/transactions">Back to the transactions</Link>
      </p>
    </section>
  );
}

interface DeliveryAttempt {
  attempt: number;
  startedAt: string;
  outcome: string;
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
}

interface DeliveryStory {
  deliveryId: string;
  event: string;
  status: string;
  createdAt: string;
  nextAttemptAt: string | null;
  attempts: DeliveryAttempt[];
}

/**
 * The rest of a transaction's story: each webhook the partner was sent about it (every status
 * change it was told of) with every attempt and the answer it got, a button to send one again, and
 * a collection's refunds.
 */
function TransactionStory(props: { referenceId: string }): ReactNode {
  const session = useSession();
  const [deliveries, setDeliveries] = useState<DeliveryStory[]>();
  const [refunds, setRefunds] = useState<TransactionRow[]>();
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState<string>();
  const isCollection = props.referenceId.toUpperCase().startsWith('PKC-');
  const load = useCallback(() => {
    api<{ items: DeliveryStory[] }>('GET', `/api/v1/transactions/deliveries${queryOf({ referenceId: props.referenceId, limit: '50' })}`).then((page) => setDeliveries(page.items), setError);
    if (isCollection) api<{ items: TransactionRow[] }>('GET', `/api/v1/transactions/refunds${queryOf({ collectionReferenceId: props.referenceId, limit: '50' })}`).then((page) => setRefunds(page.items), setError);
  }, [props.referenceId, isCollection]);
  useEffect(load, [load]);
  const redeliver = (deliveryId: string): void => {
    setError(undefined);
    setNotice(undefined);
    api('POST', `/api/v1/deliveries/${encodeURIComponent(deliveryId)}/redelivery`, {}).then(() => {
      setNotice(`Delivery ${deliveryId} is sent again.`);
      load();
    }, setError);
  };
  return (
    <>
      <ErrorNotice error={error} />
      {notice === undefined ? null : (
        <p className="notice notice-success" role="status">
          {notice}
        </p>
      )}
      {isCollection ? (
        <section aria-labelledby="refunds-title">
          <h2 id="refunds-title">Refunds</h2>
          {refunds === undefined ? null : <TransactionRows kind="refunds" rows={refunds} label="Refunds of this collection" />}
        </section>
      ) : null}
      <section aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">Webhooks sent about it</h2>
        {deliveries === undefined ? null : deliveries.length === 0 ? (
          <p>No webhook yet.</p>
        ) : (
          <table aria-label="Webhook attempts">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Delivery</th>
                <th scope="col">Attempt</th>
                <th scope="col">At</th>
                <th scope="col">Answer</th>
                {may(session, 'redeliver') ? <th scope="col">Again</th> : null}
              </tr>
            </thead>
            <tbody>
              {deliveries.flatMap((delivery) => {
                const attempts: (DeliveryAttempt | undefined)[] = delivery.attempts.length === 0 ? [undefined] : delivery.attempts;
                return attempts.map((attempt, index) => (
                  <tr key={`${delivery.deliveryId}-${attempt?.attempt ?? 0}`}>
                    <td>{index === 0 ? delivery.event : ''}</td>
                    <td>{index === 0 ? delivery.status : ''}</td>
                    <td>{attempt?.attempt ?? '—'}</td>
                    <td>{dateTime(attempt?.startedAt ?? delivery.createdAt)}</td>
                    <td>{attempt === undefined ? (delivery.nextAttemptAt === null ? 'Not sent' : `Next try ${dateTime(delivery.nextAttemptAt)}`) : answerOf(attempt)}</td>
                    {may(session, 'redeliver') ? (
                      <td>
                        {index === 0 ? (
                          <button type="button" className="secondary small" onClick={() => redeliver(delivery.deliveryId)}>
                            Send again
                          </button>
                        ) : null}
                      </td>
                    ) : null}
                  </tr>
                ));
              })}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

function answerOf(attempt: DeliveryAttempt): string {
  const status = attempt.statusCode === null ? 'no HTTP answer' : `HTTP ${attempt.statusCode}`;
  const latency = attempt.latencyMs === null ? '' : ` in ${attempt.latencyMs} ms`;
  return `${attempt.outcome}: ${status}${latency}${attempt.error === null ? '' : ` (${attempt.error})`}`;
}
