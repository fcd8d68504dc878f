import type { ReactNode } from 'react';
import { OneTimeLinkPage } from '../../../../../libs/console-web/pages/one-time-link-page';
import { api } from '../api';

/** An invited member's first visit from the one-time invitation link (libs/console-web one-time-link-page.tsx). */
export function InvitationPage(): ReactNode {
  return (
    <OneTimeLinkPage
      api={api}
      brand="Partner Wallet dashboard"
      title="Join your team"
      pagePath="/invitation"
      beginPath="/api/v1/invitation/begin"
      completePath="/api/v1/invitation/complete"
      intro="This one-time invitation lets you choose your password and connect an authenticator app."
      beginLabel="Accept the invitation"
      missingLink="This page needs the invitation link you were sent. Open that link again, or ask your team’s admin for a new one."
      formLabel="Accept the invitation"
    />
  );
}
