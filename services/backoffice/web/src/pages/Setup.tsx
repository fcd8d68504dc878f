import type { ReactNode } from 'react';
import { OneTimeLinkPage } from '../../../../../libs/console-web/pages/one-time-link-page';
import { api } from '../api';

/** An invited operator's set-up from the one-time link (libs/console-web one-time-link-page.tsx). */
export function SetupPage(): ReactNode {
  return (
    <OneTimeLinkPage
      api={api}
      brand="Partner Wallet back-office"
      title="Set up your account"
      pagePath="/setup"
      beginPath="/api/v1/setup/begin"
      completePath="/api/v1/setup/complete"
      intro="This one-time link lets you choose your password and connect an authenticator app."
      beginLabel="Begin set-up"
      missingLink="This page needs the set-up link you were sent. Open that link again, or ask an administrator for a new one."
      formLabel="Complete set-up"
    />
  );
}
