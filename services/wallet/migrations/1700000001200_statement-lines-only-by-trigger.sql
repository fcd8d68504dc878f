-- Up Migration
-- Intent: partner_statement_lines is written by the entries' statement trigger and by nothing else
-- (decision 0050): a client's INSERT (trigger depth 0) is refused, as a client's change of a
-- balance is (1700000000300). The WHEN clause decides, so the trigger's own inserts (depth 1) run
-- no function at all and postings pay nothing for the guard.
CREATE FUNCTION refuse_statement_line_insert() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  RAISE EXCEPTION 'statement lines are written only by the ledger entries trigger' USING ERRCODE = 'check_violation';
END;
$$;
CREATE TRIGGER partner_statement_lines_only_by_entries BEFORE INSERT ON partner_statement_lines
  FOR EACH ROW WHEN (pg_trigger_depth() < 1) EXECUTE FUNCTION refuse_statement_line_insert();

-- Down Migration
DROP TRIGGER partner_statement_lines_only_by_entries ON partner_statement_lines;
DROP FUNCTION refuse_statement_line_insert();
