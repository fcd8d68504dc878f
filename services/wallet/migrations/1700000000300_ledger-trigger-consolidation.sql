-- Up Migration
-- Intent: the same ledger rules as 1700000000100, enforced by the database with far fewer trigger
-- calls and statements per posting. Why: a CPU profile (perf) of the Postgres backends during the
-- flows benchmark put the ledger's PL/pgSQL triggers at a large share of Postgres CPU per money
-- movement: fmgr_security_definer 13% inclusive (every trigger function has SET search_path FROM
-- CURRENT, so each call saves and restores GUCs), plpgsql_exec_trigger 12%, AfterTriggerEndQuery 9%,
-- AfterTriggerFireDeferred 8%, ExecConstraints 7% (each statement that writes ledger_accounts
-- prepares its CHECK constraints again). A posting of 3 legs inserted by one statement fired 3 row
-- triggers that each ran their own UPDATE of ledger_accounts, 3 guard calls on those UPDATEs, 3
-- deferred zero-sum checks (each re-reading the transfer and all its entries) and 1 deferred
-- "posted transfer has entries" check. Now it fires 1 statement trigger (3 queries in it, of which
-- 1 UPDATE), no guard call, and the same 1 deferred check:
--
--   Rules 1 and 3: one AFTER INSERT ... FOR EACH STATEMENT trigger on entries, with the statement's
--      rows as a transition table. It first refuses the statement when any transfer id it wrote
--      entries for is not posted or, with all its entries, does not sum to zero per currency (same
--      messages, check_violation); then it locks the touched accounts in account_id order (FOR NO
--      KEY UPDATE, so concurrent statements never deadlock on the order of their legs) and adds
--      each account's summed delta in one UPDATE, on which the CHECK of rule 2 refuses an
--      overdraft. An error rolls the whole statement back, entries and balances together.
--      The one change of meaning: the zero-sum check runs at the end of the inserting statement,
--      not at COMMIT. Every code path inserts all legs of a posting in one statement
--      (claimTransferWithEntries, insertEntries), so for them it is the same check; a client that
--      spreads one posting over several INSERTs is now refused at the first one.
--   Rule 1 (guard): BEFORE triggers on ledger_accounts whose WHEN clause lets the function run only
--      when it refuses: an account created with a non-zero balance, or a change of balance_minor
--      at trigger depth 0 (a client's statement). WHEN is evaluated before the guard's own call
--      raises the depth, so the entries trigger's UPDATE is seen at depth 1 and passes without a
--      call. (The old guard compared pg_trigger_depth() < 2 from inside itself: the same line.)
--   Unchanged: transfers_posted_have_entries (deferred, once per transfer) and the append-only
--      triggers. Accounts are identified by account_id (the primary key), as before.
--
-- The functions keep the migration's search_path (the wallet schema), so they find the wallet's
-- tables whatever search_path the session that fires them has.

DROP TRIGGER entries_apply_to_balance ON entries;
DROP TRIGGER entries_balanced_per_posting ON entries;
DROP TRIGGER ledger_accounts_balance_guard ON ledger_accounts;
DROP FUNCTION apply_entry_to_balance();
DROP FUNCTION assert_posting_balanced();
DROP FUNCTION guard_account_balance();

-- Rules 1 and 3, once per INSERT statement on entries.
CREATE FUNCTION post_inserted_entries() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  refused record;
BEGIN
  -- Rule 3: every transfer id written to is posted, and all its entries sum to zero per currency.
  -- (Correlated subqueries, so that each transfer is read by its key whatever the table's size or
  -- statistics; a join to transfers could be planned as a scan of the whole table.)
  SELECT written.transfer_id, written.state INTO refused
    FROM (SELECT ids.transfer_id, (SELECT t.state FROM transfers t WHERE t.transfer_id = ids.transfer_id) AS state
            FROM (SELECT DISTINCT transfer_id FROM inserted_entries) AS ids) AS written
   WHERE written.state IS DISTINCT FROM 'posted'
      OR EXISTS (SELECT 1 FROM entries e WHERE e.transfer_id = written.transfer_id GROUP BY e.currency HAVING sum(e.amount_minor) <> 0)
   ORDER BY written.state IS DISTINCT FROM 'posted' DESC, written.transfer_id
   LIMIT 1;
  IF FOUND THEN
    IF refused.state IS DISTINCT FROM 'posted' THEN
      RAISE EXCEPTION 'entries for transfer % which is not posted', refused.transfer_id USING ERRCODE = 'check_violation';
    END IF;
    RAISE EXCEPTION 'posting % does not sum to zero per currency', refused.transfer_id USING ERRCODE = 'check_violation';
  END IF;

  -- Rule 1: the entries move their accounts' balances (and the CHECK of rule 2 runs on this UPDATE).
  -- Locks first, in account_id order, so two statements touching the same accounts never deadlock.
  -- FOR NO KEY UPDATE is the lock the UPDATE takes anyway; FOR UPDATE would also conflict with the
  -- FOR KEY SHARE locks that the entries' foreign key checks hold until commit, so two postings
  -- crediting fee revenue could each hold a key share lock on it and wait for the other's.
  PERFORM 1 FROM ledger_accounts WHERE account_id IN (SELECT account_id FROM inserted_entries) ORDER BY account_id FOR NO KEY UPDATE;
  UPDATE ledger_accounts a SET balance_minor = a.balance_minor + d.delta
    FROM (SELECT account_id, sum(amount_minor) AS delta FROM inserted_entries GROUP BY account_id) d
   WHERE a.account_id = d.account_id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER entries_post AFTER INSERT ON entries REFERENCING NEW TABLE AS inserted_entries
  FOR EACH STATEMENT EXECUTE FUNCTION post_inserted_entries();

-- Rule 1: nothing but an entry changes a balance. The WHEN clauses decide; the function only refuses.
CREATE FUNCTION refuse_balance_change() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    RAISE EXCEPTION 'a ledger account starts at zero; money arrives only through entries'
      USING ERRCODE = 'check_violation';
  END IF;
  RAISE EXCEPTION 'balance of account % changes only through ledger entries', OLD.account_id
    USING ERRCODE = 'check_violation';
END;
$$;
CREATE TRIGGER ledger_accounts_start_at_zero BEFORE INSERT ON ledger_accounts
  FOR EACH ROW WHEN (NEW.balance_minor <> 0) EXECUTE FUNCTION refuse_balance_change();
CREATE TRIGGER ledger_accounts_balance_only_through_entries BEFORE UPDATE ON ledger_accounts
  FOR EACH ROW WHEN (NEW.balance_minor IS DISTINCT FROM OLD.balance_minor AND pg_trigger_depth() < 1)
  EXECUTE FUNCTION refuse_balance_change();

-- Down Migration
DROP TRIGGER ledger_accounts_balance_only_through_entries ON ledger_accounts;
DROP TRIGGER ledger_accounts_start_at_zero ON ledger_accounts;
DROP TRIGGER entries_post ON entries;
DROP FUNCTION refuse_balance_change();
DROP FUNCTION post_inserted_entries();

CREATE FUNCTION apply_entry_to_balance() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  UPDATE ledger_accounts SET balance_minor = balance_minor + NEW.amount_minor WHERE account_id = NEW.account_id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER entries_apply_to_balance AFTER INSERT ON entries FOR EACH ROW EXECUTE FUNCTION apply_entry_to_balance();

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
