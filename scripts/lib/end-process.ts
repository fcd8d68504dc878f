// The one way the scripts end their own process with a code (bound once, like exitProcess in
// libs/runtime for the services).

/** Ends this process at once with the given code. */
export const endProcess: (code?: number) => never = process.exit.bind(process);
