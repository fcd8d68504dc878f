-- Up Migration
-- Intent: the operator closes (and reopens) a user's wallet in one currency. A closed wallet is
-- not a wallet any more: its row moves from wallets to closed_wallets, so every check that looks
-- for the user's wallet in the currency finds none and answers PKC_3003 ("no active wallet in the
-- requested currency"), and the account lookup no longer lists the currency. The ledger account
-- stays (its postings are history) and is the one a reopened wallet uses again. Only a wallet at a
-- zero balance may be closed (manage-users.ts refuses otherwise, under the user's and the account's
-- locks), and no posting reaches an account without a wallet row, so a closed wallet holds no money
-- and receives none. Nothing is dropped or rewritten.
CREATE TABLE closed_wallets (
  user_id uuid NOT NULL REFERENCES users (user_id),
  currency text NOT NULL CHECK (currency IN ('LRD', 'USD')),
  account_id bigint NOT NULL UNIQUE,
  closed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, currency),
  FOREIGN KEY (account_id, currency) REFERENCES ledger_accounts (account_id, currency)
);

-- Down Migration
DROP TABLE closed_wallets;
