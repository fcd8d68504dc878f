import { directChangeGate, type DirectChangeCall } from '../../src/direct-change-gate';

const call = (overrides: Partial<DirectChangeCall>): DirectChangeCall => ({
  command: 'fund-partner',
  auditedWays: { 'fund-partner': 'request-funding' },
  breakGlassReason: undefined,
  environment: 'sandbox',
  osUser: 'ops',
  ...overrides,
});

describe('the set-up and break-glass gate of the service CLIs', () => {
  test('when a command is no direct change (a read, a sandbox tool), then it runs with no notice in any environment', () => {
    expect(directChangeGate(call({ command: 'show-balances', environment: 'production' }))).toEqual({ kind: 'run', notice: undefined });
    expect(directChangeGate(call({ command: 'show-balances' }))).toEqual({ kind: 'run', notice: undefined });
  });

  test('when a direct change runs in the sandbox, then it runs as set-up and names the audited command', () => {
    const gate = directChangeGate(call({}));
    expect(gate).toEqual({ kind: 'run', notice: expect.stringContaining('set-up (sandbox): fund-partner writes to the database directly') });
    expect(gate.kind === 'run' && gate.notice).toContain('npm run operator -- backoffice request-funding');
  });

  test('when a direct change runs in production without a reason, or with one too short to say anything, then it is refused, naming the audited command and --break-glass', () => {
    for (const breakGlassReason of [undefined, '', '   ', 'urgent']) {
      const gate = directChangeGate(call({ environment: 'production', breakGlassReason }));
      expect(gate.kind).toBe('refused');
      expect(gate.kind === 'refused' && gate.message).toMatch(/break-glass only.*backoffice request-funding.*--break-glass/);
    }
  });

  test('when a direct change runs in production with --break-glass and a reason, then it runs, and the notice says break-glass, who and why', () => {
    expect(directChangeGate(call({ environment: 'production', breakGlassReason: ' INC-42 back-office down ', osUser: 'dba.kollie' }))).toEqual({
      kind: 'run',
      notice: expect.stringMatching(/^BREAK-GLASS by dba\.kollie: fund-partner .*\(reason: INC-42 back-office down\).*backoffice request-funding/),
    });
  });

  test('when a direct change has no back-office command yet (wallet users), then production still needs --break-glass and the message says there is no audited way yet', () => {
    const ways = { 'create-user': null };
    const refused = directChangeGate(call({ command: 'create-user', auditedWays: ways, environment: 'production' }));
    expect(refused).toEqual({ kind: 'refused', message: expect.stringContaining('The back-office has no command for it yet') });
    expect(directChangeGate(call({ command: 'create-user', auditedWays: ways }))).toEqual({ kind: 'run', notice: expect.stringContaining('record the change in its ticket') });
    expect(directChangeGate(call({ command: 'create-user', auditedWays: ways, environment: 'production', breakGlassReason: 'CHG-77 KYC migration batch' }))).toMatchObject({ kind: 'run' });
  });
});
