/**
 * The set-up and break-glass rule of the service CLIs (decision 0073). A command that changes what
 * the back-office changes with people, roles, four eyes and an audit log (onboarding, a partner's
 * settings or secrets, a funding, a tier limit, a reversal, a fee) writes to its database directly,
 * so it is set-up (the sandbox, tests) or break-glass (an incident in production), and says so:
 * in production it runs only with `--break-glass "<incident and reason>"`, and every run names the
 * audited way. Pure: the runner prints the notice and refuses.
 */
export type DirectChangeGate = { kind: 'run'; notice: string | undefined } | { kind: 'refused'; message: string };

export interface DirectChangeCall {
  command: string;
  /**
   * The back-office command that makes the same change audited, for each direct one (`fund-partner`
   * → `request-funding`); null for a change the back-office has no page for yet (wallet users).
   */
  auditedWays: Readonly<Record<string, string | null>>;
  /** The text after --break-glass, when given. */
  breakGlassReason: string | undefined;
  /** ENVIRONMENT as the services read it (sandbox unless production). */
  environment: string | undefined;
  /** Who runs it, as the operating system names them. */
  osUser: string;
}

export const breakGlassOption = 'break-glass';
const reasonLengthMin = 10;

export function directChangeGate(call: DirectChangeCall): DirectChangeGate {
  const auditedWay = call.auditedWays[call.command];
  if (auditedWay === undefined) return { kind: 'run', notice: undefined };
  const backofficeCommand = auditedWay === null ? undefined : `npm run operator -- backoffice ${auditedWay} (people, roles, four eyes, audit log)`;
  const audited = backofficeCommand === undefined ? 'the back-office has no command for it yet: record the change in its ticket' : `the audited way is: ${backofficeCommand}`;
  const reason = call.breakGlassReason?.trim();
  if (call.environment === 'production') {
    if (reason === undefined || reason.length < reasonLengthMin) {
      const instead = backofficeCommand === undefined ? 'The back-office has no command for it yet: ' : `Use ${backofficeCommand}; or, `;
      return {
        kind: 'refused',
        message:
          `${call.command} writes to the database directly, past the back-office's roles, four eyes and audit log: in production it is break-glass only. ` +
          `${instead}during a declared incident or a recorded change, add --${breakGlassOption} "<ticket id and reason, at least ${reasonLengthMin} characters>" (docs/operations.md, Break-glass).`,
      };
    }
    return { kind: 'run', notice: `BREAK-GLASS by ${call.osUser}: ${call.command} writes to the database directly, with no four eyes and no back-office audit entry (reason: ${reason}); ${audited}. Record it in the incident.` };
  }
  return { kind: 'run', notice: `set-up (${call.environment ?? 'sandbox'}): ${call.command} writes to the database directly, with no four eyes and no back-office audit entry; ${audited}.` };
}

/** The usage text's section on these commands, under each CLI's own usage. */
export function directChangesUsage(auditedWays: Readonly<Record<string, string | null>> | undefined): string {
  const entries = Object.entries(auditedWays ?? {});
  if (entries.length === 0) return '';
  const width = Math.max(...entries.map(([command]) => command.length));
  return [
    '',
    'Set-up and break-glass (these write to the database directly: no four eyes, no back-office audit entry).',
    'The audited way for each is the back-office (console, or npm run operator -- backoffice <command> with a personal token):',
    ...entries.map(([command, auditedWay]) => `  ${command.padEnd(width)}  ->  ${auditedWay === null ? '(no back-office command yet)' : `backoffice ${auditedWay}`}`),
    `In production they run only with --${breakGlassOption} "<incident id and reason>" (docs/operations.md, Break-glass).`,
    '',
  ].join('\n');
}
