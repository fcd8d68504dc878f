-- Up Migration
-- Intent: maker-checker ("four eyes", decision 0062). A four-eyes change is a request one operator
-- makes and a second, different operator with the checker role decides. The database keeps the
-- rules that must hold under concurrency: the checker is never the maker; a decided request names
-- its checker and time; an executed one was approved first and records its result. The id is the
-- idempotency key of the execution (the wallet's transfer id for a funding), so executing an
-- approved request again changes nothing downstream.
CREATE TABLE approval_requests (
  id uuid PRIMARY KEY,
  action text NOT NULL CHECK (action IN (
    'partner.fund', 'partner.funding.correct', 'disbursement.reverse', 'fee_schedule.set',
    'tier_limit.set', 'partner.status.set', 'partner.permissions.set', 'partner.rate_limit.set')),
  target jsonb NOT NULL,
  parameters jsonb NOT NULL,
  reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  maker_id uuid NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'expired', 'executed', 'failed')),
  checker_id uuid,
  decided_at timestamptz,
  decision_note text CHECK (decision_note IS NULL OR length(decision_note) <= 500),
  executed_at timestamptz,
  execution_result jsonb,
  CHECK (expires_at > requested_at),
  CHECK (checker_id IS NULL OR checker_id <> maker_id),
  CHECK ((status IN ('approved', 'rejected', 'executed', 'failed')) = (checker_id IS NOT NULL AND decided_at IS NOT NULL)),
  -- executed: the owning service applied it; failed: the owning service refused it for good (its answer is the result).
  CHECK ((status IN ('executed', 'failed')) = (executed_at IS NOT NULL AND execution_result IS NOT NULL))
);

-- The approvals queue and the other lists by status, newest first (keysetPageQuery of @pwa/db), and a maker's own requests.
CREATE INDEX approval_requests_by_status ON approval_requests (status, requested_at DESC, id DESC);
CREATE INDEX approval_requests_maker ON approval_requests (maker_id, requested_at DESC);

-- Down Migration
DROP TABLE approval_requests;
