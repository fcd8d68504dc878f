import { commonPasswords } from './common-passwords';

/** Lengths count Unicode code points after NFKC normalisation (NIST SP 800-63B 5.1.1.2). */
export const passwordLengthMin = 12;
export const passwordLengthMax = 256;

/** The rule a refused password broke, in the order they are checked. */
export type PasswordRule = 'too_short' | 'too_long' | 'same_as_identifier' | 'common_password';

export type PasswordPolicyResult = { acceptable: true } | { acceptable: false; failedRule: PasswordRule };

/** What a console tells a person whose new password breaks a rule (CON_1007's message). */
export const passwordRuleMessages: Readonly<Record<PasswordRule, string>> = {
  too_short: 'The password must have at least 12 characters',
  too_long: 'The password must have at most 256 characters',
  same_as_identifier: 'The password must not be your e-mail address or name',
  common_password: 'The password is one of the most common ones: choose another',
};

export interface PasswordContext {
  /** What the person signs in with or is known by: the email, a username. */
  identifiers: readonly string[];
}

/** The form a password is hashed and compared in: NFKC, so visually equal input is equal. */
export function normalisePassword(password: string): string {
  return password.normalize('NFKC');
}

/**
 * Checks a new password (at enrolment, reset and change) against the policy: 12 to 256
 * characters, not the person's email, its local part or username (case-insensitive), and not one
 * of the most common passwords. No composition rules (NIST SP 800-63B): length does the work.
 * Answers the first rule broken, to show the person; the password itself is never echoed.
 */
export function checkPasswordPolicy(password: string, context: PasswordContext): PasswordPolicyResult {
  const normalised = normalisePassword(password);
  const length = [...normalised].length;
  if (length < passwordLengthMin) return { acceptable: false, failedRule: 'too_short' };
  if (length > passwordLengthMax) return { acceptable: false, failedRule: 'too_long' };
  const folded = normalised.toLowerCase();
  if (identifierFormsOf(context.identifiers).has(folded)) return { acceptable: false, failedRule: 'same_as_identifier' };
  if (commonPasswords.has(folded)) return { acceptable: false, failedRule: 'common_password' };
  return { acceptable: true };
}

/** Each identifier in lower case, and for an email also its local part. */
function identifierFormsOf(identifiers: readonly string[]): Set<string> {
  const forms = new Set<string>();
  for (const identifier of identifiers) {
    const folded = identifier.normalize('NFKC').trim().toLowerCase();
    if (folded === '') continue;
    forms.add(folded);
    const at = folded.lastIndexOf('@');
    if (at > 0) forms.add(folded.slice(0, at));
  }
  return forms;
}
