import { useState, type FormEvent, type ReactNode } from 'react';
import { startAuthentication } from '@simplewebauthn/browser';
import { api, rememberCsrfToken } from '../api';
import { ErrorNotice, Field, useWork } from '../ui';

/** Sign-in in two steps: the password (202, a half-signed-in session), then a code from the authenticator app or, for a member who added one, a passkey. */
export function SignInPage(props: { onSignedIn: () => Promise<void> }): ReactNode {
  const [step, setStep] = useState<'password' | 'mfa'>('password');
  const { busy, error, run } = useWork();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [factors, setFactors] = useState<string[]>(['totp']);

  const submitPassword = (event: FormEvent): void => {
    event.preventDefault();
    void run(async () => {
      const answer = await api<{ csrfToken: string }>('POST', '/api/v1/session', { email, password });
      rememberCsrfToken(answer.csrfToken);
      setPassword('');
      setFactors((await api<{ factors: string[] }>('GET', '/api/v1/session/mfa')).factors);
      setStep('mfa');
    });
  };

  const submitCode = (event: FormEvent): void => {
    event.preventDefault();
    void run(async () => {
      const answer = await api<{ csrfToken: string }>('POST', '/api/v1/session/mfa', { code: code.trim() });
      rememberCsrfToken(answer.csrfToken);
      await props.onSignedIn();
    });
  };

  const usePasskey = (): void => {
    void run(async () => {
      const { options } = await api<{ options: Parameters<typeof startAuthentication>[0]['optionsJSON'] }>('POST', '/api/v1/session/passkey/options', {});
      const response = await startAuthentication({ optionsJSON: options });
      const answer = await api<{ csrfToken: string }>('POST', '/api/v1/session/passkey', { response });
      rememberCsrfToken(answer.csrfToken);
      await props.onSignedIn();
    });
  };

  return (
    <main className="auth-page" id="main">
      <section className="auth-card" aria-labelledby="sign-in-title">
        <p className="brand">Partner Wallet dashboard</p>
        <h1 id="sign-in-title">Sign in</h1>
        <ErrorNotice error={error} />
        {step === 'password' ? (
          <form onSubmit={submitPassword} aria-label="Sign in with your password">
            <Field id="email" label="E-mail address">
              <input id="email" type="email" autoComplete="username" required value={email} onChange={(event) => setEmail(event.target.value)} />
            </Field>
            <Field id="password" label="Password">
              <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(event) => setPassword(event.target.value)} />
            </Field>
            <button type="submit" className="primary" disabled={busy}>
              Continue
            </button>
          </form>
        ) : (
          <form onSubmit={submitCode} aria-label="Authenticator code">
            <p>Confirm it is you with a code from your authenticator app.</p>
            <Field id="totp-code" label="Code from your authenticator app" hint="Six digits; each code works once.">
              <input id="totp-code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required value={code} aria-describedby="totp-code-hint" onChange={(event) => setCode(event.target.value)} />
            </Field>
            <button type="submit" className="primary" disabled={busy}>
              Sign in
            </button>
            {factors.includes('passkey') ? (
              <p>
                <button type="button" className="secondary" onClick={usePasskey} disabled={busy}>
                  Use a passkey
                </button>
              </p>
            ) : null}
          </form>
        )}
      </section>
    </main>
  );
}
