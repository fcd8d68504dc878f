import type { ReactNode } from 'react';
import { api, apiClient, currentSession, rememberCsrfToken, type SessionView } from './api';
import { useConsoleSession } from '../../../../libs/console-web/pages/use-console-session';
import { Link, navigate, useLocation } from '../../../../libs/console-web/pages/router';
import { may, SessionContext } from './session';
import { AccountPage } from './pages/Account';
import { AuditPage } from './pages/Audit';
import { BulkDetailPage, BulkPayoutsPage } from './pages/BulkPayouts';
import { DevelopersPage } from './pages/Developers';
import { HomePage } from './pages/Home';
import { InvitationPage } from './pages/Invitation';
import { SignInPage } from './pages/SignIn';
import { StatementPage } from './pages/Statement';
import { TeamPage } from './pages/Team';
import { TransactionDetailPage, TransactionsPage } from './pages/Transactions';

const publicPaths = new Set(['/sign-in', '/invitation']);

/** The dashboard: public pages (sign-in, invitation) or, once signed in, the layout around the chosen page. */
export function App(): ReactNode {
  const { pathname, search } = useLocation();
  const { session, refresh } = useConsoleSession<SessionView>(apiClient, currentSession, publicPaths, pathname);

  if (pathname === '/invitation') return <InvitationPage />;
  if (pathname === '/sign-in')
    return (
      <SignInPage
        onSignedIn={async () => {
          await refresh();
          navigate('/', { replace: true });
        }}
      />
    );
  if (session === undefined) return <p className="loading">Loading…</p>;
  if (session === null) return null;
  return (
    <SessionContext.Provider value={session}>
      <Layout session={session} pathname={pathname}>
        <Page pathname={pathname} search={search} />
      </Layout>
    </SessionContext.Provider>
  );
}

function Page(props: { pathname: string; search: URLSearchParams }): ReactNode {
  const { pathname } = props;
  if (pathname === '/') return <HomePage />;
  // One instance per kind: another tab starts from its first page with no filter (a cursor or a status of one list means nothing to another).
  if (pathname === '/transactions') return <TransactionsPage key={props.search.get('kind') ?? 'collections'} search={props.search} />;
  const detail = /^\/transactions\/([^/]+)$/.exec(pathname);
  if (detail?.[1] !== undefined) return <TransactionDetailPage referenceId={decodeURIComponent(detail[1])} />;
  if (pathname === '/statements') return <StatementPage />;
  if (pathname === '/bulk-payouts') return <BulkPayoutsPage />;
  const bulk = /^\/bulk-payouts\/([^/]+)$/.exec(pathname);
  if (bulk?.[1] !== undefined) return <BulkDetailPage bulkId={decodeURIComponent(bulk[1])} />;
  if (pathname === '/developers') return <DevelopersPage />;
  if (pathname === '/team') return <TeamPage />;
  if (pathname === '/audit') return <AuditPage />;
  if (pathname === '/account') return <AccountPage />;
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        There is no page at this address. <Link to="/">Go home</Link>.
      </p>
    </section>
  );
}

function Layout(props: { session: SessionView; pathname: string; children: ReactNode }): ReactNode {
  const { member } = props.session;
  const links: [string, string, boolean][] = [
    ['/', 'Home', true],
    ['/transactions', 'Transactions', true],
    ['/statements', 'Statements', may(props.session, 'download_statement')],
    ['/bulk-payouts', 'Bulk payouts', true],
    ['/developers', 'Developers', true],
    ['/team', 'Team', true],
    ['/audit', 'Audit log', may(props.session, 'read_audit')],
    ['/account', 'My account', true],
  ];
  const signOut = (): void => {
    api('DELETE', '/api/v1/session')
      .catch(() => undefined)
      .finally(() => {
        rememberCsrfToken(undefined);
        window.location.assign('/sign-in');
      });
  };
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top-bar">
        <p className="brand">Partner Wallet dashboard</p>
        <div className="who">
          <span className="who-name">{member.displayName}</span>
          <span className="who-roles">{member.role}</span>
          <button type="button" className="secondary small" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <nav className="main-nav" aria-label="Main">
        <ul>
          {links
            .filter(([, , shown]) => shown)
            .map(([to, label]) => (
              <li key={to}>
                <Link to={to} current={props.pathname === to || (to !== '/' && props.pathname.startsWith(`${to}/`))}>
                  {label}
                </Link>
              </li>
            ))}
        </ul>
      </nav>
      <main id="main" className="content">
        {props.children}
      </main>
    </>
  );
}
