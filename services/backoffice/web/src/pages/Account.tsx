import { useState, type FormEvent, type ReactNode } from 'react';
import { startRegistration } from '@simplewebauthn/browser';
import { api } from '../api';
import { PasskeyList } from '../../../../../libs/console-web/pages/passkey-list';
import { useSession } from '../session';
import { ErrorNotice, Field, SuccessNotice, dateTime } from '../ui';
import { useReloadable } from '../use-reloadable';
import { PersonalTokensSection } from './PersonalTokens';

interface Passkey {
  passkeyId: string;
  name: string;
  deviceType: string;
  backedUp: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

/** How the session's sign-in is named to the person. */
const methodLabels: Record<string, string> = { password: 'a password', oidc: 'the company identity provider' };
const factorLabels: Record<string, string> = { totp: 'an authenticator code', passkey: 'a passkey', 'identity-provider': "the identity provider's MFA" };

/** The person's own account: who they are, how they signed in, their passkeys and personal tokens (made soon after a sign-in). */
export function AccountPage(): ReactNode {
  const { session } = useSession();
  const { value: passkeys, error, setError, reload: load } = useReloadable('/api/v1/passkeys', (answer: { passkeys: Passkey[] }) => answer.passkeys);
  const [notice, setNotice] = useState<string>();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<Passkey>();

  const add = (event: FormEvent): void => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    (async () => {
      const { options } = await api<{ options: Parameters<typeof startRegistration>[0]['optionsJSON'] }>('POST', '/api/v1/passkeys/registration-options', {});
      const response = await startRegistration({ optionsJSON: options });
      await api('POST', '/api/v1/passkeys', { response, ...(name.trim() === '' ? {} : { name: name.trim() }) });
      setName('');
      await load();
      setNotice('Passkey added. You can use it to sign in after your password.');
    })()
      .catch(setError)
      .finally(() => setBusy(false));
  };

  const remove = (): void => {
    if (removing === undefined) return;
    setBusy(true);
    setError(undefined);
    api('DELETE', `/api/v1/passkeys/${encodeURIComponent(removing.passkeyId)}`)
      .then(async () => {
        setRemoving(undefined);
        await load();
        setNotice(`Passkey ${removing.name} removed.`);
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };

  const { operator, signIn } = session;
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">My account</h1>
      <dl className="facts">
        <dt>Name</dt>
        <dd>{operator.displayName}</dd>
        <dt>E-mail</dt>
        <dd>{operator.email}</dd>
        <dt>Roles</dt>
        <dd>{operator.roles.join(', ')}</dd>
        <dt>Signed in</dt>
        <dd>
          {dateTime(signIn.completedAt)} with {methodLabels[signIn.method] ?? signIn.method} and {signIn.secondFactor === null ? '—' : (factorLabels[signIn.secondFactor] ?? signIn.secondFactor)}
        </dd>
      </dl>
      <h2>Passkeys</h2>
      {notice === undefined ? null : <SuccessNotice>{notice}</SuccessNotice>}
      <ErrorNotice error={error} />
      <PasskeyList passkeys={passkeys} onRemove={setRemoving} />
      {removing === undefined ? null : (
        <div className="confirm" role="group" aria-label="Confirm removal">
          <p>Remove the passkey {removing.name}? It will no longer sign you in.</p>
          <div className="actions">
            <button type="button" className="danger" disabled={busy} onClick={remove}>
              Yes, remove
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={() => setRemoving(undefined)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <form onSubmit={add} aria-label="Add a passkey">
        <Field id="passkey-name" label="Name for the new passkey (optional)" hint={signIn.factorChangesUntil === null ? undefined : `Allowed until ${dateTime(signIn.factorChangesUntil)}; after that, sign in again.`}>
          <input id="passkey-name" maxLength={60} value={name} onChange={(event) => setName(event.target.value)} />
        </Field>
        <button type="submit" className="primary" disabled={busy}>
          Add a passkey
        </button>
      </form>
      <PersonalTokensSection />
    </section>
  );
}
