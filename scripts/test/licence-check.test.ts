// eslint-disable-next-line @typescript-eslint/no-require-imports
const { expressionAllowed, licenceProblems } = require('../lib/licence-check') as {
  expressionAllowed: (expression: string, allowed: Set<string>) => boolean;
  licenceProblems: (sbom: unknown, policy: { allowed: string[]; ourOwn: string[]; reviewed: Record<string, string> }) => string[];
};

/** The licence check CI runs on the SBOM (scripts/check-licences.js): what passes and what is refused, and why. */
const policy = { allowed: ['MIT', 'Apache-2.0', 'ISC'], ourOwn: ['@pwa/'], reviewed: { 'odd@1.0.0': 'MIT: its LICENSE file' } };
const component = (name: string, version: string, licenses: unknown[] = [], components: unknown[] = []) => ({ name, version, licenses, components });

describe('the licence check of the SBOM', () => {
  test.each([
    ['MIT', true],
    ['(MIT OR GPL-3.0)', true],
    ['GPL-3.0 OR MIT', true],
    ['MIT AND Apache-2.0', true],
    ['MIT AND GPL-3.0', false],
    ['(MIT AND (ISC OR GPL-2.0))', true],
    ['GPL-2.0 WITH Classpath-exception-2.0', false],
    ['AGPL-3.0', false],
  ])('when a component carries %s, then allowed is %s', (expression, verdict) => {
    expect(expressionAllowed(expression, new Set(policy.allowed))).toBe(verdict);
  });

  test('when components, nested ones included, carry refused, missing or reviewed licences, then exactly the refused and unreviewed ones are named', () => {
    const sbom = {
      components: [
        component('left-pad', '1.3.0', [{ license: { id: 'MIT' } }], [component('copyleft', '2.0.0', [{ license: { id: 'GPL-3.0' } }])]),
        component('either', '1.0.0', [{ expression: '(MPL-2.0 OR Apache-2.0)' }]),
        component('nameless', '0.1.0'),
        component('odd', '1.0.0'),
        component('odd', '2.0.0'),
        { group: '@pwa', name: 'wallet', version: '0.1.0', licenses: [] },
      ],
    };
    expect(licenceProblems(sbom, policy)).toEqual([
      'copyleft@2.0.0: GPL-3.0 is not on the allow-list',
      'nameless@0.1.0: no licence in the SBOM (read its LICENSE file and list it under "reviewed")',
      'odd@2.0.0: no licence in the SBOM (read its LICENSE file and list it under "reviewed")',
    ]);
  });
});
