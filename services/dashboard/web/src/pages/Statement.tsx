import { useEffect, useState, type ReactNode } from 'react';
import { api, queryOf } from '../api';
import { dateTime, ErrorNotice, Field, moneyText } from '../ui';

/** The period's balances as the API's statement gives them (the CSV's first and last lines hold the same). */
interface StatementBalances {
  currency: string;
  from: string;
  /** The period's end: the chosen day, or now when that is still ahead. */
  to: string;
  openingBalance: number;
  closingBalance: number;
}

function isoDay(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/**
 * A statement of a whole period (up to 31 days) downloaded as one CSV: the first line is the
 * opening balance, the last the closing balance, and every movement in between with the balance
 * after it. The download is a plain link, so the browser saves the file as it streams. The
 * period's opening and closing balances show on the page first, from the same API statement.
 */
export function StatementPage(): ReactNode {
  const [currency, setCurrency] = useState('USD');
  const [from, setFrom] = useState(isoDay(-30));
  const [to, setTo] = useState(isoDay(1));
  const href = `/api/v1/statement.csv?${new URLSearchParams({ currency, from: `${from}T00:00:00Z`, to: `${to}T00:00:00Z` }).toString()}`;
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
  const problem = Number.isNaN(days) ? 'Choose both days.' : days <= 0 ? 'The end must be after the start.' : days > 31 ? `The period is ${days} days: choose at most 31.` : undefined;
  const [balances, setBalances] = useState<StatementBalances>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    setBalances(undefined);
    setError(undefined);
    if (problem !== undefined) return;
    let current = true;
    api<StatementBalances>('GET', `/api/v1/statement/balances${queryOf({ currency, from: `${from}T00:00:00Z`, to: `${to}T00:00:00Z` })}`).then(
      (read) => current && setBalances(read),
      (refusal: unknown) => current && setError(refusal),
    );
    return () => {
      current = false;
    };
  }, [currency, from, to, problem]);
  return (
    <section aria-labelledby="statement-title">
      <h1 id="statement-title">Statements</h1>
      <p>Choose a currency and a period of at most 31 days: the file holds every movement of the period, from the opening to the closing balance.</p>
      <form aria-label="Statement period" className="filters" onSubmit={(event) => event.preventDefault()}>
        <Field id="statement-currency" label="Currency">
          <select id="statement-currency" value={currency} onChange={(event) => setCurrency(event.target.value)}>
            <option value="LRD">LRD</option>
            <option value="USD">USD</option>
          </select>
        </Field>
        <Field id="statement-from" label="From (UTC day, inclusive)">
          <input id="statement-from" type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
        </Field>
        <Field id="statement-to" label="To (UTC day, exclusive)">
          <input id="statement-to" type="date" value={to} onChange={(event) => setTo(event.target.value)} />
        </Field>
      </form>
      <ErrorNotice error={error} />
      {balances === undefined ? null : (
        <dl className="facts" aria-label="Statement balances">
          <div>
            <dt>Opening balance, {dateTime(balances.from)}</dt>
            <dd>{moneyText(balances.openingBalance, balances.currency)}</dd>
          </div>
          <div>
            <dt>Closing balance, {dateTime(balances.to)}</dt>
            <dd>{moneyText(balances.closingBalance, balances.currency)}</dd>
          </div>
        </dl>
      )}
      {problem === undefined ? (
        <p>
          <a className="button primary" href={href} download>
            Download the statement (CSV)
          </a>
        </p>
      ) : (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
