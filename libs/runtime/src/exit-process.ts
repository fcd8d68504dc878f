/**
 * Ends the process with the code: the one place a service process (its signal handling, its
 * migrate-only entry) decides to exit, so tests and readers find every exit here.
 */
export const exitProcess: (code: number) => never = process.exit.bind(process);
