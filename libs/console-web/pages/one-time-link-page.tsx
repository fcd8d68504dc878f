import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import QRCode from 'qrcode';
import type { ApiClient } from './api-client';
import { navigate } from './router';
import { ErrorNotice, Field } from './ui';

interface Enrolment {
  email: string;
  displayName: string;
  /** The dashboard's invitations say the role the person joins with. */
  role?: string;
  otpauthUri: string;
  secretBase32: string;
  enrolment: string;
}

/** The set-up token travels in the link's fragment (never to a server log); ?token= is read too. */
function setupTokenFromLocation(): string {
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, '')).get('token');
  return fromHash ?? new URLSearchParams(location.search).get('token') ?? '';
}

/** What differs between the consoles' one-time link pages: the back-office's set-up, the dashboard's invitation. */
export interface OneTimeLinkTexts {
  api: ApiClient['api'];
  brand: string;
  title: string;
  /** The page's own path, where the token leaves the address bar for. */
  pagePath: string;
  beginPath: string;
  completePath: string;
  intro: string;
  beginLabel: string;
  missingLink: string;
  formLabel: string;
}

/**
 * An invited person's first visit: the link is checked, the authenticator's QR code and secret
 * shown once, then the password and the first code activate the account.
 */
export function OneTimeLinkPage(props: OneTimeLinkTexts): ReactNode {
  const { api } = props;
  const [token] = useState(setupTokenFromLocation);
  const [enrolment, setEnrolment] = useState<Enrolment>();
  const [qr, setQr] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [code, setCode] = useState('');

  useEffect(() => {
    // The token leaves the address bar (and the history) as soon as it is read.
    if (location.hash !== '' || location.search !== '') history.replaceState(null, '', props.pagePath);
  }, []);

  const begin = (): void => {
    setBusy(true);
    setError(undefined);
    api<Enrolment>('POST', props.beginPath, { token })
      .then(async (begun) => {
        setEnrolment(begun);
        setQr(await QRCode.toDataURL(begun.otpauthUri, { margin: 1, width: 220 }));
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };

  const complete = (event: FormEvent): void => {
    event.preventDefault();
    if (enrolment === undefined) return;
    if (password !== confirmation) {
      setError(new Error('The two passwords differ: type the same password twice'));
      return;
    }
    setBusy(true);
    setError(undefined);
    api('POST', props.completePath, { token, password, enrolment: enrolment.enrolment, code: code.trim() })
      .then(() => {
        setDone(true);
        setEnrolment(undefined);
        setQr(undefined);
        setPassword('');
        setConfirmation('');
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };

  return (
    <main className="auth-page" id="main">
      <section className="auth-card wide" aria-labelledby="setup-title">
        <p className="brand">{props.brand}</p>
        <h1 id="setup-title">{props.title}</h1>
        <ErrorNotice error={error} />
        {done ? (
          <>
            <p role="status">Your account is ready. Sign in with your e-mail address, your password and a code from your authenticator app.</p>
            <button type="button" className="primary" onClick={() => navigate('/sign-in')}>
              Go to sign-in
            </button>
          </>
        ) : enrolment === undefined ? (
          token === '' ? (
            <p>{props.missingLink}</p>
          ) : (
            <>
              <p>{props.intro}</p>
              <button type="button" className="primary" onClick={begin} disabled={busy}>
                {props.beginLabel}
              </button>
            </>
          )
        ) : (
          <>
            <p>
              Welcome, <strong>{enrolment.displayName}</strong> ({enrolment.email}){enrolment.role === undefined ? '' : ', invited as '}
              {enrolment.role === undefined ? null : <strong>{enrolment.role}</strong>}.
            </p>
            <h2>1. Connect your authenticator app</h2>
            <p>Scan this code with your authenticator app. It is shown only now.</p>
            {qr === undefined ? null : <img className="qr" src={qr} alt="QR code to add this account to your authenticator app" width={220} height={220} />}
            <p>
              Or type this key: <code className="secret">{enrolment.secretBase32}</code>
            </p>
            <h2>2. Choose your password and confirm a code</h2>
            <form onSubmit={complete} aria-label={props.formLabel}>
              <Field id="new-password" label="New password" hint="At least 12 characters; not your e-mail address or name.">
                <input id="new-password" type="password" autoComplete="new-password" minLength={12} required value={password} aria-describedby="new-password-hint" onChange={(event) => setPassword(event.target.value)} />
              </Field>
              <Field id="confirm-password" label="The same password again">
                <input id="confirm-password" type="password" autoComplete="new-password" required value={confirmation} onChange={(event) => setConfirmation(event.target.value)} />
              </Field>
              <Field id="setup-code" label="Code from your authenticator app">
                <input id="setup-code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required value={code} onChange={(event) => setCode(event.target.value)} />
              </Field>
              <button type="submit" className="primary" disabled={busy}>
                Activate my account
              </button>
            </form>
          </>
        )}
      </section>
    </main>
  );
}
