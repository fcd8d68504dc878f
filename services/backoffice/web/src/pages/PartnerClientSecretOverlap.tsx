import { useState, type ReactNode } from 'react';
import { api } from '../api';
import { ErrorNotice, dateTime, newIdempotencyKey } from '../ui';

type Step = 'add_second' | 'revoke_previous';

interface Changed {
  step: Step;
  clientSecret: string | null;
  currentSince: string;
  secondSince: string | null;
}

/**
 * The client secret rotated without downtime (issue 28), as the partner's own admins do it in
 * their dashboard: a second secret is added and shown once (both get tokens), and once the partner
 * uses it everywhere the previous one is revoked. One Idempotency-Key per confirmation.
 */
export function ClientSecretOverlap(props: { partnerId: string; partnerName: string; secondSince: string | null | undefined; onChanged: () => void }): ReactNode {
  const [confirming, setConfirming] = useState<Step>();
  const [key, setKey] = useState(newIdempotencyKey);
  const [changed, setChanged] = useState<Changed>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const ask = (step: Step): void => {
    setChanged(undefined);
    setError(undefined);
    setKey(newIdempotencyKey());
    setConfirming(step);
  };
  const run = (): void => {
    if (confirming === undefined) return;
    setBusy(true);
    setError(undefined);
    api<Changed>('POST', `/api/v1/partners/${encodeURIComponent(props.partnerId)}/client-secret-changes`, { step: confirming }, { 'Idempotency-Key': key })
      .then((answer) => {
        setChanged(answer);
        setConfirming(undefined);
        props.onChanged();
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };

  return (
    <section aria-labelledby="overlap-title">
      <h2 id="overlap-title">Client secret without downtime</h2>
      {/* The step that applies: a second secret while there is one only, the revocation while there are two (both when auth's answer is unknown). */}
      <div className="actions">
        {typeof props.secondSince === 'string' ? null : (
          <button type="button" className="secondary" onClick={() => ask('add_second')}>
            Add a second client secret
          </button>
        )}
        {props.secondSince === null ? null : (
          <button type="button" className="secondary" onClick={() => ask('revoke_previous')}>
            Revoke the previous client secret
          </button>
        )}
      </div>
      {confirming === undefined ? null : (
        <div className="confirm" role="group" aria-label={confirming === 'add_second' ? 'Confirm the second client secret' : 'Confirm the revocation of the previous client secret'}>
          <p>
            {confirming === 'add_second' ? (
              <>
                Add a second client secret for <strong>{props.partnerName}</strong>? It is shown once, here; the current secret keeps working too until the previous one is revoked.
              </>
            ) : (
              <>
                Revoke the previous client secret of <strong>{props.partnerName}</strong>? Only the second secret gets tokens from now on.
              </>
            )}
          </p>
          <ErrorNotice error={error} />
          <div className="actions">
            <button type="button" className="danger" disabled={busy} onClick={run}>
              {confirming === 'add_second' ? 'Yes, add a second secret' : 'Yes, revoke the previous secret'}
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={() => setConfirming(undefined)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {changed === undefined ? null : (
        <div className="once" role="status">
          {changed.clientSecret === null ? (
            <p>{changed.step === 'add_second' ? 'The second secret was added by an earlier answer to the same confirmation, which showed it.' : 'The previous client secret is revoked: only the second one gets tokens now.'}</p>
          ) : (
            <>
              <p>
                <strong>Second client secret, shown only now:</strong> give it to the partner through a safe channel.
              </p>
              <code>{changed.clientSecret}</code>
            </>
          )}
          <p className="hint">
            Current secret since {dateTime(changed.currentSince)}; second secret {changed.secondSince === null ? 'none' : `since ${dateTime(changed.secondSince)}`}.
          </p>
        </div>
      )}
    </section>
  );
}
