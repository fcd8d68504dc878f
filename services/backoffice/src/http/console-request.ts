import { ConsoleError } from '@pwa/errors';

/** The string fields a console body must have; refused with CON_2001 naming them, never echoing values. */
export function stringFieldsOf<Name extends string>(body: unknown, names: readonly Name[], lengthMax = 1_000): Record<Name, string> {
  const record = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const wrong = names.filter((name) => typeof record[name] !== 'string' || record[name].length === 0 || record[name].length > lengthMax);
  if (wrong.length > 0) throw new ConsoleError('CON_2001', `Missing or invalid fields: ${wrong.join(', ')} (each a non-empty string of at most ${lengthMax} characters)`);
  return Object.fromEntries(names.map((name) => [name, record[name] as string])) as Record<Name, string>;
}
