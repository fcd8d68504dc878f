import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { api } from '../api';
import { may, useSession } from '../session';
import { dateTime, ErrorNotice, Field, FreshCodeField, freshCodeOf, SuccessNotice, useWork } from '../ui';

interface TeamMember {
  memberId: string;
  email: string;
  displayName: string;
  role: string;
  status: string;
  createdAt: string;
}

const roles: [string, string][] = [
  ['admin', 'Admin: everything, including credentials, webhooks and the team'],
  ['developer', 'Developer: reads, redelivers webhooks, sandbox buttons'],
  ['finance', 'Finance: reads, statements, bulk payouts'],
  ['support', 'Support: reads only'],
];

/** The team: members and their roles; an admin invites (the link shown once), changes roles and removes, each with a fresh code. */
export function TeamPage(): ReactNode {
  const session = useSession();
  const admin = may(session, 'manage_team');
  const [members, setMembers] = useState<TeamMember[]>();
  const [notice, setNotice] = useState<ReactNode>();
  const { busy, error, run, setError } = useWork();
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [role, setRole] = useState('finance');
  const [code, setCode] = useState('');

  const load = useCallback(async () => {
    setMembers((await api<{ members: TeamMember[] }>('GET', '/api/v1/members')).members);
  }, []);
  useEffect(() => {
    load().catch(setError);
  }, [load]);

  const invite = (event: FormEvent): void => {
    event.preventDefault();
    void run(async () => {
      const answer = await api<{ member: TeamMember; invitationLink: string; expiresAt: string; emailed: boolean | null }>('POST', '/api/v1/members', { email, displayName, role, ...freshCodeOf(code) });
      await load();
      setNotice(
        <>
          Invited {answer.member.displayName} as {answer.member.role}.{' '}
          {answer.emailed === true ? `It was sent to ${answer.member.email}; if it does not arrive, send them this link, shown only now` : answer.emailed === false ? 'The e-mail could not be sent: send them this link, shown only now' : 'Send them this link, shown only now'} (it works once, until {dateTime(answer.expiresAt)}):{' '}
          <code className="secret">{answer.invitationLink}</code>
        </>,
      );
      setEmail('');
      setDisplayName('');
      setCode('');
    });
  };

  // A role change or a removal is confirmed on the page, with a fresh code when the sign-in is not recent (never a browser prompt).
  const [pending, setPending] = useState<{ member: TeamMember; newRole: string }>();
  const [pendingCode, setPendingCode] = useState('');
  const ask = (member: TeamMember, newRole: string): void => {
    setNotice(undefined);
    setError(undefined);
    setPendingCode('');
    setPending({ member, newRole });
  };
  const confirmChange = (): void => {
    if (pending === undefined) return;
    const { member, newRole } = pending;
    void run(async () => {
      if (newRole === 'remove') await api('POST', `/api/v1/members/${member.memberId}/removal`, freshCodeOf(pendingCode));
      else await api('PATCH', `/api/v1/members/${member.memberId}`, { role: newRole, ...freshCodeOf(pendingCode) });
      setPending(undefined);
      setPendingCode('');
      await load();
      setNotice(newRole === 'remove' ? `${member.displayName} was removed; their sessions ended.` : `${member.displayName} is now ${newRole}; their sessions ended.`);
    });
  };

  return (
    <section aria-labelledby="team-title">
      <h1 id="team-title">Team</h1>
      <ErrorNotice error={error} />
      {notice === undefined ? null : <SuccessNotice>{notice}</SuccessNotice>}
      {members === undefined ? null : (
        <table aria-label="Members">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Since</th>
              {admin ? <th scope="col">Change</th> : null}
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              <tr key={member.memberId}>
                <td>{member.displayName}</td>
                <td>{member.email}</td>
                <td>{member.role}</td>
                <td>{member.status}</td>
                <td>{dateTime(member.createdAt)}</td>
                {admin ? (
                  <td>
                    {member.memberId === session.member.memberId ? (
                      '(you)'
                    ) : (
                      <>
                        <select aria-label={`New role for ${member.displayName}`} value={pending?.member.memberId === member.memberId && pending.newRole !== 'remove' ? pending.newRole : ''} onChange={(event) => event.target.value !== '' && ask(member, event.target.value)} disabled={busy}>
                          <option value="">Change role…</option>
                          {roles
                            .filter(([name]) => name !== member.role)
                            .map(([name]) => (
                              <option key={name} value={name}>
                                {name}
                              </option>
                            ))}
                        </select>{' '}
                        <button type="button" className="secondary small" onClick={() => ask(member, 'remove')} disabled={busy}>
                          Remove {member.displayName}
                        </button>
                      </>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pending === undefined ? null : (
        <div className="confirm" role="group" aria-label="Confirm the change">
          <p>
            {pending.newRole === 'remove' ? `Remove ${pending.member.displayName} from the team?` : `Make ${pending.member.displayName} ${pending.newRole}?`} Their sessions end at once.
          </p>
          <FreshCodeField id="change-code" value={pendingCode} onChange={setPendingCode} />
          <div className="actions">
            <button type="button" className="danger" onClick={confirmChange} disabled={busy}>
              {pending.newRole === 'remove' ? `Yes, remove ${pending.member.displayName}` : `Yes, make them ${pending.newRole}`}
            </button>
            <button type="button" className="secondary" onClick={() => setPending(undefined)} disabled={busy}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {admin ? (
        <>
          <h2>Invite a member</h2>
          <form onSubmit={invite} aria-label="Invite a member">
            <Field id="invite-name" label="Name">
              <input id="invite-name" required maxLength={100} value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
            </Field>
            <Field id="invite-email" label="E-mail address">
              <input id="invite-email" type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
            </Field>
            <Field id="invite-role" label="Role">
              <select id="invite-role" value={role} onChange={(event) => setRole(event.target.value)}>
                {roles.map(([name, description]) => (
                  <option key={name} value={name}>
                    {description}
                  </option>
                ))}
              </select>
            </Field>
            <FreshCodeField id="invite-code" value={code} onChange={setCode} />
            <button type="submit" className="primary" disabled={busy}>
              Invite
            </button>
          </form>
        </>
      ) : (
        <p>Only your team’s admins invite members and change roles.</p>
      )}
    </section>
  );
}
