import type { z } from '@pwa/config';
import type {
  AuthAdminPartner,
  AuthAdminPartnerDetail,
  ClientSecretSlots,
  WalletAdminTransactionQuery,
  walletAdminPartnerBalancesSchema,
  walletAdminTransactionPageSchema,
  walletLedgerCheckSchema,
} from '@pwa/contracts';

/**
 * What the console reads from the owning services for people (decision 0069): partners from auth,
 * money from the wallet.
 * Every read throws PKC_7003 when the owner gave no answer; the console never shows a guess.
 */
export interface PartnerReads {
  searchPartners(
    query: { q?: string | undefined; status?: string | undefined; afterCreatedAt?: string | undefined; afterId?: string | undefined; pageSize: number },
    httpRequestId: string | null,
  ): Promise<{ partners: AuthAdminPartner[]; next: { createdAt: string; id: string } | null }>;
  /** Undefined when auth knows no partner with this id. */
  partnerDetail(partnerId: string, httpRequestId: string | null): Promise<AuthAdminPartnerDetail | undefined>;
  /** The partner's client secret slots at auth: since when the current one, and a second one while both are accepted (never a secret). Undefined for an unknown partner. */
  clientSecretSlots(partnerId: string, httpRequestId: string | null): Promise<ClientSecretSlots | undefined>;
}

/** What the console reads from the wallet: transactions across partners, a partner's balances, the ledger check. */
export interface WalletReads {
  searchTransactions(query: WalletAdminTransactionQuery, httpRequestId: string | null): Promise<z.output<typeof walletAdminTransactionPageSchema>>;
  partnerBalances(partnerId: string, httpRequestId: string | null): Promise<z.output<typeof walletAdminPartnerBalancesSchema>>;
  ledgerCheck(httpRequestId: string | null): Promise<z.output<typeof walletLedgerCheckSchema>>;
}
