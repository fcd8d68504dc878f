import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { startRegistration } from '@simplewebauthn/browser';
import { api } from '../api';
import { PasskeyList } from '../../../../../libs/console-web/pages/passkey-list';
import { useSession } from '../session';
import { ErrorNotice, Field, FreshCodeField, freshCodeOf, SuccessNotice, useWork } from '../ui';

interface Passkey {
  passkeyId: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

const factorLabels: Record<string, string> = { totp: 'a code from your authenticator app', passkey: 'a passkey' };

/**
 * The member's own account: who they are, how they signed in, and their passkeys — a second factor
 * beside the authenticator app, added and removed with a fresh code when the sign-in is not recent.
 */
export function AccountPage(): ReactNode {
  const session = useSession();
  const [passkeys, setPasskeys] = useState<Passkey[]>();
  const [notice, setNotice] = useState<string>();
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [removing, setRemoving] = useState<Passkey>();
  const { busy, error, run, setError } = useWork();

  const load = useCallback(async () => setPasskeys((await api<{ passkeys: Passkey[] }>('GET', '/api/v1/passkeys')).passkeys), []);
  useEffect(() => {
    load().catch(setError);
  }, [load, setError]);

  const add = (event: FormEvent): void => {
    event.preventDefault();
    setNotice(undefined);
    void run(async () => {
      const { options } = await api<{ options: Parameters<typeof startRegistration>[0]['optionsJSON'] }>('POST', '/api/v1/passkeys/registration-options', freshCodeOf(code));
      setCode('');
      const response = await startRegistration({ optionsJSON: options });
      await api('POST', '/api/v1/passkeys', { response, ...(name.trim() === '' ? {} : { name: name.trim() }) });
      setName('');
      await load();
      setNotice('Passkey added. After your password, you can use it instead of a code.');
    });
  };

  const remove = (): void => {
    if (removing === undefined) return;
    setNotice(undefined);
    void run(async () => {
      await api('POST', `/api/v1/passkeys/${encodeURIComponent(removing.passkeyId)}/removal`, freshCodeOf(code));
      setCode('');
      setRemoving(undefined);
      await load();
      setNotice(`Passkey ${removing.name} removed.`);
    });
  };

  const { member, secondFactor } = session;
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">My account</h1>
      <dl className="facts">
        <dt>Name</dt>
        <dd>{member.displayName}</dd>
        <dt>E-mail</dt>
        <dd>{member.email}</dd>
        <dt>Role</dt>
        <dd>{member.role}</dd>
        <dt>Signed in with</dt>
        <dd>your password and {secondFactor === null ? '—' : (factorLabels[secondFactor] ?? secondFactor)}</dd>
      </dl>
      <h2>Passkeys</h2>
      <p>A passkey (your device's screen lock or a security key) signs you in after your password, in place of a code. Your authenticator app keeps working.</p>
      {notice === undefined ? null : <SuccessNotice>{notice}</SuccessNotice>}
      <ErrorNotice error={error} />
      <PasskeyList passkeys={passkeys} onRemove={setRemoving} />
      {removing === undefined ? null : (
        <div className="confirm" role="group" aria-label="Confirm removal">
          <p>Remove the passkey {removing.name}? It will no longer sign you in.</p>
          <FreshCodeField id="removal-code" value={code} onChange={setCode} />
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
      <h2>Add a passkey</h2>
      <form onSubmit={add} aria-label="Add a passkey">
        <Field id="passkey-name" label="Name for the new passkey (optional)">
          <input id="passkey-name" maxLength={60} value={name} onChange={(event) => setName(event.target.value)} />
        </Field>
        {removing === undefined ? <FreshCodeField id="passkey-code" value={code} onChange={setCode} /> : null}
        <button type="submit" className="primary" disabled={busy}>
          Add a passkey
        </button>
      </form>
    </section>
  );
}
