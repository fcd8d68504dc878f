import { useEffect, useState, type ReactNode } from 'react';
import { api } from '../api';
import { Link } from '../../../../../libs/console-web/pages/router';
import { amountText, dateTime, ErrorNotice } from '../ui';
import { TransactionRows, type TransactionRow } from './Transactions';

interface Overview {
  balances: Record<string, number>;
  recentCollections: TransactionRow[];
  recentDisbursements: TransactionRow[];
  webhookHealth: { failingDeliveries: number; failingDeliveriesMore: boolean; lastDelivered: { deliveredAt?: string | null } | null };
}

/** Home: balances per currency, recent activity, and whether webhooks reach the partner. */
export function HomePage(): ReactNode {
  const [overview, setOverview] = useState<Overview>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    api<Overview>('GET', '/api/v1/overview').then(setOverview, setError);
  }, []);
  return (
    <section aria-labelledby="home-title">
      <h1 id="home-title">Home</h1>
      <ErrorNotice error={error} />
      {overview === undefined ? (
        error === undefined ? <p className="loading">Loading…</p> : null
      ) : (
        <>
          <h2>Balances</h2>
          <dl className="facts" aria-label="Balances">
            {Object.entries(overview.balances).map(([currency, amount]) => (
              <div key={currency}>
                <dt>{currency}</dt>
                <dd>{amountText(amount)}</dd>
              </div>
            ))}
          </dl>
          <h2>Webhooks</h2>
          <p role="status">
            {overview.webhookHealth.failingDeliveries === 0 ? 'No delivery is failing.' : `${overview.webhookHealth.failingDeliveries}${overview.webhookHealth.failingDeliveriesMore ? '+' : ''} deliveries are failing.`} Last delivered:{' '}
            {dateTime(overview.webhookHealth.lastDelivered?.deliveredAt ?? null)}. <Link to="/transactions?kind=deliveries">See deliveries</Link>
          </p>
          <h2>Recent collections</h2>
          <TransactionRows kind="collections" rows={overview.recentCollections} label="Recent collections" />
          <h2>Recent disbursements</h2>
          <TransactionRows kind="disbursements" rows={overview.recentDisbursements} label="Recent disbursements" />
        </>
      )}
    </section>
  );
}
