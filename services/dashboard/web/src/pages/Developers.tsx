import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { api } from '../api';
import { may, useSession } from '../session';
import { dateTime, ErrorNotice, FreshCodeField, freshCodeOf, SuccessNotice, useWork } from '../ui';

interface Slots {
  clientId: string;
  currentSince: string;
  secondSince: string | null;
}

/**
 * The partner's API credentials: the client id, and the client secret rotated without downtime —
 * add a second secret (shown once; the token endpoint accepts both), deploy it everywhere, then
 * revoke the previous one. Admins only, with a fresh code when the sign-in is not recent.
 */
export function DevelopersPage(): ReactNode {
  const session = useSession();
  const admin = may(session, 'manage_credentials');
  const [slots, setSlots] = useState<Slots>();
  const [shown, setShown] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [code, setCode] = useState('');
  const { busy, error, run, setError } = useWork();

  const load = useCallback(async () => setSlots(await api<Slots>('GET', '/api/v1/credentials')), []);
  useEffect(() => {
    load().catch(setError);
  }, [load, setError]);

  const addSecond = (): void => {
    void run(async () => {
      const answer = await api<Slots & { clientSecret: string | null }>('POST', '/api/v1/credentials/client-secrets', freshCodeOf(code));
      setCode('');
      await load();
      setNotice(undefined);
      setShown(answer.clientSecret ?? undefined);
    });
  };
  const revokePrevious = (): void => {
    void run(async () => {
      await api('POST', '/api/v1/credentials/client-secrets/revoke-previous', freshCodeOf(code));
      setCode('');
      await load();
      setShown(undefined);
      setNotice('The previous secret is revoked: only the new one gets tokens now.');
    });
  };

  return (
    <section aria-labelledby="developers-title">
      <h1 id="developers-title">Developers</h1>
      <ErrorNotice error={error} />
      {notice === undefined ? null : <SuccessNotice>{notice}</SuccessNotice>}
      {shown === undefined ? null : (
        <div className="notice notice-success once" role="status">
          <strong>The new client secret, shown only now:</strong> <code className="secret">{shown}</code>
          <p>Deploy it where your services ask for tokens. Both secrets get tokens until you revoke the previous one.</p>
        </div>
      )}
      {slots === undefined ? null : (
        <dl className="facts" aria-label="API credentials">
          <div>
            <dt>Client ID</dt>
            <dd>
              <code>{slots.clientId}</code>
            </dd>
          </div>
          <div>
            <dt>Current secret</dt>
            <dd>since {dateTime(slots.currentSince)}</dd>
          </div>
          <div>
            <dt>Second secret</dt>
            <dd>{slots.secondSince === null ? 'none' : `since ${dateTime(slots.secondSince)} (both are accepted)`}</dd>
          </div>
        </dl>
      )}
      {admin && slots !== undefined ? (
        <div className="confirm" role="group" aria-label="Rotate the client secret">
          <h2>Rotate the client secret without downtime</h2>
          <FreshCodeField id="credentials-code" value={code} onChange={setCode} />
          {slots.secondSince === null ? (
            <button type="button" className="primary" onClick={addSecond} disabled={busy}>
              Add a second secret
            </button>
          ) : (
            <button type="button" className="primary" onClick={revokePrevious} disabled={busy}>
              Revoke the previous secret
            </button>
          )}
        </div>
      ) : (
        <p>Only your team’s admins rotate the client secret.</p>
      )}
    </section>
  );
}
