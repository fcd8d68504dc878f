// Seeds the sandbox's documented test users and funds the sandbox partner through the wallet's
// operator CLI (`seed-sandbox`, idempotent: users are created once, the partner funded once), so a
// newcomer can quote at once. The wallet refuses this command in production.
import { asRecord } from './http';
import { runOperatorCliOrThrow } from './operator-cli';

export interface TestUser {
  phone: string;
  name: string;
  purpose: string;
}

/** Resolves the test users and the currencies the partner was funded in. */
export async function seedSandboxUsers({ partnerId, cliEnv }: { partnerId: string; cliEnv: NodeJS.ProcessEnv }): Promise<{ users: TestUser[]; funded: string[] }> {
  const seeded = await runOperatorCliOrThrow(['seed-sandbox', '--partner', partnerId], cliEnv);
  const users = (Array.isArray(seeded.users) ? (seeded.users as unknown[]) : []).map((entry) => {
    const user = asRecord(entry) ?? {};
    return { phone: String(user.phone), name: String(user.name), purpose: String(user.purpose) };
  });
  const funded = (Array.isArray(seeded.partnerFunding) ? (seeded.partnerFunding as unknown[]) : []).map((entry) => String(asRecord(entry)?.currency));
  return { users, funded };
}
