import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { onboardPartner } from '../../../../test/support/partners';
import { startDashboardStack, type DashboardStack } from '../../../../test/support/stack';

interface ReceivedMail {
  to: string[];
  text: string;
}

/**
 * Invitations by e-mail (issue 28): with DASHBOARD_SMTP_URL set, an admin's invitation is also sent
 * through the SMTP relay (a local `smtp-server` here), and the link in the mail lets the person
 * join; a relay that is down leaves the invitation made and its link shown, never logged.
 */
describe('the partner dashboard: invitations by e-mail', () => {
  const received: ReceivedMail[] = [];
  let smtp: SMTPServer;
  let stack: DashboardStack;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((each) => each.address), text: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    const port = (smtp.server.address() as AddressInfo).port;
    stack = await startDashboardStack({ logLevel: 'info', dashboard: { env: { DASHBOARD_SMTP_URL: `smtp://127.0.0.1:${port}`, DASHBOARD_SMTP_FROM: 'Partner Wallet <no-reply@wallet.example>', DASHBOARD_SMTP_TIMEOUT_MS: '2000' } } });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await new Promise<void>((resolve) => (smtp.server.listening ? smtp.close(() => resolve()) : resolve()));
  });

  /** The one-time link in a received mail (its quoted-printable body decoded: soft line breaks out, =XX back to its character). */
  const linkInMailTo = (address: string): string | undefined => {
    const mail = received.find((each) => each.to.includes(address));
    const body = (mail?.text ?? '').replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return /https:\/\/localhost:\d+\/invitation#token=[A-Za-z0-9_-]+/.exec(body)?.[0];
  };

  test('when the operator invites a partner’s first admin, then the invitation is mailed too, the same link as printed, as admin', async () => {
    const partner = await onboardPartner(stack);
    const invited = await stack.dashboard.setupCli(['invite-admin', '--partner-id', partner.partnerId, '--email', 'first.admin@partner.example', '--name', 'First Admin']);
    expect(invited.exitCode).toBe(0);
    expect(invited.json).toMatchObject({ outcome: 'invited', emailed: true });
    expect(received.find((each) => each.to.includes('first.admin@partner.example'))?.text).toContain('as admin');
    expect(linkInMailTo('first.admin@partner.example')).toBe(invited.json?.invitationLink);
  });

  test('when an admin invites a member, then the mail carries the one-time link that lets them join; with the relay down the invitation is still made and its link shown, not logged', async () => {
    const partner = await onboardPartner(stack);
    const admin = await stack.dashboard.seedAdmin(partner.partnerId, 'Mail Admin');
    const session = await admin.signIn();
    const invited = await session.post('/api/v1/members', { email: 'mailed.member@partner.example', displayName: 'Mailed Member', role: 'finance' });
    expect(invited.status).toBe(201);
    expect(invited.body.data.emailed).toBe(true);
    const mail = received.find((each) => each.to.includes('mailed.member@partner.example'));
    expect(mail?.text).toContain('as finance');
    // The body is quoted-printable (RFC 2045): soft line breaks out, =XX back to its character.
    const body = (mail?.text ?? '').replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    const link = /https:\/\/localhost:\d+\/invitation#token=[A-Za-z0-9_-]+/.exec(body)?.[0];
    expect(link).toBe(invited.body.data.invitationLink);
    const member = await stack.dashboard.acceptInvitation(link ?? '', { memberId: invited.body.data.member.memberId, partnerId: partner.partnerId, email: 'mailed.member@partner.example', displayName: 'Mailed Member', role: 'finance' });
    expect((await (await member.signIn()).get('/api/v1/session')).body.data.member.role).toBe('finance');

    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    const unsent = await session.post('/api/v1/members', { email: 'unmailed.member@partner.example', displayName: 'Unmailed Member', role: 'support' });
    expect([unsent.status, unsent.body.data.emailed]).toEqual([201, false]);
    expect(unsent.body.data.invitationLink).toMatch(/\/invitation#token=/);
    // The dashboard's log line reaches the test through its output pipe a moment after the answer.
    for (let waited = 0; waited < 50 && !stack.logs().includes('invitation e-mail not sent'); waited += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stack.logs()).toContain('invitation e-mail not sent');
    const token = new URL(unsent.body.data.invitationLink as string).hash;
    expect(stack.logs()).not.toContain(token.slice('#token='.length));
    expect(stack.logs()).not.toContain(new URL(invited.body.data.invitationLink as string).hash.slice('#token='.length));
  });
});
