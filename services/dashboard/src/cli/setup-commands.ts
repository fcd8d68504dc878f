import os from 'node:os';
import { verifyAuditChain } from '@pwa/audit';
import { internal } from '@pwa/contracts';
import { OperatorUsageError, type OperatorCommandResult } from '@pwa/runtime/operator-cli';
import { firstAdminRefusalMessages, inviteFirstAdminOfPartner, type FirstAdminInvitationPorts } from '../use-cases/invite-first-admin';

export { OperatorUsageError };

export const setupUsage = `Usage: node services/dashboard/dist/cli/main.js <command> [options] [--json]

Set-up (the operator's step of onboarding; runs against the dashboard database directly, since nobody of the partner can sign in yet)
  invite-admin --partner-id <uuid> --email <address> --name <display name>
      invites the partner's first admin and prints a one-time invitation link (24 h) to set the password and MFA
      (also e-mailed to the address when DASHBOARD_SMTP_URL names a relay);
      run again before the link is used, it renews the link; refused once an admin of the partner can sign in

Audit log (read-only)
  verify-partner-audit-log
      walks the partner audit log's hash chain and names the first altered, removed or forged entry (exit 1)

--json prints one JSON object per command.
`;

/** The first admin's invitation's ports (the invitation mailed too when DASHBOARD_SMTP_URL is set; the link is printed all the same). */
export type SetupContext = FirstAdminInvitationPorts;


export async function runSetupCommand(context: SetupContext, command: string, args: string[], options: Record<string, string | undefined>): Promise<OperatorCommandResult> {
  if (args.length > 0) throw new OperatorUsageError(`${command} takes no positional arguments (got ${args.length})`);
  if (command === 'invite-admin') return inviteAdmin(context, options);
  if (command === 'verify-partner-audit-log') return verifyAuditLog(context);
  throw new OperatorUsageError(`Unknown command: ${command}`);
}

async function inviteAdmin(context: SetupContext, options: Record<string, string | undefined>): Promise<OperatorCommandResult> {
  const partnerId = options.partnerId?.toLowerCase();
  const email = options.email;
  const name = options.name?.trim();
  if (partnerId === undefined || !internal.isUuid(partnerId)) throw new OperatorUsageError('invite-admin needs --partner-id <uuid> (the partner id onboarding printed)');
  if (email === undefined) throw new OperatorUsageError('invite-admin needs --email <address>');
  if (name === undefined || name.length === 0 || name.length > 100) throw new OperatorUsageError('invite-admin needs --name <display name> (1 to 100 characters)');
  const outcome = await inviteFirstAdminOfPartner(context, { partnerId, email, displayName: name, operatorName: `operator ${os.userInfo().username} (dashboard set-up command)` });
  if (outcome.kind === 'refused') {
    if (outcome.reason === 'not-an-email') throw new OperatorUsageError('--email must be an e-mail address, e.g. finance.lead@partner.example');
    const message = firstAdminRefusalMessages[outcome.reason];
    return { data: { error: message }, text: `error: ${message}`, exitCode: 1 };
  }
  const emailed = outcome.emailed;
  const data = { outcome: outcome.kind, memberId: outcome.memberId, partnerId, email: outcome.email, invitationLink: outcome.invitationLink, expiresAt: outcome.expiresAt.toISOString(), emailed };
  const mailed = emailed === null ? 'Send them this link' : emailed ? 'It was e-mailed to them; here is the link too, in case it does not arrive' : 'The e-mail relay did not take the message: send them this link';
  const text = [
    `${outcome.kind === 'invited' ? 'Invited' : 'Renewed the invitation of'} ${outcome.email} as the first admin of partner ${partnerId}.`,
    `${mailed}; they open it once, before ${data.expiresAt}, to set a password and enrol MFA (it is shown only now):`,
    `  ${outcome.invitationLink}`,
  ].join('\n');
  return { data, text };
}

async function verifyAuditLog(context: SetupContext): Promise<OperatorCommandResult> {
  const verification = await verifyAuditChain(context.pool);
  if (verification.ok) return { data: verification, text: `The partner audit log holds: ${verification.entries} entries checked.` };
  return { data: verification, text: `The audit log is broken: ${verification.detail}`, exitCode: 1 };
}
