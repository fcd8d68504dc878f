import { randomUUID } from 'node:crypto';
import { withTransaction, type Pool, type PoolClient } from '@pwa/db';
import type { Currency } from '@pwa/money';
import type { AccountStatus, KycStatus, Tier, User, WalletStatus } from '../domain/user';
import { findUserByPhone, insertUser, insertWallet, lockUserByPhone, updateUserProfile, updateWalletStatus, walletsOfUser } from '../store/user-store';
import { OperatorRefusal } from './operator-refusal';

export interface NewUserRequest {
  /** In the +231 form. */
  phone: string;
  name: string;
  accountStatus: AccountStatus;
  kycStatus: KycStatus;
  tier: Tier;
  currencies: Currency[];
}

export async function createUser(pool: Pool, request: NewUserRequest): Promise<User> {
  await withTransaction(pool, async (client) => {
    const inserted = await insertUser(client, { userId: randomUUID(), ...request });
    if (!inserted) throw new OperatorRefusal(`A user with phone ${request.phone} exists already`);
    const user = await lockUserByPhone(client, request.phone);
    if (!user) throw new Error('the new user cannot be read');
    for (const currency of request.currencies) await insertWallet(client, user.userId, currency, 'active');
  });
  return showUser(pool, request.phone);
}

export interface UserChange {
  name?: string | undefined;
  accountStatus?: AccountStatus | undefined;
  kycStatus?: KycStatus | undefined;
  tier?: Tier | undefined;
  freeze?: Currency[];
  unfreeze?: Currency[];
  /** Opens these wallets (active); a wallet that exists already is left as it is. */
  addCurrencies?: Currency[];
}

/** Applies the operator's change under the user's row lock, all or nothing. */
export async function changeUser(pool: Pool, phone: string, change: UserChange): Promise<User> {
  const freeze = change.freeze ?? [];
  const unfreeze = change.unfreeze ?? [];
  const both = freeze.filter((currency) => unfreeze.includes(currency));
  if (both.length > 0) throw new OperatorRefusal(`Cannot freeze and unfreeze ${both.join(', ')} at once`);
  await withTransaction(pool, async (client) => {
    const user = await lockUserByPhone(client, phone);
    if (!user) throw new OperatorRefusal(`No user with phone ${phone}`);
    await updateUserProfile(client, {
      userId: user.userId,
      phone: user.phone,
      name: change.name ?? user.name,
      accountStatus: change.accountStatus ?? user.accountStatus,
      kycStatus: change.kycStatus ?? user.kycStatus,
      tier: change.tier ?? user.tier,
    });
    await openWallets(client, user.userId, change.addCurrencies ?? []);
    await setWalletStatuses(client, user.userId, phone, freeze, 'frozen');
    await setWalletStatuses(client, user.userId, phone, unfreeze, 'active');
  });
  return showUser(pool, phone);
}

async function openWallets(client: PoolClient, userId: string, currencies: readonly Currency[]): Promise<void> {
  const existing = new Set((await walletsOfUser(client, userId)).map((wallet) => wallet.currency));
  for (const currency of currencies) if (!existing.has(currency)) await insertWallet(client, userId, currency, 'active');
}

async function setWalletStatuses(client: PoolClient, userId: string, phone: string, currencies: readonly Currency[], status: WalletStatus): Promise<void> {
  const existing = new Set((await walletsOfUser(client, userId)).map((wallet) => wallet.currency));
  for (const currency of currencies) {
    if (!existing.has(currency)) throw new OperatorRefusal(`${phone} has no ${currency} wallet`);
    await updateWalletStatus(client, userId, currency, status);
  }
}

export async function showUser(pool: Pool, phone: string): Promise<User> {
  const user = await findUserByPhone(pool, phone);
  if (!user) throw new OperatorRefusal(`No user with phone ${phone}`);
  return user;
}

export interface DesiredUser extends Omit<NewUserRequest, 'currencies'> {
  wallets: { currency: Currency; status: WalletStatus }[];
}

/** Creates the user or brings an existing one back to the desired profile and wallet statuses (the sandbox seed). */
export async function ensureUser(pool: Pool, desired: DesiredUser): Promise<{ user: User; created: boolean }> {
  const created = await withTransaction(pool, async (client) => {
    const inserted = await insertUser(client, { userId: randomUUID(), ...desired });
    const user = await lockUserByPhone(client, desired.phone);
    if (!user) throw new Error(`user ${desired.phone} cannot be read`);
    await updateUserProfile(client, { ...desired, userId: user.userId });
    await openWallets(client, user.userId, desired.wallets.map((wallet) => wallet.currency));
    for (const wallet of desired.wallets) await updateWalletStatus(client, user.userId, wallet.currency, wallet.status);
    return inserted;
  });
  return { user: await showUser(pool, desired.phone), created };
}
