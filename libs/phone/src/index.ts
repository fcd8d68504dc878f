/**
 * Liberian mobile numbers (ITU-T E.164, country code 231). Decision (docs/decisions): a mobile
 * number has a 9-digit national significant number on one of the mobile-money networks:
 * 77 (Orange Liberia), 88 (Lonestar Cell MTN) or 55 (Lonestar Cell MTN's second range), followed
 * by 7 digits. The API accepts it in the two forms the spec names, local with the trunk prefix 0
 * (0770123456) and international with the country code (+231770123456); spaces and hyphens between
 * digits are ignored. Every other form (no prefix, 00231, 231 without +, landline and short codes)
 * is refused. Numbers are stored and returned as +231XXXXXXXXX.
 */
export const liberianMobilePrefixes = ['77', '88', '55'] as const;

/** The accepted forms in words, as a refusal of a phone says what to send (issue 29). */
export const liberianPhoneForms =
  'a Liberian mobile number, 0 and 9 digits starting with 77, 88 or 55 (0770123456) or +231 and the same 9 digits (+231770123456); spaces and hyphens are ignored';

const nationalNumber = /^(77|88|55)\d{7}$/;
const separators = /[\s-]/g;
const allowedCharacters = /^\+?[\d\s-]+$/;

/** The +231 form of a valid Liberian mobile number, or undefined when the input is not one. */
export function normaliseLiberianPhone(input: unknown): string | undefined {
  if (typeof input !== 'string' || input.length > 32 || !allowedCharacters.test(input)) return undefined;
  const compact = input.trim().replace(separators, '');
  let national: string;
  if (compact.startsWith('+231')) national = compact.slice(4);
  else if (compact.startsWith('0')) national = compact.slice(1);
  else return undefined;
  return nationalNumber.test(national) ? `+231${national}` : undefined;
}
