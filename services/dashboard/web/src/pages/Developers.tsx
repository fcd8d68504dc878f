import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { api } from '../api';
import { may, useSession } from '../session';
import { dateTime, ErrorNotice, Field, FreshCodeField, freshCodeOf, SuccessNotice, useWork } from '../ui';
import { EventsSection } from './Events';

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
      <WebhookSettingsSection admin={admin} mayTest={may(session, 'send_test_webhook')} />
      <EventsSection />
    </section>
  );
}

interface TestDelivery {
  referenceId: string;
  status: string;
  attempts: { outcome: string; statusCode: number | null; latencyMs: number | null; error: string | null }[];
}

function describeAttempt(attempt: TestDelivery['attempts'][number] | undefined): string {
  if (attempt === undefined) return '';
  const answer = attempt.statusCode === null ? 'no HTTP answer' : `your receiver answered HTTP ${attempt.statusCode}`;
  return `${attempt.outcome}: ${answer}${attempt.latencyMs === null ? '' : ` in ${attempt.latencyMs} ms`}${attempt.error === null ? '' : ` (${attempt.error})`}`;
}

interface WebhookSettings {
  webhookUrl: string | null;
  lastSecretRotation: { rotatedAt: string; previousSecretsValidUntil: string | null } | null;
}

/**
 * Where the partner's webhooks go and the secret that signs them: admins change the URL (the same
 * rules as the webhook service: https, no private address) and rotate the secret with an overlap in
 * which the previous secrets still sign, so receivers accept either while they deploy the new one.
 */
function WebhookSettingsSection(props: { admin: boolean; mayTest: boolean }): ReactNode {
  const [settings, setSettings] = useState<WebhookSettings>();
  const [url, setUrl] = useState('');
  const [overlapHours, setOverlapHours] = useState('24');
  const [code, setCode] = useState('');
  const [rotationCode, setRotationCode] = useState('');
  const [shown, setShown] = useState<{ secret: string; previousValidUntil: string | null }>();
  const [notice, setNotice] = useState<string>();
  const { busy, error, run, setError } = useWork();
  const load = useCallback(async () => {
    const read = await api<WebhookSettings>('GET', '/api/v1/webhook-settings');
    setSettings(read);
    setUrl(read.webhookUrl ?? '');
  }, []);
  useEffect(() => {
    load().catch(setError);
  }, [load, setError]);

  const saveUrl = (event: FormEvent): void => {
    event.preventDefault();
    void run(async () => {
      await api('POST', '/api/v1/webhook-settings/url', { ...freshCodeOf(code), webhookUrl: url.trim() === '' ? null : url.trim() });
      setCode('');
      await load();
      setNotice(url.trim() === '' ? 'Webhooks are off: no URL is registered.' : 'The webhook URL is saved: the next delivery goes there.');
    });
  };
  const rotate = (): void => {
    void run(async () => {
      const answer = await api<{ webhookSecret: string | null; previousSecretsValidUntil: string | null }>('POST', '/api/v1/webhook-settings/secret-rotations', { ...freshCodeOf(rotationCode), overlapHours: Number(overlapHours) });
      setRotationCode('');
      await load();
      setNotice(undefined);
      if (answer.webhookSecret !== null) setShown({ secret: answer.webhookSecret, previousValidUntil: answer.previousSecretsValidUntil });
    });
  };

  const [test, setTest] = useState<TestDelivery>();
  const sendTest = (): void => {
    void run(async () => {
      setNotice(undefined);
      const sent = await api<TestDelivery>('POST', '/api/v1/webhook-settings/test', {});
      setTest(sent);
      // Follow it for a while: the first attempt is made at once, retries later (see its story in the deliveries).
      for (let check = 0; check < 10; check += 1) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const page = await api<{ items: TestDelivery[] }>('GET', `/api/v1/transactions/deliveries?referenceId=${encodeURIComponent(sent.referenceId)}`);
        const now = page.items[0];
        if (now !== undefined) setTest(now);
        if (now !== undefined && now.attempts.length > 0) break;
      }
    });
  };

  return (
    <section aria-labelledby="webhook-settings-title">
      <h2 id="webhook-settings-title">Webhooks</h2>
      <ErrorNotice error={error} />
      {notice === undefined ? null : <SuccessNotice>{notice}</SuccessNotice>}
      {shown === undefined ? null : (
        <div className="notice notice-success once" role="status">
          <strong>The new webhook secret, shown only now:</strong> <code className="secret">{shown.secret}</code>
          <p>{shown.previousValidUntil === null ? 'Webhooks are signed with it from now on.' : `Until ${dateTime(shown.previousValidUntil)} each webhook carries a signature with the previous secret too: deploy the new one before then.`}</p>
        </div>
      )}
      {settings === undefined ? null : (
        <dl className="facts" aria-label="Webhook settings">
          <div>
            <dt>Webhook URL</dt>
            <dd>{settings.webhookUrl === null ? 'none (webhooks are off)' : <code>{settings.webhookUrl}</code>}</dd>
          </div>
          <div>
            <dt>Signing secret last rotated</dt>
            <dd>{settings.lastSecretRotation === null ? 'never (the secret given at onboarding)' : dateTime(settings.lastSecretRotation.rotatedAt)}</dd>
          </div>
        </dl>
      )}
      {props.mayTest && settings?.webhookUrl != null ? (
        <div className="actions" role="group" aria-label="Test webhook">
          <button type="button" className="secondary" onClick={sendTest} disabled={busy}>
            Send a test webhook
          </button>
          {test === undefined ? null : (
            <p role="status">
              Test <code>{test.referenceId}</code>: {test.status}
              {test.attempts.length === 0 ? '' : ` — ${describeAttempt(test.attempts[test.attempts.length - 1])}`}
            </p>
          )}
        </div>
      ) : null}
      {props.admin && settings !== undefined ? (
        <>
          <form onSubmit={saveUrl} aria-label="Change the webhook URL" className="confirm">
            <Field id="webhook-url" label="Webhook URL" hint="https, on a public address. Leave empty to stop webhooks.">
              <input id="webhook-url" type="url" value={url} aria-describedby="webhook-url-hint" onChange={(event) => setUrl(event.target.value)} />
            </Field>
            <FreshCodeField id="webhook-code" value={code} onChange={setCode} />
            <button type="submit" className="primary" disabled={busy}>
              Save the webhook URL
            </button>
          </form>
          <div className="confirm" role="group" aria-label="Rotate the webhook secret">
            <Field id="webhook-overlap" label="Keep the previous secret for (hours)" hint="0 to 720. Both sign each webhook meanwhile.">
              <input id="webhook-overlap" type="number" min={0} max={720} value={overlapHours} aria-describedby="webhook-overlap-hint" onChange={(event) => setOverlapHours(event.target.value)} />
            </Field>
            <FreshCodeField id="webhook-secret-code" value={rotationCode} onChange={setRotationCode} />
            <button type="button" className="primary" onClick={rotate} disabled={busy}>
              Rotate the webhook secret
            </button>
          </div>
        </>
      ) : (
        <p>Only your team’s admins change the webhook URL or its secret.</p>
      )}
    </section>
  );
}
