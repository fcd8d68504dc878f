import { useState, type FormEvent, type ReactNode } from 'react';
import { api } from '../api';
import { ErrorNotice, Field, dateTime } from '../ui';

interface Invited {
  outcome: 'invited' | 'renewed';
  email: string;
  invitationLink: string;
  expiresAt: string;
  emailed: boolean | null;
}

/**
 * The partner's first admin of the partner dashboard (issue 28), invited by the maker or admin who
 * onboarded the partner: the one-time link is shown here once, to this person, and e-mailed when
 * the dashboard has a relay. Asked again before it is used, a new link replaces the old one; once
 * an admin of the partner can sign in, the partner's admins invite their own team.
 */
export function PartnerDashboardAdmin(props: { partnerId: string; partnerName: string }): ReactNode {
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [invited, setInvited] = useState<Invited>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const invite = (event: FormEvent): void => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setInvited(undefined);
    api<Invited>('POST', `/api/v1/partners/${encodeURIComponent(props.partnerId)}/dashboard-first-admin`, { email: email.trim(), displayName: displayName.trim() })
      .then(setInvited, setError)
      .finally(() => setBusy(false));
  };

  return (
    <section aria-labelledby="dashboard-admin-title">
      <h2 id="dashboard-admin-title">Partner dashboard: first admin</h2>
      <p className="hint">Invite the person at {props.partnerName} who will run their team in the partner dashboard. Their admins invite everyone else.</p>
      <form onSubmit={invite} aria-label="Invite the first dashboard admin">
        <Field id="first-admin-email" label="Their e-mail address">
          <input id="first-admin-email" type="email" autoComplete="off" value={email} onChange={(event) => setEmail(event.target.value)} required />
        </Field>
        <Field id="first-admin-name" label="Their name">
          <input id="first-admin-name" autoComplete="off" value={displayName} onChange={(event) => setDisplayName(event.target.value)} required />
        </Field>
        <ErrorNotice error={error} />
        <button type="submit" className="secondary" disabled={busy}>
          Invite the first admin
        </button>
      </form>
      {invited === undefined ? null : (
        <div className="once" role="status">
          <p>
            <strong>{invited.outcome === 'invited' ? 'Invited' : 'New invitation for'} {invited.email}.</strong>{' '}
            {invited.emailed === true ? 'It was e-mailed to them; the link is here too, shown only now.' : 'Send them this link through a safe channel; it is shown only now.'} It works once, until {dateTime(invited.expiresAt)}.
          </p>
          <code>{invited.invitationLink}</code>
        </div>
      )}
    </section>
  );
}
