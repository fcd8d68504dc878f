-- Up Migration
-- Intent: the partner's statement (GET /partner/v1/statement, decision 0050) read from the ledger
-- itself, a page at a time by index, with the balance after every movement. Three additions:
--
--   1. transfers.reference_id and transfers.external_id: the public referenceId (PKC-…, PKD-…) and
--      the partner's externalId of the collection or disbursement, carried in the posting request,
--      so the statement names them without asking the services' own records. Nullable: funding and
--      sandbox credits have none, and rows posted before this migration lack them.
--   2. partner_statement_lines: one row per ledger entry on a partner account, written by the
--      entries' statement trigger (below), never by application code, in the same statement as the
--      entries, with the account's balance right after the entry. The trigger is where the account
--      is locked and its balance moved, so the balance it records is the balance, by construction:
--      no code path can post to a partner account without its line, and no line can disagree
--      with the balance. line_id (identity) and posted_at (clock_timestamp()) are taken while the
--      account's row lock is held, so for one account both rise together in the order the balance
--      changed: the statement's order, (account_id, posted_at, line_id), is the posting order, and
--      a page is one range scan of statement_lines_account_time_idx.
--      Append-only like entries (the same refusing trigger).
--   3. post_inserted_entries: its balance UPDATE becomes a data-modifying CTE whose RETURNING feeds
--      the lines' INSERT. Same lock order, same checks, same number of queries in the trigger (the
--      posting stays one statement from the service, decisions 0035 and 0037); the cost is the line
--      row and its two index entries, for partner accounts only (fee revenue, funding and user
--      wallet entries get none).
--
-- Existing partner entries get their lines here, in (created_at, entry_id) order, with the running
-- sum as balance_after (the balance is the sum of the entries, rule 1), under a lock that keeps
-- postings out until the migration commits.

ALTER TABLE transfers ADD COLUMN reference_id text CHECK (length(reference_id) BETWEEN 1 AND 100);
ALTER TABLE transfers ADD COLUMN external_id text CHECK (length(external_id) BETWEEN 1 AND 400);

CREATE TABLE partner_statement_lines (
  line_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- No foreign key: the only writer takes the account from an entry, whose own key checks it.
  account_id bigint NOT NULL,
  entry_id bigint NOT NULL,
  transfer_id uuid NOT NULL,
  amount_minor bigint NOT NULL,
  balance_after_minor bigint NOT NULL CHECK (balance_after_minor >= 0),
  posted_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX statement_lines_account_time_idx ON partner_statement_lines (account_id, posted_at, line_id);
CREATE TRIGGER partner_statement_lines_append_only BEFORE UPDATE OR DELETE ON partner_statement_lines
  FOR EACH ROW EXECUTE FUNCTION refuse_ledger_rewrite();

LOCK TABLE entries IN EXCLUSIVE MODE;
INSERT INTO partner_statement_lines (account_id, entry_id, transfer_id, amount_minor, balance_after_minor, posted_at)
SELECT e.account_id, e.entry_id, e.transfer_id, e.amount_minor,
       sum(e.amount_minor) OVER (PARTITION BY e.account_id ORDER BY e.created_at, e.entry_id),
       e.created_at
  FROM entries e JOIN ledger_accounts a ON a.account_id = e.account_id AND a.kind = 'partner'
 ORDER BY e.account_id, e.created_at, e.entry_id;

-- Rules 1 and 3 as in 1700000000300, plus the partner accounts' statement lines.
CREATE OR REPLACE FUNCTION post_inserted_entries() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  refused record;
BEGIN
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

  PERFORM 1 FROM ledger_accounts WHERE account_id IN (SELECT account_id FROM inserted_entries) ORDER BY account_id FOR NO KEY UPDATE;
  -- The balances move (the CHECK of rule 2 runs on this UPDATE); each partner entry's line records
  -- the balance right after it: the new balance less the account's later entries of this statement.
  WITH moved AS (
    UPDATE ledger_accounts a SET balance_minor = a.balance_minor + d.delta
      FROM (SELECT account_id, sum(amount_minor) AS delta FROM inserted_entries GROUP BY account_id) d
     WHERE a.account_id = d.account_id
    RETURNING a.account_id, a.kind, a.balance_minor
  )
  INSERT INTO partner_statement_lines (account_id, entry_id, transfer_id, amount_minor, balance_after_minor)
  SELECT e.account_id, e.entry_id, e.transfer_id, e.amount_minor,
         m.balance_minor - coalesce(sum(e.amount_minor) OVER (PARTITION BY e.account_id ORDER BY e.entry_id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
    FROM inserted_entries e JOIN moved m ON m.account_id = e.account_id
   WHERE m.kind = 'partner'
   ORDER BY e.account_id, e.entry_id;
  RETURN NULL;
END;
$$;

-- Down Migration
CREATE OR REPLACE FUNCTION post_inserted_entries() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  refused record;
BEGIN
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
  PERFORM 1 FROM ledger_accounts WHERE account_id IN (SELECT account_id FROM inserted_entries) ORDER BY account_id FOR NO KEY UPDATE;
  UPDATE ledger_accounts a SET balance_minor = a.balance_minor + d.delta
    FROM (SELECT account_id, sum(amount_minor) AS delta FROM inserted_entries GROUP BY account_id) d
   WHERE a.account_id = d.account_id;
  RETURN NULL;
END;
$$;
DROP TABLE partner_statement_lines;
ALTER TABLE transfers DROP COLUMN external_id;
ALTER TABLE transfers DROP COLUMN reference_id;
