import { useState, type FormEvent, type ReactNode } from 'react';
import { api } from '../api';
import { ErrorNotice, Field, dateTime, newIdempotencyKey } from '../ui';

type SecretKind = 'client' | 'webhook';

interface Rotated {
  kind: SecretKind;
  secret: string | null;
  rotatedAt: string;
  previousSecretsValidUntil: string | null;
}

const overlapHoursDefault = '24';

/**
 * A partner's client secret and webhook secret, rotated by a maker or an admin (no four eyes: it
 * moves no money and the partner needs the new secret now). Each rotation says what will happen
 * before it runs, carries one Idempotency-Key (a double click rotates once), and shows the new
 * secret once, here; after a reload it is gone for good.
 */
export function SecretRotations(props: { partnerId: string; partnerName: string; onRotated: () => void }): ReactNode {
  const [confirming, setConfirming] = useState<SecretKind>();
  const [overlapHours, setOverlapHours] = useState(overlapHoursDefault);
  const [key, setKey] = useState(newIdempotencyKey);
  const [rotated, setRotated] = useState<Rotated>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const ask = (kind: SecretKind): void => {
    setRotated(undefined);
    setError(undefined);
    setKey(newIdempotencyKey());
    setOverlapHours(overlapHoursDefault);
    setConfirming(kind);
  };

  const rotate = (event: FormEvent): void => {
    event.preventDefault();
    if (confirming === undefined) return;
    const hours = Number(overlapHours);
    if (confirming === 'webhook' && (!/^\d{1,3}$/.test(overlapHours) || hours > 720)) {
      setError(new Error('Overlap: a whole number of hours from 0 to 720'));
      return;
    }
    setBusy(true);
    setError(undefined);
    const body = confirming === 'webhook' ? { overlapHours: hours } : {};
    api<{ clientSecret?: string | null; webhookSecret?: string | null; rotatedAt: string; previousSecretsValidUntil?: string | null }>(
      'POST',
      `/api/v1/partners/${encodeURIComponent(props.partnerId)}/${confirming}-secret-rotations`,
      body,
      { 'Idempotency-Key': key },
    )
      .then((answer) => {
        setRotated({
          kind: confirming,
          secret: (confirming === 'client' ? answer.clientSecret : answer.webhookSecret) ?? null,
          rotatedAt: answer.rotatedAt,
          previousSecretsValidUntil: answer.previousSecretsValidUntil ?? null,
        });
        setConfirming(undefined);
        props.onRotated();
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };

  return (
    <section aria-labelledby="secrets-title">
      <h2 id="secrets-title">Secrets</h2>
      <div className="actions">
        <button type="button" className="secondary" onClick={() => ask('client')}>
          Rotate client secret
        </button>
        <button type="button" className="secondary" onClick={() => ask('webhook')}>
          Rotate webhook secret
        </button>
      </div>
      {confirming === undefined ? null : (
        <form className="confirm" aria-label={confirming === 'client' ? 'Confirm the client secret rotation' : 'Confirm the webhook secret rotation'} onSubmit={rotate}>
          {confirming === 'client' ? (
            <p>
              Rotate the client secret of <strong>{props.partnerName}</strong>? A new secret is made and shown once, here. The current secret stops working at once: the partner cannot get new
              tokens until they use the new one (tokens already issued run until they expire).
            </p>
          ) : (
            <>
              <p>
                Rotate the webhook secret of <strong>{props.partnerName}</strong>? A new secret is made and shown once, here. Deliveries are signed with both the current and the new secret until
                the overlap ends, so the partner can switch without missing one.
              </p>
              <Field id="overlap-hours" label="Overlap (hours, 0 to 720)" hint="0 stops the current secret at once.">
                <input id="overlap-hours" inputMode="numeric" value={overlapHours} aria-describedby="overlap-hours-hint" onChange={(event) => setOverlapHours(event.target.value.trim())} />
              </Field>
            </>
          )}
          <ErrorNotice error={error} />
          <div className="actions">
            <button type="submit" className="danger" disabled={busy}>
              {confirming === 'client' ? 'Yes, rotate the client secret' : 'Yes, rotate the webhook secret'}
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={() => setConfirming(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {rotated === undefined ? null : (
        <div className="once" role="status">
          {rotated.secret === null ? (
            <p>This rotation was made by an earlier answer to the same confirmation, which showed the secret. If it was lost, rotate again.</p>
          ) : (
            <>
              <p>
                <strong>New {rotated.kind} secret, shown only now:</strong> give it to the partner through a safe channel.
              </p>
              <code>{rotated.secret}</code>
            </>
          )}
          <p className="hint">
            Rotated {dateTime(rotated.rotatedAt)}
            {rotated.kind === 'webhook' ? `; the previous secret ${rotated.previousSecretsValidUntil === null ? 'did not exist' : `stays valid until ${dateTime(rotated.previousSecretsValidUntil)}`}` : '; the previous secret no longer works'}
            .
          </p>
        </div>
      )}
    </section>
  );
}
