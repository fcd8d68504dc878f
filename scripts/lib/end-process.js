// The one way the scripts end their own process with a code (bound once, like exitProcess in
// libs/runtime for the services).
'use strict';

/** Ends this process at once with the given code. */
const endProcess = process.exit.bind(process);

module.exports = { endProcess };
