import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { api, queryOf } from '../api';
import { Link, navigate } from '../../../../../libs/console-web/pages/router';
import { may, useSession } from '../session';
import { labelOfField } from '../format';
import { transactionStatuses } from '../statuses';
import { dateTime, ErrorNotice, Field, Pager, moneyText, useCursorTrail } from '../ui';

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
            {deliveries ? null : <td>{moneyText(row.amount, row.currency)}</td>}
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
  const trail = useCursorTrail();
  const [page, setPage] = useState<ListPage>();
  const [error, setError] = useState<unknown>();
  const [searched, setSearched] = useState('');
  const { cursor } = trail;

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
    trail.reset();
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
    trail.reset();
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
          <select id="filter-status" value={filters.status} onChange={(event) => setFilters({ ...filters, status: event.target.value })}>
            <option value="">Any</option>
            {transactionStatuses[kind].map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
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
      <Pager trail={trail} nextCursor={page?.nextCursor} previousLabel="Previous page" nextLabel="Next page" />
    </section>
  );
}

/** A failure as the owner records it: a code and a message for people. */
interface Failure {
  code: string;
  message: string;
}

/** The owner's record (CollectionStatus, DisbursementStatus or Refund): the fields the page reads; any other scalar field is shown as it is. */
interface TransactionRecord {
  referenceId: string;
  externalId?: string | null;
  status?: string;
  amount?: number;
  currency?: string;
  fee?: number;
  totalDebit?: number;
  netAmount?: number;
  quoteId?: string;
  note?: string | null;
  reason?: string | null;
  createdAt?: string;
  completedAt?: string | null;
  expiresAt?: string;
  transactionId?: string | { transactionId: string; completedAt: string } | null;
  refundedAmount?: number;
  collectionRefundedAmount?: number;
  failureCode?: string;
  failureReason?: Failure | null;
  bulkId?: string;
  collectionReferenceId?: string;
  reversal?: { transactionId: string; amount: number; currency: string; reversedAt: string };
  [field: string]: unknown;
}

interface StatusChange {
  status: string;
  at: string | null;
  source: string;
  referenceId?: string;
}

interface Story {
  transaction: TransactionRecord;
  statusChanges: StatusChange[];
  refunds: TransactionRow[] | null;
  refundsMore: boolean;
  deliveries: DeliveryStory[];
  deliveriesMore: boolean;
}

/** The fields the page lays out itself; any other scalar field of the record is listed under "More". */
const laidOut: ReadonlySet<string> = new Set([
  'referenceId', 'externalId', 'status', 'amount', 'currency', 'fee', 'totalDebit', 'netAmount', 'quoteId', 'note', 'reason', 'createdAt', 'completedAt', 'expiresAt',
  'transactionId', 'refundedAmount', 'collectionRefundedAmount', 'failureCode', 'failureReason', 'bulkId', 'collectionReferenceId', 'reversal',
]);

/** One fact of a definition list, left out when the record has no value for it. */
function Fact(props: { name: string; children: ReactNode; shown?: boolean }): ReactNode {
  if (props.shown === false) return null;
  return (
    <div>
      <dt>{props.name}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}

/**
 * One transaction's whole story, read in one call: what it is now, its money as quoted (amount, fee
 * and who bears it, total), when its status changed, a disbursement's reversal, a collection's
 * refunds and every webhook sent about it with each attempt's answer. In the sandbox, a pending
 * collection can be approved or declined as its user would.
 */
export function TransactionDetailPage(props: { referenceId: string }): ReactNode {
  const session = useSession();
  const [story, setStory] = useState<Story>();
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState<string>();
  const load = useCallback(() => api<Story>('GET', `/api/v1/transaction/${encodeURIComponent(props.referenceId)}/story`).then(setStory, setError), [props.referenceId]);
  useEffect(() => {
    void load();
  }, [load]);
  const decide = (decision: 'approve' | 'decline'): void => {
    setError(undefined);
    api('POST', `/api/v1/sandbox/collections/${encodeURIComponent(props.referenceId)}/${decision}`, {}).then(load, setError);
  };
  const redeliver = (deliveryId: string): void => {
    setError(undefined);
    setNotice(undefined);
    api('POST', `/api/v1/deliveries/${encodeURIComponent(deliveryId)}/redelivery`, {}).then(() => {
      setNotice(`Delivery ${deliveryId} is sent again.`);
      void load();
    }, setError);
  };
  const record = story?.transaction;
  const pendingCollection = props.referenceId.startsWith('PKC-') && record?.status === 'pending_approval' && may(session, 'simulate');
  return (
    <section aria-labelledby="detail-title">
      <h1 id="detail-title">{props.referenceId}</h1>
      <ErrorNotice error={error} />
      {notice === undefined ? null : (
        <p className="notice notice-success" role="status">
          {notice}
        </p>
      )}
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
      {story === undefined || record === undefined ? null : (
        <>
          <TransactionFacts record={record} />
          <StatusChanges changes={story.statusChanges} />
          {record.reversal === undefined ? null : <ReversalFacts reversal={record.reversal} />}
          {story.refunds === null ? null : (
            <section aria-labelledby="refunds-title">
              <h2 id="refunds-title">Refunds</h2>
              <TransactionRows kind="refunds" rows={story.refunds} label="Refunds of this collection" />
              {story.refundsMore ? <p>More refunds are in the refunds list.</p> : null}
            </section>
          )}
          <WebhookAttempts deliveries={story.deliveries} more={story.deliveriesMore} {...(may(session, 'redeliver') ? { onRedeliver: redeliver } : {})} />
        </>
      )}
      <p>
        <Link to="/transactions">Back to the transactions</Link>
      </p>
    </section>
  );
}

/** What the transaction is now and its money as quoted: every value as text. */
function TransactionFacts(props: { record: TransactionRecord }): ReactNode {
  const { record } = props;
  const collection = record.referenceId.startsWith('PKC-');
  const settlement = typeof record.transactionId === 'object' && record.transactionId !== null ? record.transactionId : undefined;
  const transactionId = typeof record.transactionId === 'string' ? record.transactionId : settlement?.transactionId;
  const failure = record.failureReason ?? (record.failureCode === undefined ? undefined : { code: record.failureCode, message: '' });
  const more = Object.entries(record).filter(([name, value]) => !laidOut.has(name) && value !== null && typeof value !== 'object');
  return (
    <>
      <dl className="facts" aria-label="The transaction">
        <Fact name="Status">{record.status ?? '—'}</Fact>
        <Fact name="Your externalId">{record.externalId ?? '—'}</Fact>
        <Fact name="Note" shown={typeof record.note === 'string'}>
          {record.note}
        </Fact>
        <Fact name="Reason" shown={typeof record.reason === 'string'}>
          {record.reason}
        </Fact>
        <Fact name="Created">{dateTime(record.createdAt)}</Fact>
        <Fact name="Completed" shown={(record.completedAt ?? settlement?.completedAt) != null}>
          {dateTime(record.completedAt ?? settlement?.completedAt)}
        </Fact>
        <Fact name="Approval window ends" shown={collection && record.status === 'pending_approval'}>
          {dateTime(record.expiresAt)}
        </Fact>
        <Fact name="Wallet transaction" shown={transactionId !== undefined}>
          <code>{transactionId}</code>
        </Fact>
        <Fact name="Why it failed" shown={failure !== undefined && failure !== null}>
          {failure?.code} {failure?.message}
        </Fact>
        <Fact name="Bulk" shown={record.bulkId !== undefined}>
          <Link to={`/bulk-payouts/${encodeURIComponent(record.bulkId ?? '')}`}>{record.bulkId}</Link>
        </Fact>
        <Fact name="Refunded collection" shown={record.collectionReferenceId !== undefined}>
          <Link to={`/transactions/${encodeURIComponent(record.collectionReferenceId ?? '')}`}>{record.collectionReferenceId}</Link>
        </Fact>
        {more.map(([name, value]) => (
          <Fact key={name} name={labelOfField(name)}>
            {String(value)}
          </Fact>
        ))}
      </dl>
      <section aria-labelledby="quote-title">
        <h2 id="quote-title">Quote and money</h2>
        <dl className="facts" aria-label="Quote">
          <Fact name="Quote" shown={record.quoteId !== undefined}>
            <code>{record.quoteId}</code>
          </Fact>
          <Fact name="Amount">{moneyText(record.amount, record.currency)}</Fact>
          <Fact name="Fee">
            {moneyText(record.fee, record.currency)} {record.fee === undefined ? '' : collection ? '(paid by the user)' : record.referenceId.startsWith('PKD-') ? '(paid by you)' : ''}
          </Fact>
          <Fact name="Total debited" shown={record.totalDebit !== undefined}>
            {moneyText(record.totalDebit, record.currency)} {collection ? 'from the user’s wallet' : 'from your balance'}
          </Fact>
          <Fact name="The user received" shown={record.netAmount !== undefined}>
            {moneyText(record.netAmount, record.currency)}
          </Fact>
          <Fact name="Refunded so far" shown={record.refundedAmount !== undefined}>
            {moneyText(record.refundedAmount, record.currency)}
          </Fact>
          <Fact name="Refunded from the collection so far" shown={record.collectionRefundedAmount !== undefined}>
            {moneyText(record.collectionRefundedAmount, record.currency)}
          </Fact>
        </dl>
      </section>
    </>
  );
}

const statusWords: Record<string, string> = {
  pending_approval: 'requested, waiting for the user’s approval',
  pending: 'accepted, being paid',
  processing: 'requested, being paid back',
  completed: 'completed',
  declined: 'declined by the user',
  expired: 'expired unapproved',
  failed: 'failed',
  cancelled: 'cancelled by you',
  reversed: 'reversed by the operator',
  refund_requested: 'refund requested',
  refunded: 'refund completed',
  refund_failed: 'refund failed',
};

/** When the status changed, oldest first: from the record's times, or the webhook event that told of it. */
function StatusChanges(props: { changes: StatusChange[] }): ReactNode {
  return (
    <section aria-labelledby="changes-title">
      <h2 id="changes-title">Status changes</h2>
      <table aria-label="Status changes">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Status</th>
            <th scope="col">Known from</th>
          </tr>
        </thead>
        <tbody>
          {props.changes.map((change, index) => (
            <tr key={`${change.status}-${change.referenceId ?? ''}-${index}`}>
              <td>{change.at === null ? 'time not recorded' : dateTime(change.at)}</td>
              <td>
                {statusWords[change.status] ?? change.status}
                {change.referenceId === undefined ? null : (
                  <>
                    {' '}
                    <Link to={`/transactions/${encodeURIComponent(change.referenceId)}`}>{change.referenceId}</Link>
                  </>
                )}
              </td>
              <td>{change.source === 'record' ? 'the record' : `webhook ${change.source.replace(/^event /, '')}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A disbursement the operator reversed: the reversal's own transaction and money, as fields. */
function ReversalFacts(props: { reversal: NonNullable<TransactionRecord['reversal']> }): ReactNode {
  const { reversal } = props;
  return (
    <section aria-labelledby="reversal-title">
      <h2 id="reversal-title">Reversal</h2>
      <dl className="facts" aria-label="Reversal">
        <Fact name="Returned to your balance">{moneyText(reversal.amount, reversal.currency)}</Fact>
        <Fact name="Reversed">{dateTime(reversal.reversedAt)}</Fact>
        <Fact name="Reversal transaction">
          <code>{reversal.transactionId}</code>
        </Fact>
      </dl>
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

/** Each webhook the partner was sent about the transaction, every attempt with the answer it got, and a button to send one again. */
function WebhookAttempts(props: { deliveries: DeliveryStory[]; more: boolean; onRedeliver?: (deliveryId: string) => void }): ReactNode {
  const { deliveries, onRedeliver } = props;
  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks sent about it</h2>
      {deliveries.length === 0 ? (
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
              {onRedeliver === undefined ? null : <th scope="col">Again</th>}
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
                  <td>{attempt === undefined ? (delivery.nextAttemptAt === null ? (delivery.status === 'skipped' ? 'Not sent: no webhook URL was registered' : 'Not sent') : `Next try ${dateTime(delivery.nextAttemptAt)}`) : answerOf(attempt)}</td>
                  {onRedeliver === undefined ? null : (
                    <td>
                      {index === 0 ? (
                        <button type="button" className="secondary small" onClick={() => onRedeliver(delivery.deliveryId)}>
                          Send again
                        </button>
                      ) : null}
                    </td>
                  )}
                </tr>
              ));
            })}
          </tbody>
        </table>
      )}
      {props.more ? <p>Older webhooks of this transaction are in the webhook deliveries list.</p> : null}
    </section>
  );
}

function answerOf(attempt: DeliveryAttempt): string {
  const status = attempt.statusCode === null ? 'no HTTP answer' : `HTTP ${attempt.statusCode}`;
  const latency = attempt.latencyMs === null ? '' : ` in ${attempt.latencyMs} ms`;
  return `${attempt.outcome}: ${status}${latency}${attempt.error === null ? '' : ` (${attempt.error})`}`;
}
