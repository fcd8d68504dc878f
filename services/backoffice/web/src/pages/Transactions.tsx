import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { api, queryOf } from '../api';
import { formattedMoney } from '../money';
import { Pager, useCursorTrail } from '../../../../../libs/console-web/pages/paging';
import { Link } from '../../../../../libs/console-web/pages/router';
import { ErrorNotice, Field, dateTime } from '../ui';

interface Transaction {
  transferId: string;
  transactionId: string;
  kind: string;
  partnerId: string | null;
  phone: string | null;
  currency: string;
  amountMinor: string;
  feeMinor: string;
  referenceId: string | null;
  externalId: string | null;
  postedAt: string;
}

const filterNames = ['referenceId', 'externalId', 'phone', 'partnerId', 'from', 'to'] as const;
type Filters = Record<(typeof filterNames)[number], string>;
const noFilters: Filters = { referenceId: '', externalId: '', phone: '', partnerId: '', from: '', to: '' };
const labels: Record<keyof Filters, string> = { referenceId: 'Reference id', externalId: 'External id', phone: 'Phone', partnerId: 'Partner id', from: 'From (UTC date)', to: 'To (UTC date, exclusive)' };

/** Dates typed as days are sent as UTC instants. */
function instantOf(day: string): string | undefined {
  return day === '' ? undefined : new Date(`${day}T00:00:00Z`).toISOString();
}

/** Transactions across partners, newest first, filtered and in keyset pages. */
export function TransactionsPage(): ReactNode {
  const trail = useCursorTrail();
  const [typed, setTyped] = useState<Filters>(noFilters);
  const [filters, setFilters] = useState<Filters>(noFilters);
  const [page, setPage] = useState<{ transactions: Transaction[]; nextCursor: string | null }>();
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    setError(undefined);
    const query = queryOf({ ...filters, from: instantOf(filters.from), to: instantOf(filters.to), cursor: trail.cursor, pageSize: '25' });
    api<{ transactions: Transaction[]; nextCursor: string | null }>('GET', `/api/v1/transactions${query}`).then(setPage).catch(setError);
  }, [filters, trail.cursor]);

  const search = (event: FormEvent): void => {
    event.preventDefault();
    trail.reset();
    setFilters(typed);
  };

  return (
    <section aria-labelledby="transactions-title">
      <h1 id="transactions-title">Transactions</h1>
      <form className="filters" role="search" onSubmit={search}>
        {filterNames.map((name) => (
          <Field key={name} id={`filter-${name}`} label={labels[name]}>
            <input id={`filter-${name}`} type={name === 'from' || name === 'to' ? 'date' : 'text'} value={typed[name]} onChange={(event) => setTyped({ ...typed, [name]: event.target.value })} />
          </Field>
        ))}
        <div className="field">
          <button type="submit" className="primary">
            Search
          </button>
        </div>
      </form>
      <ErrorNotice error={error} />
      {page === undefined ? null : page.transactions.length === 0 ? (
        <p className="empty">No transaction matches.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Transactions">
            <thead>
              <tr>
                <th scope="col">Posted</th>
                <th scope="col">Kind</th>
                <th scope="col" className="number">
                  Amount
                </th>
                <th scope="col" className="number">
                  Fee
                </th>
                <th scope="col">Reference</th>
                <th scope="col">Phone</th>
                <th scope="col">Partner</th>
              </tr>
            </thead>
            <tbody>
              {page.transactions.map((transaction) => (
                <tr key={transaction.transferId}>
                  <td>{dateTime(transaction.postedAt)}</td>
                  <td>{transaction.kind}</td>
                  <td className="number">{formattedMoney(transaction.amountMinor, transaction.currency)}</td>
                  <td className="number">{formattedMoney(transaction.feeMinor, transaction.currency)}</td>
                  <td>
                    <code>{transaction.referenceId ?? transaction.transactionId}</code>
                    {transaction.externalId === null ? null : <div className="hint">external {transaction.externalId}</div>}
                  </td>
                  <td>{transaction.phone ?? '—'}</td>
                  <td>{transaction.partnerId === null ? '—' : <Link to={`/partners/${transaction.partnerId}`}>{transaction.partnerId.slice(0, 8)}…</Link>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager trail={trail} nextCursor={page?.nextCursor} />
      <LedgerCheck />
    </section>
  );
}

interface LedgerCheckResult {
  ok: boolean;
  currencies: { currency: string; balancesSumMinor: string; entriesSumMinor: string; accountCount: number; postingCount: number }[];
  problems: { invariant: string; message: string }[];
}

/** The wallet's ledger check on demand: every currency's balances against its entries, and any broken invariant by name. */
function LedgerCheck(): ReactNode {
  const [result, setResult] = useState<LedgerCheckResult>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const run = (): void => {
    setBusy(true);
    setError(undefined);
    api<LedgerCheckResult>('GET', '/api/v1/ledger-check')
      .then(setResult)
      .catch(setError)
      .finally(() => setBusy(false));
  };
  return (
    <section aria-labelledby="ledger-check-title">
      <h2 id="ledger-check-title">Ledger check</h2>
      <button type="button" className="secondary" disabled={busy} onClick={run}>
        Check the ledger
      </button>
      <ErrorNotice error={error} />
      {result === undefined ? null : (
        <>
          {result.ok ? (
            <p role="status" className="notice notice-success">
              The ledger balances: every invariant holds.
            </p>
          ) : (
            <div role="alert" className="notice notice-error">
              <p>The ledger check failed:</p>
              <ul>
                {result.problems.map((problem) => (
                  <li key={`${problem.invariant}:${problem.message}`}>
                    <code>{problem.invariant}</code>: {problem.message}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <table aria-label="Ledger totals">
            <thead>
              <tr>
                <th scope="col">Currency</th>
                <th scope="col" className="number">
                  Sum of balances
                </th>
                <th scope="col" className="number">
                  Sum of entries
                </th>
                <th scope="col" className="number">
                  Accounts
                </th>
                <th scope="col" className="number">
                  Postings
                </th>
              </tr>
            </thead>
            <tbody>
              {result.currencies.map((row) => (
                <tr key={row.currency}>
                  <td>{row.currency}</td>
                  <td className="number">{formattedMoney(row.balancesSumMinor, row.currency)}</td>
                  <td className="number">{formattedMoney(row.entriesSumMinor, row.currency)}</td>
                  <td className="number">{row.accountCount}</td>
                  <td className="number">{row.postingCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
