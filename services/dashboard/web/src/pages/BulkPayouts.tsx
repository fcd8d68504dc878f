import { useEffect, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { api, queryOf } from '../api';
import { Link, navigate } from '../../../../../libs/console-web/pages/router';
import { may, useSession } from '../session';
import { amountText, dateTime, ErrorNotice, Field, Pager, moneyText, useCursorTrail, useWork } from '../ui';

interface PreviewLine {
  line: number;
  phone: string | null;
  amount: number | null;
  externalId: string | null;
  /** The file's note for the payout (shown to the user): text, never markup. */
  note: string | null;
  status: 'valid' | 'invalid';
  recipientName: string | null;
  fee: number | null;
  totalDebit: number | null;
  problem: string | null;
}

interface Preview {
  bulkQuoteId: string | null;
  expiresAt: string | null;
  currency: string;
  lineCount: number;
  validCount: number;
  invalidCount: number;
  totalAmount: number;
  totalFee: number;
  totalDebit: number;
  partnerBalance: number | null;
  lines: PreviewLine[];
}

const money = (value: number | null): string => moneyText(value);

/**
 * Bulk payouts from a CSV file: upload (columns phone, amount, externalId, note), see the bulk
 * quote's result for every line before any money moves, confirm (finance or admin), then follow
 * the bulk. Nothing the file holds runs as script: React renders it as text.
 */
export function BulkPayoutsPage(): ReactNode {
  const session = useSession();
  const [currency, setCurrency] = useState('USD');
  const [file, setFile] = useState<File>();
  const [preview, setPreview] = useState<Preview>();
  const [externalId, setExternalId] = useState(() => `bulk-${new Date().toISOString().slice(0, 10)}-${Math.random().toString(36).slice(2, 8)}`);
  const [bulkId, setBulkId] = useState('');
  const { busy, error, run } = useWork();

  const upload = (event: FormEvent): void => {
    event.preventDefault();
    if (file === undefined) return;
    void run(async () => {
      setPreview(await api<Preview>('POST', '/api/v1/bulk-payouts/quote', { currency, lines: (await file.text()).split(/\r?\n/).filter((line) => line.trim() !== '') }));
    });
  };
  const confirm = (): void => {
    if (preview?.bulkQuoteId === null || preview === undefined) return;
    void run(async () => {
      const bulk = await api<{ bulkId: string }>('POST', '/api/v1/bulk-payouts', { bulkQuoteId: preview.bulkQuoteId, externalId });
      navigate(`/bulk-payouts/${encodeURIComponent(bulk.bulkId)}`);
    });
  };
  return (
    <section aria-labelledby="bulk-title">
      <h1 id="bulk-title">Bulk payouts</h1>
      <form aria-label="Follow a bulk" className="inline-form" onSubmit={(event) => (event.preventDefault(), bulkId.trim() !== '' && navigate(`/bulk-payouts/${encodeURIComponent(bulkId.trim())}`))}>
        <Field id="bulk-id" label="Follow a bulk by its bulkId">
          <input id="bulk-id" value={bulkId} onChange={(event) => setBulkId(event.target.value)} />
        </Field>
        <button type="submit" className="secondary">
          Open
        </button>
      </form>
      {may(session, 'upload_bulk') ? (
        <form aria-label="Upload a bulk file" onSubmit={upload} className="filters">
          <Field id="bulk-currency" label="Currency">
            <select id="bulk-currency" value={currency} onChange={(event) => setCurrency(event.target.value)}>
              <option value="LRD">LRD</option>
              <option value="USD">USD</option>
            </select>
          </Field>
          <Field id="bulk-file" label="CSV file" hint="Columns phone, amount, externalId and (optionally) note; at most 1,000 lines.">
            <input id="bulk-file" type="file" accept=".csv,text/csv" aria-describedby="bulk-file-hint" onChange={(event: ChangeEvent<HTMLInputElement>) => setFile(event.target.files?.[0])} />
          </Field>
          <button type="submit" className="primary" disabled={busy || file === undefined}>
            Check the file
          </button>
        </form>
      ) : (
        <p>Only finance members and admins upload bulk payouts.</p>
      )}
      <ErrorNotice error={error} />
      {preview === undefined ? null : (
        <>
          <h2>Preview</h2>
          <p role="status" className="lead">
            {preview.validCount} of {preview.lineCount} payouts will be paid: {preview.currency} {money(preview.totalAmount)} plus {preview.currency} {money(preview.totalFee)} in fees, {preview.currency} {money(preview.totalDebit)} in all. {preview.invalidCount} will not be paid.
          </p>
          {preview.bulkQuoteId === null ? (
            <p className="notice notice-error" role="alert">
              No line can be paid: correct the file and check it again.
            </p>
          ) : may(session, 'confirm_bulk') ? (
            <div className="confirm" role="group" aria-label="Confirm the bulk">
              <Field id="bulk-external-id" label="Your reference for the bulk (externalId)">
                <input id="bulk-external-id" value={externalId} maxLength={100} onChange={(event) => setExternalId(event.target.value)} />
              </Field>
              <p>The preview is valid until {dateTime(preview.expiresAt)}. Money leaves your balance when you confirm.</p>
              <button type="button" className="primary" onClick={confirm} disabled={busy || externalId.trim() === ''}>
                Confirm and pay {preview.validCount} payouts
              </button>
            </div>
          ) : null}
          <table aria-label="Preview lines">
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Phone</th>
                <th scope="col">Recipient</th>
                <th scope="col">externalId</th>
                <th scope="col">Note</th>
                <th scope="col">Amount</th>
                <th scope="col">Fee</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {preview.lines.map((line) => (
                <tr key={line.line}>
                  <td>{line.line}</td>
                  <td>{line.phone ?? '—'}</td>
                  <td>{line.recipientName ?? '—'}</td>
                  <td>{line.externalId ?? '—'}</td>
                  <td>{line.note ?? '—'}</td>
                  <td>{money(line.amount)}</td>
                  <td>{money(line.fee)}</td>
                  <td>{line.status === 'valid' ? 'will be paid' : `not paid: ${line.problem ?? 'invalid'}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <BulkList />
    </section>
  );
}

interface BulkSummary {
  bulkId: string;
  externalId: string;
  status: string;
  currency: string;
  counts: { total: number; pending: number; completed: number; failed: number };
  totalDebit: number;
  createdAt: string;
}

/** The partner's bulk payouts, newest first, with the API's status filter and keyset pages; each opens its detail. */
function BulkList(): ReactNode {
  const [status, setStatus] = useState('');
  const trail = useCursorTrail();
  const [page, setPage] = useState<{ items: BulkSummary[]; nextCursor: string | null }>();
  const [error, setError] = useState<unknown>();
  const { cursor } = trail;
  useEffect(() => {
    setError(undefined);
    api<{ items: BulkSummary[]; nextCursor: string | null }>('GET', `/api/v1/bulk-payouts${queryOf({ status, limit: '10', cursor })}`).then(setPage, setError);
  }, [status, cursor]);
  return (
    <section aria-labelledby="bulk-list-title">
      <h2 id="bulk-list-title">Your bulk payouts</h2>
      <Field id="bulk-status" label="Status">
        <select
          id="bulk-status"
          value={status}
          onChange={(event) => {
            trail.reset();
            setStatus(event.target.value);
          }}
        >
          <option value="">Any</option>
          <option value="processing">processing</option>
          <option value="completed">completed</option>
          <option value="completed_with_failures">completed_with_failures</option>
        </select>
      </Field>
      <ErrorNotice error={error} />
      {page === undefined ? null : page.items.length === 0 ? (
        <p>No bulk payout yet.</p>
      ) : (
        <table aria-label="Bulk payouts">
          <thead>
            <tr>
              <th scope="col">Bulk</th>
              <th scope="col">Your reference</th>
              <th scope="col">Status</th>
              <th scope="col">Paid</th>
              <th scope="col">Total debit</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((bulk) => (
              <tr key={bulk.bulkId}>
                <td>
                  <Link to={`/bulk-payouts/${encodeURIComponent(bulk.bulkId)}`}>{bulk.bulkId}</Link>
                </td>
                <td>{bulk.externalId}</td>
                <td>{bulk.status}</td>
                <td>
                  {bulk.counts.completed} of {bulk.counts.total}
                  {bulk.counts.failed > 0 ? ` (${bulk.counts.failed} failed)` : ''}
                </td>
                <td>
                  {bulk.currency} {money(bulk.totalDebit)}
                </td>
                <td>{dateTime(bulk.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager trail={trail} nextCursor={page?.nextCursor} previousLabel="Newer bulks" nextLabel="Older bulks" />
    </section>
  );
}

/** One bulk's status: its summary as the list gives it, what was paid so far, and a page of its items. */
interface BulkView extends BulkSummary {
  completedAmount: number;
  completedAt: string | null;
  items: { items: { index: number; externalId: string | null; note?: string | null; status: string; amount: number; referenceId?: string; failureReason?: { code: string; message: string } | null }[]; nextCursor: string | null };
}

/** One bulk as it is now, read again every two seconds while it is processing. */
export function BulkDetailPage(props: { bulkId: string }): ReactNode {
  const [bulk, setBulk] = useState<BulkView>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = (): void => {
      api<BulkView>('GET', `/api/v1/bulk-payouts/${encodeURIComponent(props.bulkId)}?limit=100`).then(
        (view) => {
          if (stopped) return;
          setBulk(view);
          if (view.status === 'processing') timer = setTimeout(read, 2_000);
        },
        (refusal: unknown) => !stopped && setError(refusal),
      );
    };
    read();
    return () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [props.bulkId]);
  // The API's bulk item (a DisbursementStatus) has a note only when one was sent: the column appears when some item has one.
  const withNotes = bulk?.items.items.some((item) => typeof item.note === 'string') === true;
  return (
    <section aria-labelledby="bulk-detail-title">
      <h1 id="bulk-detail-title">{props.bulkId}</h1>
      <ErrorNotice error={error} />
      {bulk === undefined ? null : (
        <>
          <p role="status" className="lead">
            {bulk.status === 'processing' ? 'Paying' : 'Finished'}: {bulk.counts.completed} paid, {bulk.counts.failed} failed, {bulk.counts.pending} waiting, of {bulk.counts.total} ({bulk.status}).
          </p>
          <dl className="facts">
            <div>
              <dt>Your reference</dt>
              <dd>{bulk.externalId}</dd>
            </div>
            <div>
              <dt>Paid so far</dt>
              <dd>
                {moneyText(bulk.completedAmount, bulk.currency)}
              </dd>
            </div>
            <div>
              <dt>Created</dt>
              <dd>{dateTime(bulk.createdAt)}</dd>
            </div>
            <div>
              <dt>Finished</dt>
              <dd>{dateTime(bulk.completedAt)}</dd>
            </div>
          </dl>
          <p>
            <a className="button secondary" href={`/api/v1/bulk-payouts/${encodeURIComponent(bulk.bulkId)}/outcome.csv`} download>
              Download the outcome (CSV)
            </a>
          </p>
          <table aria-label="Bulk items">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">externalId</th>
                {withNotes ? <th scope="col">Note</th> : null}
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
                <th scope="col">Reference</th>
              </tr>
            </thead>
            <tbody>
              {bulk.items.items.map((item) => (
                <tr key={item.index}>
                  <td>{item.index + 1}</td>
                  <td>{item.externalId ?? '—'}</td>
                  {withNotes ? <td>{item.note ?? '—'}</td> : null}
                  <td>{amountText(item.amount)}</td>
                  <td>{item.failureReason ? `${item.status}: ${item.failureReason.message}` : item.status}</td>
                  <td>{item.referenceId === undefined ? '—' : <Link to={`/transactions/${encodeURIComponent(item.referenceId)}`}>{item.referenceId}</Link>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
