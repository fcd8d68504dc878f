import { PkcError, invalidFieldError } from '@pwa/errors';
import type { Pool } from '@pwa/db';
import { currencies, type Currency } from '@pwa/money';
import { liberianPhoneForms, normaliseLiberianPhone } from '@pwa/phone';
import { transactableCurrencies, type AccountStatus, type KycStatus } from '../domain/user';
import { findUserByPhone } from '../store/user-store';
import { listPartnerAccounts } from '../store/account-store';

export interface AccountView {
  name: string;
  phone: string;
  accountStatus: AccountStatus;
  kycStatus: KycStatus;
  currencies: Currency[];
}

/** GET /partner/v1/account/{phone}: the phone in either Liberian form; 2001 naming the path parameter when it is not one, 3001 when nobody has it. */
export async function lookUpAccount(pool: Pool, phoneInput: string): Promise<AccountView> {
  const phone = normaliseLiberianPhone(phoneInput);
  if (phone === undefined) throw invalidFieldError('PKC_2001', 'phone', 'wrong_format', liberianPhoneForms);
  const user = await findUserByPhone(pool, phone);
  if (!user) throw new PkcError('PKC_3001');
  return { name: user.name, phone: user.phone, accountStatus: user.accountStatus, kycStatus: user.kycStatus, currencies: transactableCurrencies(user) };
}

/** The partner's balance in every currency; 0 where it has no account yet. */
export async function partnerBalances(pool: Pool, partnerId: string): Promise<Record<Currency, bigint>> {
  const balances = Object.fromEntries(currencies.map((currency) => [currency, 0n])) as Record<Currency, bigint>;
  for (const account of await listPartnerAccounts(pool, partnerId)) balances[account.currency] = account.balanceMinor;
  return balances;
}
