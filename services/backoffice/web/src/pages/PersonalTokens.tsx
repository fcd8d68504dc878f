import { useState, type FormEvent, type ReactNode } from 'react';
import { api } from '../api';
import { ErrorNotice, Field, SuccessNotice, dateTime } from '../ui';
import { useReloadable } from '../use-reloadable';

interface PersonalToken {
  tokenId: string;
  name: string;
  state: 'active' | 'expired' | 'revoked';
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
}

/**
 * The person's personal access tokens for the operator CLI (decision 0072): made soon after a
 * sign-in, the secret shown once here and never again, listed without it, revoked with a confirmation.
 */
export function PersonalTokensSection(): ReactNode {
  const { value: tokens, error, setError, reload: load } = useReloadable('/api/v1/personal-tokens', (answer: { tokens: PersonalToken[] }) => answer.tokens);
  const [notice, setNotice] = useState<string>();
  const [name, setName] = useState('');
  const [lifetimeDays, setLifetimeDays] = useState('30');
  const [shownOnce, setShownOnce] = useState<{ name: string; secret: string }>();
  const [revoking, setRevoking] = useState<PersonalToken>();
  const [busy, setBusy] = useState(false);

  const create = (event: FormEvent): void => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    setShownOnce(undefined);
    api<{ token: PersonalToken; secret: string }>('POST', '/api/v1/personal-tokens', { name: name.trim(), lifetimeDays: Number(lifetimeDays) })
      .then(async (answer) => {
        setName('');
        await load();
        setShownOnce({ name: answer.token.name, secret: answer.secret });
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };

  const revoke = (): void => {
    if (revoking === undefined) return;
    setBusy(true);
    setError(undefined);
    api('DELETE', `/api/v1/personal-tokens/${encodeURIComponent(revoking.tokenId)}`)
      .then(async () => {
        setRevoking(undefined);
        await load();
        setNotice(`Token ${revoking.name} revoked: the CLI can no longer use it.`);
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };

  return (
    <>
      <h2>Personal tokens for the operator CLI</h2>
      <p className="hint">A token acts as you, with your roles, from the operator CLI (npm run operator -- backoffice …, reading it from BACKOFFICE_TOKEN). It ends when you revoke it, when it expires, or when your roles change.</p>
      {notice === undefined ? null : <SuccessNotice>{notice}</SuccessNotice>}
      {shownOnce === undefined ? null : (
        <div className="once" role="status">
          <p>
            <strong>Copy the token {shownOnce.name} now:</strong> it is shown only this once.
          </p>
          <code>{shownOnce.secret}</code>
        </div>
      )}
      <ErrorNotice error={error} />
      {tokens === undefined ? null : tokens.length === 0 ? (
        <p className="empty">No personal token yet.</p>
      ) : (
        <table aria-label="Personal tokens">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">State</th>
              <th scope="col">Made</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.tokenId}>
                <td>{token.name}</td>
                <td>{token.state}</td>
                <td>{dateTime(token.createdAt)}</td>
                <td>{dateTime(token.expiresAt)}</td>
                <td>{dateTime(token.lastUsedAt)}</td>
                <td>
                  {token.state === 'active' ? (
                    <button type="button" className="danger small" onClick={() => setRevoking(token)}>
                      Revoke {token.name}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {revoking === undefined ? null : (
        <div className="confirm" role="group" aria-label="Confirm revocation">
          <p>Revoke the token {revoking.name}? Every CLI using it is refused from now on.</p>
          <div className="actions">
            <button type="button" className="danger" disabled={busy} onClick={revoke}>
              Yes, revoke
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={() => setRevoking(undefined)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <form onSubmit={create} aria-label="Make a personal token">
        <Field id="token-name" label="Name of the new token (where it is used)">
          <input id="token-name" required maxLength={60} value={name} onChange={(event) => setName(event.target.value)} />
        </Field>
        <Field id="token-days" label="Lifetime in days (1 to 90)">
          <input id="token-days" type="number" min={1} max={90} required value={lifetimeDays} onChange={(event) => setLifetimeDays(event.target.value)} />
        </Field>
        <button type="submit" className="primary" disabled={busy}>
          Make a token
        </button>
      </form>
    </>
  );
}
