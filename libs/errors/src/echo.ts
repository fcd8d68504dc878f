/** How many characters of a client's input an error message repeats back at most. */
export const echoedInputLengthMax = 64;

/**
 * A client's input as an error message may repeat it: at most `echoedInputLengthMax` characters
 * (code points, so a surrogate pair is never split), then "…" when there was more. A message
 * names what it refused without carrying a 4,000-character value back (and into logs) in full.
 */
export function echoInput(value: string, lengthMax: number = echoedInputLengthMax): string {
  const characters = Array.from(value.length > lengthMax * 2 + 2 ? value.slice(0, lengthMax * 2 + 2) : value);
  if (characters.length <= lengthMax) return characters.join('');
  return `${characters.slice(0, lengthMax).join('')}…`;
}
