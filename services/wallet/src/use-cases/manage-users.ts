import { randomUUID } from 'node:crypto';
import { withTransaction, type Pool, type PoolClient } from '@pwa/db';
import { majorUnitsText, type Currency } from '@pwa/money';
import type { AccountStatus, KycStatus, Tier, User, WalletStatus } from '../domain/user';
import { lockAccounts } from '../store/account-store';
import {
  closedWalletsOfUser,
  closeWallet,
  findUserByPhone,
  insertUser,
  insertWallet,
  lockUserByPhone,
  reopenWallet,
  updateUserProfile,
  updateWalletStatus,
  walletsOfUser,
} from '../store/user-store';
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
  /** Closes these wallets; each must hold nothing. One closed already is left as it is. */
  closeWallets?: Currency[];
  /** Reopens these closed wallets (active, on the same ledger account); an open one is left as it is. */
  reopenWallets?: Currency[];
}

/** A user as the operator sees them: the open wallets and those closed. */
export interface OperatorUser extends User {
  closedWallets: { currency: Currency; closedAt: Date }[];
}

/** Applies the operator's change under the user's row lock, all or nothing. */
export async function changeUser(pool: Pool, phone: string, change: UserChange): Promise<OperatorUser> {
  const freeze = change.freeze ?? [];
  const unfreeze = change.unfreeze ?? [];
  const close = change.closeWallets ?? [];
  const reopen = change.reopenWallets ?? [];
  refuseOverlap('freeze and unfreeze', freeze, unfreeze);
  refuseOverlap('close and reopen', close, reopen);
  refuseOverlap('close and change', close, [...freeze, ...unfreeze, ...(change.addCurrencies ?? [])]);
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
    await reopenWallets(client, user.userId, phone, reopen);
    await openWallets(client, user, change.addCurrencies ?? [], 'refuse');
    await setWalletStatuses(client, user.userId, phone, freeze, 'frozen');
    await setWalletStatuses(client, user.userId, phone, unfreeze, 'active');
    await closeEmptyWallets(client, user.userId, phone, close);
  });
  return showUser(pool, phone);
}

function refuseOverlap(what: string, first: readonly Currency[], second: readonly Currency[]): void {
  const both = first.filter((currency) => second.includes(currency));
  if (both.length > 0) throw new OperatorRefusal(`Cannot ${what} ${both.join(', ')} at once`);
}

async function closedCurrencies(client: PoolClient, userId: string): Promise<Set<Currency>> {
  return new Set((await closedWalletsOfUser(client, userId)).map((wallet) => wallet.currency));
}

/**
 * Opens the wallets the user lacks. A closed one cannot be opened anew (its ledger account is kept
 * for it): the operator's change refuses it by name, the sandbox seed reopens it.
 */
async function openWallets(client: PoolClient, user: { userId: string; phone: string }, currencies: readonly Currency[], whenClosed: 'refuse' | 'reopen'): Promise<void> {
  const existing = new Set((await walletsOfUser(client, user.userId)).map((wallet) => wallet.currency));
  const closed = await closedCurrencies(client, user.userId);
  for (const currency of currencies) {
    if (existing.has(currency)) continue;
    if (!closed.has(currency)) await insertWallet(client, user.userId, currency, 'active');
    else if (whenClosed === 'reopen') await reopenWallet(client, user.userId, currency);
    else throw new OperatorRefusal(`The ${currency} wallet of ${user.phone} is closed; reopen it with --reopen-wallet ${currency}`);
  }
}

async function setWalletStatuses(client: PoolClient, userId: string, phone: string, currencies: readonly Currency[], status: WalletStatus): Promise<void> {
  const existing = new Set((await walletsOfUser(client, userId)).map((wallet) => wallet.currency));
  const closed = await closedCurrencies(client, userId);
  for (const currency of currencies) {
    if (closed.has(currency)) throw new OperatorRefusal(`The ${currency} wallet of ${phone} is closed; reopen it with --reopen-wallet ${currency} first`);
    if (!existing.has(currency)) throw new OperatorRefusal(`${phone} has no ${currency} wallet`);
    await updateWalletStatus(client, userId, currency, status);
  }
}

async function reopenWallets(client: PoolClient, userId: string, phone: string, currencies: readonly Currency[]): Promise<void> {
  const existing = new Set((await walletsOfUser(client, userId)).map((wallet) => wallet.currency));
  const closed = await closedCurrencies(client, userId);
  for (const currency of currencies) {
    if (existing.has(currency)) continue;
    if (!closed.has(currency)) throw new OperatorRefusal(`${phone} has no ${currency} wallet to reopen (open a new one with --add-currency ${currency})`);
    await reopenWallet(client, userId, currency);
  }
}

/**
 * Closes wallets that hold nothing. The user's lock (held by the caller) keeps postings of this
 * user out; the account's lock and its balance read here make the zero-balance check exact. A
 * wallet with money is refused: closed, its money could neither be paid out nor collected.
 */
async function closeEmptyWallets(client: PoolClient, userId: string, phone: string, currencies: readonly Currency[]): Promise<void> {
  const wallets = await walletsOfUser(client, userId);
  const closed = await closedCurrencies(client, userId);
  for (const currency of currencies) {
    if (closed.has(currency)) continue;
    const wallet = wallets.find((candidate) => candidate.currency === currency);
    if (!wallet) throw new OperatorRefusal(`${phone} has no ${currency} wallet`);
    const balanceMinor = (await lockAccounts(client, [wallet.accountId])).get(wallet.accountId) ?? 0n;
    if (balanceMinor !== 0n) {
      throw new OperatorRefusal(
        `Cannot close the ${currency} wallet of ${phone}: it holds ${majorUnitsText(balanceMinor)} ${currency}. ` +
          'A closed wallet can neither pay nor be paid, so its money would be stuck; move it out first (freeze the wallet meanwhile with --freeze).',
      );
    }
    await closeWallet(client, userId, currency);
  }
}

export async function showUser(pool: Pool, phone: string): Promise<OperatorUser> {
  const user = await findUserByPhone(pool, phone);
  if (!user) throw new OperatorRefusal(`No user with phone ${phone}`);
  const closedWallets = (await closedWalletsOfUser(pool, user.userId)).map(({ currency, closedAt }) => ({ currency, closedAt }));
  return { ...user, closedWallets };
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
    await openWallets(client, user, desired.wallets.map((wallet) => wallet.currency), 'reopen');
    for (const wallet of desired.wallets) await updateWalletStatus(client, user.userId, wallet.currency, wallet.status);
    return inserted;
  });
  return { user: await showUser(pool, desired.phone), created };
}
