import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { api } from '../api';
import { useSession } from '../session';
import { ErrorNotice, Field, SuccessNotice, dateTime } from '../ui';

const roles = ['viewer', 'maker', 'checker', 'admin'] as const;

interface OperatorRow {
  operatorId: string;
  email: string;
  displayName: string;
  roles: string[];
  status: string;
  createdAt: string;
}

function RoleChoices(props: { idPrefix: string; chosen: string[]; onChange: (roles: string[]) => void }): ReactNode {
  return (
    <fieldset>
      <legend>Roles</legend>
      {roles.map((role) => (
        <div className="check" key={role}>
          <input id={`${props.idPrefix}-${role}`} type="checkbox" checked={props.chosen.includes(role)} onChange={(event) => props.onChange(event.target.checked ? [...props.chosen, role] : props.chosen.filter((each) => each !== role))} />
          <label htmlFor={`${props.idPrefix}-${role}`}>{role}</label>
        </div>
      ))}
    </fieldset>
  );
}

/** Admins: the people, invitations (the set-up link shown once), role changes and disabling, each confirmed. */
export function OperatorsPage(): ReactNode {
  const { session } = useSession();
  const [operators, setOperators] = useState<OperatorRow[]>();
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState<string>();
  const load = useCallback(() => {
    api<{ operators: OperatorRow[] }>('GET', '/api/v1/operators')
      .then((answer) => setOperators(answer.operators))
      .catch(setError);
  }, []);
  useEffect(load, [load]);

  return (
    <section aria-labelledby="operators-title">
      <h1 id="operators-title">Operators</h1>
      {notice === undefined ? null : <SuccessNotice>{notice}</SuccessNotice>}
      <ErrorNotice error={error} />
      {operators === undefined ? null : (
        <ul className="cards">
          {operators.map((operator) => (
            <li key={operator.operatorId}>
              <OperatorCard
                operator={operator}
                isMe={operator.operatorId === session.operator.operatorId}
                onChanged={(message) => {
                  setNotice(message);
                  load();
                }}
              />
            </li>
          ))}
        </ul>
      )}
      <Invite onInvited={load} />
    </section>
  );
}

function OperatorCard(props: { operator: OperatorRow; isMe: boolean; onChanged: (message: string) => void }): ReactNode {
  const { operator } = props;
  const [editing, setEditing] = useState<'roles' | 'disable' | 'reset'>();
  const [chosen, setChosen] = useState<string[]>(operator.roles);
  const [reason, setReason] = useState('');
  const [resetLink, setResetLink] = useState<{ setupLink: string; setupLinkExpiresAt: string }>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const id = operator.operatorId;

  const confirm = (): void => {
    if (editing === 'reset') {
      resetFactors();
      return;
    }
    setBusy(true);
    setError(undefined);
    const call = editing === 'roles' ? api('PUT', `/api/v1/operators/${encodeURIComponent(id)}/roles`, { roles: chosen }) : api('POST', `/api/v1/operators/${encodeURIComponent(id)}/disable`, {});
    call
      .then(() => {
        setEditing(undefined);
        props.onChanged(editing === 'roles' ? `${operator.displayName} now has the roles ${chosen.join(', ')}; their sessions were ended.` : `${operator.displayName} is disabled; their sessions were ended.`);
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };

  const resetFactors = (): void => {
    if (reason.trim() === '') {
      setError(new Error('Reason: say why the factors are reset (a lost phone, a ticket number)'));
      return;
    }
    setBusy(true);
    setError(undefined);
    api<{ setupLink: string; setupLinkExpiresAt: string }>('POST', `/api/v1/operators/${encodeURIComponent(id)}/factor-resets`, { reason: reason.trim() })
      .then((answer) => {
        setEditing(undefined);
        setReason('');
        setResetLink({ setupLink: answer.setupLink, setupLinkExpiresAt: answer.setupLinkExpiresAt });
        props.onChanged(`${operator.displayName}'s sign-in factors were reset; they set up again from the new link.`);
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };

  const question =
    editing === 'roles'
      ? `Give ${operator.displayName} exactly the roles ${chosen.join(', ') || '(none)'}? Their sessions end at once.`
      : editing === 'disable'
        ? `Disable ${operator.displayName}? They can no longer sign in and their sessions end at once.`
        : `Reset the sign-in factors of ${operator.displayName}? Their password, authenticator app, passkeys and identity-provider link are removed, their sessions and personal tokens end, and they set up again from a new one-time link that you give them in person.`;

  return (
    <article className="card" aria-labelledby={`operator-${id}`}>
      <h2 id={`operator-${id}`} className="card-title">
        {operator.displayName}
        {props.isMe ? ' (you)' : ''}
      </h2>
      <dl className="facts">
        <dt>E-mail</dt>
        <dd>{operator.email}</dd>
        <dt>Roles</dt>
        <dd>{operator.roles.join(', ')}</dd>
        <dt>Status</dt>
        <dd>{operator.status}</dd>
        <dt>Invited</dt>
        <dd>{dateTime(operator.createdAt)}</dd>
      </dl>
      <ErrorNotice error={error} />
      {resetLink === undefined ? null : (
        <div className="once" role="status">
          <p>
            <strong>Shown only now:</strong> give this set-up link to {operator.displayName} in person or through a safe channel. It works once, until {dateTime(resetLink.setupLinkExpiresAt)}.
          </p>
          <p>
            <code>{resetLink.setupLink}</code>
          </p>
          <button type="button" className="secondary small" onClick={() => setResetLink(undefined)}>
            Done, hide it
          </button>
        </div>
      )}
      {editing === undefined ? (
        operator.status === 'disabled' ? null : props.isMe ? (
          <p className="hint">Your own roles and access are changed by another admin.</p>
        ) : (
          <div className="actions">
            <button type="button" className="secondary" onClick={() => setEditing('roles')}>
              Change roles
            </button>
            <button type="button" className="secondary" onClick={() => setEditing('reset')}>
              Reset sign-in factors
            </button>
            <button type="button" className="danger" onClick={() => setEditing('disable')}>
              Disable
            </button>
          </div>
        )
      ) : (
        <div className="confirm" role="group" aria-label={editing === 'roles' ? 'Change roles' : editing === 'disable' ? 'Confirm disabling' : 'Confirm the factor reset'}>
          {editing === 'roles' ? <RoleChoices idPrefix={`roles-${id}`} chosen={chosen} onChange={setChosen} /> : null}
          <p>{question}</p>
          {editing === 'reset' ? (
            <Field id={`reset-reason-${id}`} label="Reason" hint="Kept in the audit log: a lost phone, the ticket number.">
              <textarea id={`reset-reason-${id}`} required maxLength={500} rows={2} value={reason} aria-describedby={`reset-reason-${id}-hint`} onChange={(event) => setReason(event.target.value)} />
            </Field>
          ) : null}
          <div className="actions">
            <button type="button" className={editing === 'roles' ? 'primary' : 'danger'} disabled={busy} onClick={confirm}>
              {editing === 'roles' ? 'Yes, change the roles' : editing === 'disable' ? 'Yes, disable' : 'Yes, reset the factors'}
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={() => setEditing(undefined)}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </article>
  );
}

function Invite(props: { onInvited: () => void }): ReactNode {
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [chosen, setChosen] = useState<string[]>(['viewer']);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [link, setLink] = useState<{ setupLink: string; setupLinkExpiresAt: string; email: string }>();

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    api<{ operator: OperatorRow; setupLink: string; setupLinkExpiresAt: string }>('POST', '/api/v1/operators', { email: email.trim(), displayName: displayName.trim(), roles: chosen })
      .then((answer) => {
        setLink({ setupLink: answer.setupLink, setupLinkExpiresAt: answer.setupLinkExpiresAt, email: answer.operator.email });
        setEmail('');
        setDisplayName('');
        props.onInvited();
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };

  return (
    <section aria-labelledby="invite-title">
      <h2 id="invite-title">Invite a person</h2>
      {link === undefined ? null : (
        <div className="once">
          <p>
            <strong>Shown only now:</strong> send this set-up link to {link.email} through a safe channel. It works once, until {dateTime(link.setupLinkExpiresAt)}.
          </p>
          <p>
            <code>{link.setupLink}</code>
          </p>
          <button type="button" className="secondary small" onClick={() => setLink(undefined)}>
            Done, hide it
          </button>
        </div>
      )}
      <ErrorNotice error={error} />
      <form onSubmit={submit} aria-label="Invite a person">
        <Field id="invite-email" label="E-mail address">
          <input id="invite-email" type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </Field>
        <Field id="invite-name" label="Name">
          <input id="invite-name" required maxLength={100} value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
        </Field>
        <RoleChoices idPrefix="invite-role" chosen={chosen} onChange={setChosen} />
        <button type="submit" className="primary" disabled={busy}>
          Invite
        </button>
      </form>
    </section>
  );
}
