import nodemailer from 'nodemailer';
import type { Logger } from '@pwa/logging';

/** An invitation as the invited person reads it: the link is in the message once, never in a log line. */
export interface InvitationMessage {
  to: string;
  displayName: string;
  role: string;
  invitationLink: string;
  expiresAt: Date;
}

export interface InvitationMailer {
  /** true when the SMTP server took the message; false (logged without the link) when it did not. */
  send(message: InvitationMessage): Promise<boolean>;
  close(): void;
}

/**
 * Optional delivery of invitations by e-mail (issue 28) through nodemailer to the operator's SMTP
 * relay (`DASHBOARD_SMTP_URL`, e.g. smtp://relay.internal:587 or smtps://user:pass@relay:465). The
 * link is still shown once to whoever invited: a mail that does not arrive leaves nobody stuck.
 */
export function createInvitationMailer(settings: { url: string; from: string; timeoutMs: number }, logger: Logger): InvitationMailer {
  const transport = nodemailer.createTransport({
    url: settings.url,
    logger: false,
    connectionTimeout: settings.timeoutMs,
    greetingTimeout: settings.timeoutMs,
    socketTimeout: settings.timeoutMs,
  });
  return {
    send: async (message) => {
      try {
        await transport.sendMail({
          from: settings.from,
          to: message.to,
          subject: 'You are invited to your team on the Partner Wallet dashboard',
          text: [
            `Hello ${message.displayName},`,
            '',
            `You are invited to join your team on the Partner Wallet dashboard as ${message.role}.`,
            `Open this link once, before ${message.expiresAt.toISOString()}, to choose a password and connect an authenticator app:`,
            '',
            message.invitationLink,
            '',
            'If you did not expect this invitation, ignore this message: nothing happens until the link is used.',
          ].join('\n'),
        });
        return true;
      } catch (error) {
        // Never the link: only why the relay did not take the message.
        logger.warn({ err: { message: error instanceof Error ? error.message : 'unknown', code: (error as { code?: unknown }).code } }, 'invitation e-mail not sent; the link was shown to the inviting person');
        return false;
      }
    },
    close: () => transport.close(),
  };
}
