import { randomBytes } from 'node:crypto';
import { runOperatorCli } from '../../scripts/lib/operator-cli';
import { repoRoot } from '../../scripts/lib/settings';
import type { LocalStack, StartedBackoffice } from '../../scripts/lib/stack';
import { ConsoleHttpsClient } from './https-client';
import { ReusedSessions } from './reused-sessions';
import { currentTotpStep, spkiSha256Of, totpCodeOfStep, totpCodes } from './totp-person';

export type MemberRole = 'admin' | 'developer' | 'finance' | 'support';

/** A partner's team member who accepted their invitation (password and TOTP), ready to sign in. */
export interface SeededMember {
  memberId: string;
  partnerId: string;
  email: string;
  displayName: string;
  role: MemberRole;
  password: string;
  totpSecretBase32: string;
  /** A TOTP code this member has never used (each 30 s step works once; see totp-person.ts). */
  nextTotpCode(): Promise<string>;
  /** Signs in through the dashboard API (password, then a fresh code); the client holds the session cookie and CSRF token. */
  signIn(): Promise<ConsoleHttpsClient>;
}

export interface DashboardProcess {
  /** https://localhost:<port>: what a browser opens. */
  baseUrl: string;
  port: number;
  /** Its internal listener (plain HTTP): the probes, /metrics and the back-office's first-admin invitations. */
  internalUrl: string;
  certificatePem: string;
  /** Chromium flags that make it trust the stack's certificate for this dashboard. */
  chromiumArgs: string[];
  client(): ConsoleHttpsClient;
  /** The dashboard's set-up CLI (invite-admin, verify-partner-audit-log) against this stack. */
  setupCli(args: string[]): Promise<{ exitCode: number | null; json: Record<string, unknown> | undefined; output: string }>;
  /** Accepts an invitation link through the API as the invited person would in the page. */
  acceptInvitation(invitationLink: string, person: { memberId: string; partnerId: string; email: string; displayName: string; role: MemberRole }): Promise<SeededMember>;
  /** The partner's first admin: invited by the set-up CLI, invitation accepted. */
  seedAdmin(partnerId: string, name?: string): Promise<SeededMember>;
  /** A member invited by `invitedBy` (an admin of the partner) through the API, invitation accepted. */
  seedMember(invitedBy: SeededMember, role: MemberRole, name?: string): Promise<SeededMember>;
  /** The member's kept session (signed in once, then reused; see reused-sessions.ts), for calls that are not about signing in. */
  sessionOf(member: SeededMember): Promise<ConsoleHttpsClient>;
}

const emailOf = (name: string): string => `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}.${randomBytes(4).toString('hex')}@partner.example`;

export function dashboardProcess(local: LocalStack, started: StartedBackoffice, certificatePem: string, clients: ConsoleHttpsClient[], timeoutMs: number): DashboardProcess {
  const keptSessions = new ReusedSessions<SeededMember>();
  const client = (): ConsoleHttpsClient => {
    const made = new ConsoleHttpsClient({ port: started.port, certificatePem, publicUrl: started.publicUrl });
    clients.push(made);
    return made;
  };

  const setupCli: DashboardProcess['setupCli'] = async (args) => {
    const result = await runOperatorCli(args, local.dashboardSetupEnvironment({ publicUrl: started.publicUrl }), { cwd: repoRoot, timeoutMs });
    const json = typeof result.json === 'object' && result.json !== null && !Array.isArray(result.json) ? (result.json as Record<string, unknown>) : undefined;
    return { exitCode: result.exitCode, json, output: `${result.stdout}${result.stderr}` };
  };

  const acceptInvitation: DashboardProcess['acceptInvitation'] = async (invitationLink, person) => {
    const token = new URL(invitationLink).hash.replace(/^#token=/, '');
    const browser = client();
    const begun = await browser.post('/api/v1/invitation/begin', { token });
    if (begun.status !== 200) throw new Error(`invitation begin answered ${begun.status}: ${begun.text}`);
    const data = begun.body.data as { secretBase32: string; enrolment: string };
    const password = `${person.displayName} keeps a long passphrase ${randomBytes(6).toString('hex')}`;
    const enrolledStep = currentTotpStep();
    const completed = await browser.post('/api/v1/invitation/complete', { token, password, enrolment: data.enrolment, code: totpCodeOfStep(data.secretBase32, enrolledStep) });
    if (completed.status !== 201) throw new Error(`invitation complete answered ${completed.status}: ${completed.text}`);
    const nextTotpCode = totpCodes(data.secretBase32, enrolledStep);
    return {
      ...person,
      password,
      totpSecretBase32: data.secretBase32,
      nextTotpCode,
      signIn: async () => {
        const session = client();
        const passwordStep = await session.post('/api/v1/session', { email: person.email, password });
        if (passwordStep.status !== 202) throw new Error(`sign-in of ${person.email} answered ${passwordStep.status}: ${passwordStep.text}`);
        const mfa = await session.post('/api/v1/session/mfa', { code: await nextTotpCode() });
        if (mfa.status !== 200) throw new Error(`sign-in code of ${person.email} answered ${mfa.status}: ${mfa.text}`);
        return session;
      },
    };
  };

  const seedAdmin: DashboardProcess['seedAdmin'] = async (partnerId, name = 'Partner Admin') => {
    const email = emailOf(name);
    const invited = await setupCli(['invite-admin', '--partner-id', partnerId, '--email', email, '--name', name]);
    if (invited.exitCode !== 0 || invited.json === undefined) throw new Error(`invite-admin failed (${String(invited.exitCode)}): ${invited.output}`);
    const json = invited.json as { memberId: string; invitationLink: string };
    return acceptInvitation(json.invitationLink, { memberId: json.memberId, partnerId, email, displayName: name, role: 'admin' });
  };

  const seedMember: DashboardProcess['seedMember'] = async (invitedBy, role, name = `Partner ${role}`) => {
    const email = emailOf(name);
    // Within DASHBOARD_FRESH_MFA_MINUTES of its sign-in, the admin's session invites without a new code.
    const invited = await keptSessions.post(invitedBy, '/api/v1/members', { email, displayName: name, role });
    if (invited.status !== 201) throw new Error(`invitation of ${email} answered ${invited.status}: ${invited.text}`);
    const data = invited.body.data as { member: { memberId: string }; invitationLink: string };
    return acceptInvitation(data.invitationLink, { memberId: data.member.memberId, partnerId: invitedBy.partnerId, email, displayName: name, role });
  };

  return {
    baseUrl: started.publicUrl,
    port: started.port,
    internalUrl: started.internalUrl ?? started.probeUrl,
    certificatePem,
    chromiumArgs: [`--ignore-certificate-errors-spki-list=${spkiSha256Of(certificatePem)}`],
    client,
    setupCli,
    acceptInvitation,
    seedAdmin,
    seedMember,
    sessionOf: (member) => keptSessions.session(member),
  };
}
