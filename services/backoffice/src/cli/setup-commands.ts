import type { Pool } from '@pwa/db';
import { OperatorUsageError, type OperatorCommandResult } from '@pwa/runtime/operator-cli';
import { bootstrapFirstAdmin, type BootstrapOutcome } from '../use-cases/bootstrap-first-admin';

export { OperatorUsageError };

export const setupUsage = `Usage: node services/backoffice/dist/cli/main.js <command> [options] [--json]

Set-up (runs against the back-office database directly: the one command that may, since no person can sign in yet)
  bootstrap-admin --email <address> --name <display name>
      creates the first admin as invited and prints a one-time set-up link (24 h) to set the password and MFA;
      run again before the link is used, it renews the link; refused once an admin can sign in

--json prints one JSON object per command.
`;

export interface SetupContext {
  pool: Pool;
  consoleBaseUrl: string;
}

const refusalMessages: Readonly<Record<Extract<BootstrapOutcome, { kind: 'refused' }>['reason'], string>> = {
  'an-admin-exists': 'An admin can sign in already: admins invite people in the console; bootstrap-admin is only for the first one',
  'another-admin-invited': 'Another admin was invited and has not finished set-up: run bootstrap-admin again with that address to renew their link',
  'not-an-email': '--email must be an e-mail address, e.g. musu.kollie@operator.example',
};

export async function runSetupCommand(context: SetupContext, command: string, args: string[], options: Record<string, string | undefined>): Promise<OperatorCommandResult> {
  if (command !== 'bootstrap-admin') throw new OperatorUsageError(`Unknown command: ${command}`);
  if (args.length > 0) throw new OperatorUsageError(`bootstrap-admin takes no positional arguments (got ${args.length})`);
  const email = options.email;
  const name = options.name?.trim();
  if (email === undefined) throw new OperatorUsageError('bootstrap-admin needs --email <address>');
  if (name === undefined || name.length === 0 || name.length > 100) throw new OperatorUsageError('bootstrap-admin needs --name <display name> (1 to 100 characters)');
  const outcome = await bootstrapFirstAdmin(context.pool, { email, displayName: name, consoleBaseUrl: context.consoleBaseUrl });
  if (outcome.kind === 'refused') {
    if (outcome.reason === 'not-an-email') throw new OperatorUsageError(refusalMessages[outcome.reason]);
    return { data: { error: refusalMessages[outcome.reason] }, text: `error: ${refusalMessages[outcome.reason]}`, exitCode: 1 };
  }
  const data = { outcome: outcome.kind, operatorId: outcome.operatorId, email: outcome.email, setupLink: outcome.setupLink, expiresAt: outcome.expiresAt.toISOString() };
  const text = [
    `${outcome.kind === 'created' ? 'Created' : 'Renewed the set-up link of'} the first admin ${outcome.email} (${outcome.operatorId}).`,
    `Open this link once, before ${data.expiresAt}, to set the password and enrol MFA (it is shown only now):`,
    `  ${outcome.setupLink}`,
  ].join('\n');
  return { data, text };
}
