// npm run operator -- backoffice <command>: the operator CLI as a client of the back-office API,
// signed in as a person with a personal token (decision 0072), so every command runs with that
// person's current roles and four-eyes rules and is audited as theirs. The token comes from
// BACKOFFICE_TOKEN only, never an argument: arguments land in shell history and `ps`.
import { parseArgs } from 'node:util';
import { fourEyesCommands, fourEyesUsage } from './backoffice-commands/four-eyes-commands';
import { UsageError, type Command, type Values } from './backoffice-commands/command';
import { partnerCommands, partnerUsage } from './backoffice-commands/partner-commands';
import { readCommands, readUsage } from './backoffice-commands/read-commands';
import { BackofficeRefusal, backofficeClient, trustFor } from './lib/backoffice-client';
import type { Settings } from './lib/settings';

export const backofficeUsage = `Usage: npm run operator -- backoffice <command> [options] [--json]

The back-office API as you, with a personal token made in the console (My account, Personal tokens for the operator CLI):
your roles, the four-eyes rules and the audit log apply as in the console. The token is read from the environment only,
never from an argument (it would stay in shell history and ps):
  read -rs BACKOFFICE_TOKEN && export BACKOFFICE_TOKEN      (BACKOFFICE_URL: default the local stack's back-office)

${fourEyesUsage}
${partnerUsage}
${readUsage}
Amounts are major units with at most two decimals (12.50), sent as exact minor units.
--json prints the API's answer as JSON. Exit 0 done, 1 refused (the API's code and message), 2 bad usage.
`;

const commands: Record<string, Command> = { ...readCommands, ...fourEyesCommands, ...partnerCommands };

/** Runs `backoffice <command> ...` (args after "backoffice") and resolves the exit code. */
export async function runBackofficeCli(args: string[], settings: Settings, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(backofficeUsage);
    return 0;
  }
  const wantsJson = rest.includes('--json');
  try {
    const command = commands[name];
    // A token pasted in the command's place is not echoed back.
    if (!command) throw new UsageError(name.includes('pwabo_') ? 'unknown command (a token is never an argument: export BACKOFFICE_TOKEN)' : `unknown command ${JSON.stringify(name)}`);
    let parsed: { values: Values; positionals: string[] };
    try {
      const { values, positionals } = parseArgs({ args: rest, options: { ...command.options, json: { type: 'boolean' } }, allowPositionals: true, strict: true });
      parsed = { values: values, positionals };
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (parsed.positionals.length !== command.positionals) throw new UsageError(command.positionals === 0 ? `${name} takes no positional arguments` : `${name} takes exactly one id`);
    const token = env.BACKOFFICE_TOKEN?.trim();
    if (!token) throw new UsageError('BACKOFFICE_TOKEN is not set: make a personal token in the console and export it (never pass it as an argument)');
    if (!token.startsWith('pwabo_')) throw new UsageError('BACKOFFICE_TOKEN is not a personal token (they start with pwabo_)');
    const baseUrl = (env.BACKOFFICE_URL || settings.backoffice.publicUrl).replace(/\/+$/, '');
    if (!baseUrl.startsWith('https://')) throw new UsageError('BACKOFFICE_URL must be an https:// address');
    const ca = trustFor(baseUrl, settings.caCertFile);
    const output = await command.run(backofficeClient({ baseUrl, token, ...(ca ? { ca } : {}) }), parsed.values, parsed.positionals);
    process.stdout.write(wantsJson ? `${JSON.stringify(output.json, null, 2)}\n` : `${output.lines.join('\n')}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      if (wantsJson) process.stdout.write(`${JSON.stringify({ error: { code: 'USAGE', message: error.message } })}\n`);
      process.stderr.write(`${error.message}\n\n${backofficeUsage}`);
      return 2;
    }
    if (error instanceof BackofficeRefusal) {
      if (wantsJson) process.stdout.write(`${JSON.stringify({ error: { code: error.code, message: error.message, status: error.status } })}\n`);
      process.stderr.write(`Refused: ${error.code}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
