-- Up Migration
-- Intent: the wallet core. Users with their wallets per currency, partner accounts per currency,
-- and a double-entry ledger whose rules are enforced by the database itself, so that no code path
-- (a bug, a hand-written SQL fix, a future service version) can create or destroy money:
--
--   1. Every account is a row of ledger_accounts with a stored balance. A balance changes only
--      through ledger entries: an AFTER INSERT trigger on entries adds the entry to its account,
--      and a guard trigger refuses any other change of balance_minor (pg_trigger_depth() tells a
--      direct UPDATE, depth 1, from the entries trigger's UPDATE, depth 2) and any new account that
--      does not start at zero. So a stored balance always equals the sum of its entries.
--   2. CHECK (kind = 'funding' OR balance_minor >= 0): user wallets, partner accounts and fee
--      revenue never go below zero. The check runs on the trigger's UPDATE, so the INSERT of an entry
--      that would overdraw an account fails in the same statement. The operator's funding account is
--      the only account allowed to go negative: it is the ledger's counterpart of money that enters
--      the system from outside (a partner's bank transfer, a sandbox credit), so its balance is minus
--      the money the operator has brought in, and it is negative by construction.
--   3. Every posting (all entries of one transfer id) sums to zero per currency. This is a deferred
--      constraint trigger: it runs at COMMIT, after all entries of the posting exist, once per entry,
--      and cannot be skipped (SET CONSTRAINTS can only move it, never disable it). A posting that does
--      not balance makes the whole transaction fail, balance updates included. The same trigger
--      refuses entries for a transfer id that is not posted, and a posted transfer without entries.
--   4. Entries and transfers are append-only: UPDATE and DELETE on them are refused.
--   5. transfers.transfer_id is the caller's idempotency id and the PRIMARY KEY. A posting and a
--      cancellation (tombstone) both claim it with INSERT ... ON CONFLICT DO NOTHING, so exactly one
--      of them wins even when they race, and a second posting of the same id moves no money.

CREATE TABLE users (
  user_id uuid PRIMARY KEY,
  phone text NOT NULL UNIQUE CHECK (phone ~ '^\+231(77|88|55)[0-9]{7}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  account_status text NOT NULL CHECK (account_status IN ('active', 'suspended', 'closed')),
  kyc_status text NOT NULL CHECK (kyc_status IN ('pending', 'approved', 'rejected')),
  tier text NOT NULL CHECK (tier IN ('Basic', 'Silver', 'Gold', 'Platinum')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ledger_accounts (
  account_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('user_wallet', 'partner', 'fee_revenue', 'funding')),
  currency text NOT NULL CHECK (currency IN ('LRD', 'USD')),
  user_id uuid REFERENCES users (user_id),
  partner_id uuid,
  balance_minor bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT ledger_accounts_not_negative CHECK (kind = 'funding' OR balance_minor >= 0),
  CONSTRAINT ledger_accounts_owner CHECK (
    (kind = 'user_wallet' AND user_id IS NOT NULL AND partner_id IS NULL)
    OR (kind = 'partner' AND partner_id IS NOT NULL AND user_id IS NULL)
    OR (kind IN ('fee_revenue', 'funding') AND user_id IS NULL AND partner_id IS NULL)
  ),
  -- Lets entries reference (account, currency) so an entry can never be in another currency than its account.
  UNIQUE (account_id, currency)
);
CREATE UNIQUE INDEX ledger_accounts_one_wallet_per_currency_idx ON ledger_accounts (user_id, currency) WHERE kind = 'user_wallet';
CREATE UNIQUE INDEX ledger_accounts_one_partner_account_per_currency_idx ON ledger_accounts (partner_id, currency) WHERE kind = 'partner';
CREATE UNIQUE INDEX ledger_accounts_one_system_account_per_currency_idx ON ledger_accounts (kind, currency) WHERE kind IN ('fee_revenue', 'funding');

INSERT INTO ledger_accounts (kind, currency) VALUES ('fee_revenue', 'LRD'), ('fee_revenue', 'USD'), ('funding', 'LRD'), ('funding', 'USD');

-- A wallet is the user's view of their ledger account in one currency, with its own status.
CREATE TABLE wallets (
  user_id uuid NOT NULL REFERENCES users (user_id),
  currency text NOT NULL CHECK (currency IN ('LRD', 'USD')),
  status text NOT NULL CHECK (status IN ('active', 'frozen')),
  account_id bigint NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, currency),
  FOREIGN KEY (account_id, currency) REFERENCES ledger_accounts (account_id, currency)
);

CREATE TABLE transfers (
  transfer_id uuid PRIMARY KEY,
  state text NOT NULL CHECK (state IN ('posted', 'cancelled')),
  kind text CHECK (kind IN ('collection', 'disbursement', 'funding', 'sandbox_credit')),
  transaction_id text UNIQUE CHECK (transaction_id ~ '^TXN-[0-9A-F]{16}$'),
  user_id uuid REFERENCES users (user_id),
  partner_id uuid,
  currency text CHECK (currency IN ('LRD', 'USD')),
  amount_minor bigint CHECK (amount_minor > 0),
  fee_minor bigint CHECK (fee_minor >= 0),
  reference text CHECK (length(reference) <= 200),
  posted_at timestamptz,
  cancelled_at timestamptz,
  CONSTRAINT transfers_posted_is_complete CHECK (
    state <> 'posted' OR (kind IS NOT NULL AND transaction_id IS NOT NULL AND currency IS NOT NULL
      AND amount_minor IS NOT NULL AND fee_minor IS NOT NULL AND posted_at IS NOT NULL AND cancelled_at IS NULL)
  ),
  -- A tombstone only claims the id: it carries no money and no transaction id.
  CONSTRAINT transfers_cancelled_is_tombstone CHECK (
    state <> 'cancelled' OR (cancelled_at IS NOT NULL AND transaction_id IS NULL AND posted_at IS NULL AND amount_minor IS NULL)
  ),
  CONSTRAINT transfers_parties_match_kind CHECK (
    kind IS NULL
    OR (kind IN ('collection', 'disbursement') AND user_id IS NOT NULL AND partner_id IS NOT NULL)
    OR (kind = 'funding' AND partner_id IS NOT NULL AND user_id IS NULL AND fee_minor = 0)
    OR (kind = 'sandbox_credit' AND user_id IS NOT NULL AND partner_id IS NULL AND fee_minor = 0)
  )
);
-- Limit usage reads a user's postings of one type and currency within a time window.
CREATE INDEX transfers_usage_idx ON transfers (user_id, kind, currency, posted_at) WHERE state = 'posted';

CREATE TABLE entries (
  entry_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transfer_id uuid NOT NULL REFERENCES transfers (transfer_id),
  account_id bigint NOT NULL,
  currency text NOT NULL,
  amount_minor bigint NOT NULL CHECK (amount_minor <> 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (account_id, currency) REFERENCES ledger_accounts (account_id, currency)
);
CREATE INDEX entries_transfer_idx ON entries (transfer_id);
CREATE INDEX entries_account_idx ON entries (account_id);

-- The trigger functions keep the migration's search_path (the wallet schema), so they find the
-- wallet's tables whatever search_path the session that fires them has.

-- Rule 1: the entry moves its account's balance (and the CHECK of rule 2 runs on this UPDATE).
CREATE FUNCTION apply_entry_to_balance() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  UPDATE ledger_accounts SET balance_minor = balance_minor + NEW.amount_minor WHERE account_id = NEW.account_id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER entries_apply_to_balance AFTER INSERT ON entries FOR EACH ROW EXECUTE FUNCTION apply_entry_to_balance();

-- Rule 1: nothing but an entry changes a balance.
CREATE FUNCTION guard_account_balance() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'INSERT' AND NEW.balance_minor <> 0 THEN
    RAISE EXCEPTION 'a ledger account starts at zero; money arrives only through entries'
      USING ERRCODE = 'check_violation';
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.balance_minor IS DISTINCT FROM OLD.balance_minor AND pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'balance of account % changes only through ledger entries', OLD.account_id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER ledger_accounts_balance_guard BEFORE INSERT OR UPDATE ON ledger_accounts
  FOR EACH ROW EXECUTE FUNCTION guard_account_balance();

-- Rule 3: each posting sums to zero per currency, checked at commit.
CREATE FUNCTION assert_posting_balanced() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  transfer_state text;
BEGIN
  SELECT state INTO transfer_state FROM transfers WHERE transfer_id = NEW.transfer_id;
  IF transfer_state IS DISTINCT FROM 'posted' THEN
    RAISE EXCEPTION 'entries for transfer % which is not posted', NEW.transfer_id USING ERRCODE = 'check_violation';
  END IF;
  IF EXISTS (
    SELECT 1 FROM entries WHERE transfer_id = NEW.transfer_id GROUP BY currency HAVING sum(amount_minor) <> 0
  ) THEN
    RAISE EXCEPTION 'posting % does not sum to zero per currency', NEW.transfer_id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER entries_balanced_per_posting AFTER INSERT ON entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION assert_posting_balanced();

-- Rule 3: a posted transfer has entries (checked at commit, once they have been inserted).
CREATE FUNCTION assert_posted_transfer_has_entries() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF NEW.state = 'posted' AND NOT EXISTS (SELECT 1 FROM entries WHERE transfer_id = NEW.transfer_id) THEN
    RAISE EXCEPTION 'posted transfer % has no entries', NEW.transfer_id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER transfers_posted_have_entries AFTER INSERT ON transfers
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION assert_posted_transfer_has_entries();

-- Rule 4: the ledger is append-only.
CREATE FUNCTION refuse_ledger_rewrite() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'check_violation';
END;
$$;
CREATE TRIGGER entries_append_only BEFORE UPDATE OR DELETE ON entries FOR EACH ROW EXECUTE FUNCTION refuse_ledger_rewrite();
CREATE TRIGGER transfers_append_only BEFORE UPDATE OR DELETE ON transfers FOR EACH ROW EXECUTE FUNCTION refuse_ledger_rewrite();

-- Down Migration
DROP TABLE entries;
DROP TABLE transfers;
DROP TABLE wallets;
DROP TABLE ledger_accounts;
DROP TABLE users;
DROP FUNCTION refuse_ledger_rewrite();
DROP FUNCTION assert_posted_transfer_has_entries();
DROP FUNCTION assert_posting_balanced();
DROP FUNCTION guard_account_balance();
DROP FUNCTION apply_entry_to_balance();
