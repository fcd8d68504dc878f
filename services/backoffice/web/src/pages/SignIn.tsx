import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { startAuthentication } from '@simplewebauthn/browser';
import { api, rememberCsrfToken } from '../api';
import { ErrorNotice, Field } from '../ui';

interface MfaView {
  stage: string;
  csrfToken: string;
  factors: string[];
}

/**
 * Sign-in in two steps: the password (202, a half-signed-in session), then the second factor, a
 * TOTP code or a passkey. The identity provider's button shows only when the back-office offers it.
 */
export function SignInPage(props: { onSignedIn: () => Promise<void>; search: URLSearchParams }): ReactNode {
  const [step, setStep] = useState<'password' | 'mfa'>(props.search.get('step') === 'mfa' ? 'mfa' : 'password');
  const [factors, setFactors] = useState<string[]>(['totp']);
  const [oidcStart, setOidcStart] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(props.search.get('error') === null ? undefined : new Error(`Sign-in with your company account was refused (${props.search.get('error')})`));
  const [busy, setBusy] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');

  useEffect(() => {
    api<{ oidc: { start: string } | null }>('GET', '/api/v1/session/methods')
      .then((methods) => setOidcStart(methods.oidc?.start ?? null))
      .catch(() => setOidcStart(null));
  }, []);

  useEffect(() => {
    if (step !== 'mfa') return;
    api<MfaView>('GET', '/api/v1/session/mfa')
      .then((view) => {
        rememberCsrfToken(view.csrfToken);
        setFactors(view.factors);
      })
      .catch((refusal: unknown) => {
        setError(refusal);
        setStep('password');
      });
  }, [step]);

  const run = async (work: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (refusal) {
      setError(refusal);
    } finally {
      setBusy(false);
    }
  };

  const submitPassword = (event: FormEvent): void => {
    event.preventDefault();
    void run(async () => {
      const answer = await api<{ csrfToken: string }>('POST', '/api/v1/session', { email, password });
      rememberCsrfToken(answer.csrfToken);
      setPassword('');
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
        <p className="brand">Partner Wallet back-office</p>
        <h1 id="sign-in-title">Sign in</h1>
        <ErrorNotice error={error} />
        {step === 'password' ? (
          <>
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
            {oidcStart === null ? null : (
              <p className="alternative">
                <a className="button secondary" href={oidcStart}>
                  Sign in with your company account
                </a>
              </p>
            )}
          </>
        ) : (
          <>
            <p>Confirm it is you with your second factor.</p>
            <form onSubmit={submitCode} aria-label="Authenticator code">
              <Field id="totp-code" label="Code from your authenticator app" hint="Six digits; each code works once.">
                <input id="totp-code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required value={code} aria-describedby="totp-code-hint" onChange={(event) => setCode(event.target.value)} />
              </Field>
              <button type="submit" className="primary" disabled={busy}>
                Sign in
              </button>
            </form>
            {factors.includes('passkey') ? (
              <p className="alternative">
                <button type="button" className="secondary" onClick={usePasskey} disabled={busy}>
                  Use a passkey
                </button>
              </p>
            ) : null}
          </>
        )}
      </section>
    </main>
  );
}
