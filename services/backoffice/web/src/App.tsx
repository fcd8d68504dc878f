import type { ReactNode } from 'react';
import { api, apiClient, currentSession, rememberCsrfToken, type SessionView } from './api';
import { useConsoleSession } from '../../../../libs/console-web/pages/use-console-session';
import { Link, navigate, useLocation } from '../../../../libs/console-web/pages/router';
import { SessionContext, hasRole } from './session';
import { SignInPage } from './pages/SignIn';
import { SetupPage } from './pages/Setup';
import { ApprovalsPage } from './pages/Approvals';
import { NewRequestPage } from './pages/NewRequest';
import { PartnersPage, PartnerDetailPage } from './pages/Partners';
import { TransactionsPage } from './pages/Transactions';
import { AuditPage } from './pages/Audit';
import { OperatorsPage } from './pages/Operators';
import { AccountPage } from './pages/Account';
import { WebhooksPage } from './pages/Webhooks';

const publicPaths = new Set(['/sign-in', '/setup']);

/** The console: public pages (sign-in, set-up) or, once signed in, the layout around the chosen page. */
export function App(): ReactNode {
  const { pathname, search } = useLocation();
  const { session, refresh } = useConsoleSession<SessionView>(apiClient, currentSession, publicPaths, pathname);

  if (pathname === '/setup') return <SetupPage />;
  if (pathname === '/sign-in')
    return (
      <SignInPage
        search={search}
        onSignedIn={async () => {
          await refresh();
          navigate('/approvals', { replace: true });
        }}
      />
    );
  if (session === undefined) return <p className="loading">Loading…</p>;
  if (session === null) return null;
  return (
    <SessionContext.Provider value={{ session, refresh }}>
      <Layout session={session} pathname={pathname}>
        <Page pathname={pathname} search={search} />
      </Layout>
    </SessionContext.Provider>
  );
}

function Page(props: { pathname: string; search: URLSearchParams }): ReactNode {
  const { pathname } = props;
  if (pathname === '/' || pathname === '/approvals') return <ApprovalsPage />;
  if (pathname === '/approvals/new') return <NewRequestPage search={props.search} />;
  if (pathname === '/partners') return <PartnersPage />;
  const partner = /^\/partners\/([^/]+)$/.exec(pathname);
  if (partner?.[1] !== undefined) return <PartnerDetailPage partnerId={decodeURIComponent(partner[1])} />;
  if (pathname === '/transactions') return <TransactionsPage />;
  if (pathname === '/audit') return <AuditPage />;
  if (pathname === '/webhooks') return <WebhooksPage />;
  if (pathname === '/operators') return <OperatorsPage />;
  if (pathname === '/account') return <AccountPage />;
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        There is no page at this address. <Link to="/approvals">Go to the approvals</Link>.
      </p>
    </section>
  );
}

function Layout(props: { session: SessionView; pathname: string; children: ReactNode }): ReactNode {
  const { operator } = props.session;
  const links: [string, string, boolean][] = [
    ['/approvals', 'Approvals', true],
    ['/approvals/new', 'New request', hasRole(props.session, 'maker')],
    ['/partners', 'Partners', true],
    ['/transactions', 'Transactions', true],
    ['/webhooks', 'Webhooks', true],
    ['/audit', 'Audit log', hasRole(props.session, 'checker', 'admin')],
    ['/operators', 'Operators', hasRole(props.session, 'admin')],
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
        <p className="brand">Partner Wallet back-office</p>
        <div className="who">
          <span className="who-name">{operator.displayName}</span>
          <span className="who-roles">{operator.roles.join(', ')}</span>
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
                <Link to={to} current={props.pathname === to || (to === '/approvals' && props.pathname === '/') || (to === '/partners' && props.pathname.startsWith('/partners/'))}>
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
