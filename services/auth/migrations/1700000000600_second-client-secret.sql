-- Up Migration
-- Intent: a client secret rotates without downtime (issue 28): a second secret is added (its
-- argon2id hash only) while the current one stays valid, the token endpoint accepts either, and
-- revoking the previous one makes the second the only secret. Partners' team members change their
-- own secrets through the dashboard, so operator_actions records members too (actor_kind).
ALTER TABLE partners ADD COLUMN second_client_secret_hash text;
ALTER TABLE partners ADD COLUMN second_client_secret_added_at timestamptz;
ALTER TABLE partners ADD CONSTRAINT partners_second_secret_whole CHECK ((second_client_secret_hash IS NULL) = (second_client_secret_added_at IS NULL));

ALTER TABLE operator_actions ADD COLUMN actor_kind text NOT NULL DEFAULT 'operator' CHECK (actor_kind IN ('operator', 'member'));
ALTER TABLE operator_actions DROP CONSTRAINT operator_actions_action_check;
ALTER TABLE operator_actions ADD CONSTRAINT operator_actions_action_check
  CHECK (action IN ('partner.onboard', 'partner.webhook_url.set', 'partner.client_secret.rotate', 'partner.webhook_secret.rotate', 'partner.client_secret.add_second', 'partner.client_secret.revoke_previous'));

-- Down Migration
ALTER TABLE operator_actions DROP CONSTRAINT operator_actions_action_check;
ALTER TABLE operator_actions ADD CONSTRAINT operator_actions_action_check
  CHECK (action IN ('partner.onboard', 'partner.webhook_url.set', 'partner.client_secret.rotate', 'partner.webhook_secret.rotate'));
ALTER TABLE operator_actions DROP COLUMN actor_kind;
ALTER TABLE partners DROP CONSTRAINT partners_second_secret_whole;
ALTER TABLE partners DROP COLUMN second_client_secret_added_at;
ALTER TABLE partners DROP COLUMN second_client_secret_hash;
