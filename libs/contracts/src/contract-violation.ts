import type { z } from 'zod';

/**
 * Raised when a message does not match its contract. Callers match on `code`, never on
 * `instanceof`, so the bus can tell a permanent contract failure (dead-letter it) from a
 * transient handler failure (retry it) even across package copies.
 */
export class ContractViolationError extends Error {
  readonly code = 'CONTRACT_VIOLATION';

  constructor(
    message: string,
    /** One line per problem, "path: message"; never the offending values, which may be personal data. */
    readonly problems: string[],
  ) {
    super(problems.length > 0 ? `${message}: ${problems.join('; ')}` : message);
    this.name = 'ContractViolationError';
  }

  static fromZodError(message: string, error: z.ZodError): ContractViolationError {
    const problems = error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    return new ContractViolationError(message, problems);
  }
}

export function isContractViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'CONTRACT_VIOLATION';
}
