// Seeds the sandbox's documented test users and funds the sandbox partner through the wallet's
// operator CLI (`seed-sandbox`, idempotent: users are created once, the partner funded once), so a
// newcomer can quote at once. The wallet refuses this command in production.
'use strict';
const { runOperatorCliOrThrow } = require('./operator-cli');

/** Resolves { users: [{ phone, name, purpose }], funded: [currency] }. */
async function seedSandboxUsers({ partnerId, cliEnv }) {
  const seeded = await runOperatorCliOrThrow(['seed-sandbox', '--partner', partnerId], cliEnv);
  return {
    users: seeded.users.map((user) => ({ phone: user.phone, name: user.name, purpose: user.purpose })),
    funded: seeded.partnerFunding.map((funding) => funding.currency),
  };
}

module.exports = { seedSandboxUsers };
