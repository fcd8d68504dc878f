/*
 * The character rule for every text a client sends (body strings, field names, query values, path
 * parameters): no control characters (C0 with NUL, DEL, C1) and no lone surrogates. PostgreSQL
 * refuses NUL in text and lone surrogates cannot be encoded as UTF-8, so such text must be refused
 * at the door, before anything is stored or consumed; the other control characters have no place
 * in an identifier or a note and would reach logs, webhooks and statements as they are.
 */

/** \p{Cc} is exactly U+0000–U+001F, U+007F and U+0080–U+009F; with the u flag \p{Cs} matches only unpaired surrogates. */
const unsafeCharacter = /[\p{Cc}\p{Cs}]/u;
const controlCharacter = /\p{Cc}/u;

export type TextProblem = 'control_character' | 'lone_surrogate';

/** What is wrong with a text under the character rule, or undefined when it is acceptable. */
export function textProblemOf(text: string): TextProblem | undefined {
  if (!unsafeCharacter.test(text)) return undefined;
  return controlCharacter.test(text) ? 'control_character' : 'lone_surrogate';
}

export const textProblemDescriptions: Readonly<Record<TextProblem, string>> = {
  control_character: 'contains a control character',
  lone_surrogate: 'contains a lone surrogate (not valid Unicode)',
};

export interface UnsafeText {
  /** Where in the value: `note`, `items[2].name`; `(body)` for the value itself. */
  path: string;
  /** Whether the field's value or its name broke the rule. */
  part: 'value' | 'name';
  problem: TextProblem;
}

/**
 * The first string (value or object key) in a parsed JSON value that breaks the character rule.
 * Iterative, so no nesting depth can exhaust the stack (the body's depth is bounded anyway).
 */
export function findUnsafeText(value: unknown): UnsafeText | undefined {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: current, path } = next;
    if (typeof current === 'string') {
      const problem = textProblemOf(current);
      if (problem) return { path: path || '(body)', part: 'value', problem };
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push({ value: item, path: `${path}[${index}]` }));
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        const keyPath = path === '' ? key : `${path}.${key}`;
        const problem = textProblemOf(key);
        if (problem) return { path: path || '(body)', part: 'name', problem };
        pending.push({ value: item, path: keyPath });
      }
    }
  }
  return undefined;
}
