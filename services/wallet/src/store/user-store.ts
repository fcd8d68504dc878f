import { minorFromDatabase, type Currency } from '@pwa/money';
import type { PoolClient, Queryable } from '@pwa/db';
import type { AccountStatus, KycStatus, Tier, User, Wallet, WalletStatus } from '../domain/user';

interface UserRow {
  user_id: string;
  phone: string;
  name: string;
  account_status: AccountStatus;
  kyc_status: KycStatus;
  tier: Tier;
}

interface WalletRow {
  user_id: string;
  currency: Currency;
  status: WalletStatus;
  account_id: string;
  balance_minor: string;
}

/** A wallet with the ledger account behind it. */
export interface WalletAccount extends Wallet {
  accountId: string;
}

const userColumns = 'user_id, phone, name, account_status, kyc_status, tier';

function toUser(row: UserRow, wallets: Wallet[]): User {
  return {
    userId: row.user_id,
    phone: row.phone,
    name: row.name,
    accountStatus: row.account_status,
    kycStatus: row.kyc_status,
    tier: row.tier,
    wallets,
  };
}

function toWalletAccount(row: WalletRow): WalletAccount {
  return { currency: row.currency, status: row.status, balanceMinor: minorFromDatabase(row.balance_minor), accountId: row.account_id };
}

export async function findUserByPhone(db: Queryable, phone: string): Promise<User | undefined> {
  const result = await db.query<UserRow>(`SELECT ${userColumns} FROM users WHERE phone = $1`, [phone]);
  const row = result.rows[0];
  return row ? withWallets(db, row) : undefined;
}

async function withWallets(db: Queryable, row: UserRow): Promise<User> {
  const wallets = await walletsOfUser(db, row.user_id);
  return toUser(row, wallets.map(({ currency, status, balanceMinor }) => ({ currency, status, balanceMinor })));
}

/**
 * Locks the user's row for the rest of the caller's transaction. Every posting that touches a user
 * takes this lock first, so postings of one user (and the limit budget they consume) happen one at
 * a time; ledger account rows are locked only after it.
 */
export async function lockUserByPhone(client: PoolClient, phone: string): Promise<User | undefined> {
  const result = await client.query<UserRow>(`SELECT ${userColumns} FROM users WHERE phone = $1 FOR UPDATE`, [phone]);
  const row = result.rows[0];
  return row ? toUser(row, []) : undefined;
}

/** lockUserByPhone for a caller that knows the user by id (the operator's reversal, from the disbursement's transfer). */
export async function lockUserById(client: PoolClient, userId: string): Promise<User | undefined> {
  const result = await client.query<UserRow>(`SELECT ${userColumns} FROM users WHERE user_id = $1 FOR UPDATE`, [userId]);
  const row = result.rows[0];
  return row ? toUser(row, []) : undefined;
}

export async function walletsOfUser(db: Queryable, userId: string): Promise<WalletAccount[]> {
  const result = await db.query<WalletRow>(
    `SELECT w.user_id, w.currency, w.status, w.account_id, a.balance_minor
       FROM wallets w JOIN ledger_accounts a ON a.account_id = w.account_id
      WHERE w.user_id = $1
      ORDER BY w.currency`,
    [userId],
  );
  return result.rows.map(toWalletAccount);
}

export async function findWalletAccount(db: Queryable, userId: string, currency: Currency): Promise<WalletAccount | undefined> {
  const wallets = await walletsOfUser(db, userId);
  return wallets.find((wallet) => wallet.currency === currency);
}

export interface NewUser {
  userId: string;
  phone: string;
  name: string;
  accountStatus: AccountStatus;
  kycStatus: KycStatus;
  tier: Tier;
}

/** Inserts the user unless the phone is taken; true when inserted. */
export async function insertUser(client: PoolClient, user: NewUser): Promise<boolean> {
  const result = await client.query(
    `INSERT INTO users (user_id, phone, name, account_status, kyc_status, tier)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (phone) DO NOTHING`,
    [user.userId, user.phone, user.name, user.accountStatus, user.kycStatus, user.tier],
  );
  return result.rowCount === 1;
}

export async function updateUserProfile(client: PoolClient, user: NewUser): Promise<void> {
  await client.query(
    `UPDATE users SET name = $2, account_status = $3, kyc_status = $4, tier = $5, updated_at = now() WHERE user_id = $1`,
    [user.userId, user.name, user.accountStatus, user.kycStatus, user.tier],
  );
}

/** Opens a wallet: its ledger account (at zero) and the wallet row pointing at it. */
export async function insertWallet(client: PoolClient, userId: string, currency: Currency, status: WalletStatus): Promise<void> {
  await client.query(
    `WITH account AS (
       INSERT INTO ledger_accounts (kind, currency, user_id) VALUES ('user_wallet', $2, $1) RETURNING account_id, currency
     )
     INSERT INTO wallets (user_id, currency, status, account_id) SELECT $1, currency, $3, account_id FROM account`,
    [userId, currency, status],
  );
}

export async function updateWalletStatus(client: PoolClient, userId: string, currency: Currency, status: WalletStatus): Promise<void> {
  await client.query(`UPDATE wallets SET status = $3, updated_at = now() WHERE user_id = $1 AND currency = $2`, [userId, currency, status]);
}

/** A wallet the operator closed: its ledger account is kept for a reopening. */
export interface ClosedWallet {
  currency: Currency;
  accountId: string;
  closedAt: Date;
}

export async function closedWalletsOfUser(db: Queryable, userId: string): Promise<ClosedWallet[]> {
  const result = await db.query<{ currency: Currency; account_id: string; closed_at: Date }>(
    'SELECT currency, account_id, closed_at FROM closed_wallets WHERE user_id = $1 ORDER BY currency',
    [userId],
  );
  return result.rows.map((row) => ({ currency: row.currency, accountId: row.account_id, closedAt: row.closed_at }));
}

/** Moves the wallet row to closed_wallets (the caller has checked, under locks, that it holds nothing). */
export async function closeWallet(client: PoolClient, userId: string, currency: Currency): Promise<void> {
  await client.query(
    `WITH closed AS (DELETE FROM wallets WHERE user_id = $1 AND currency = $2 RETURNING user_id, currency, account_id)
     INSERT INTO closed_wallets (user_id, currency, account_id) SELECT user_id, currency, account_id FROM closed`,
    [userId, currency],
  );
}

/** Moves a closed wallet back to wallets, active, on the same ledger account. */
export async function reopenWallet(client: PoolClient, userId: string, currency: Currency): Promise<void> {
  await client.query(
    `WITH reopened AS (DELETE FROM closed_wallets WHERE user_id = $1 AND currency = $2 RETURNING user_id, currency, account_id)
     INSERT INTO wallets (user_id, currency, status, account_id) SELECT user_id, currency, 'active', account_id FROM reopened`,
    [userId, currency],
  );
}
