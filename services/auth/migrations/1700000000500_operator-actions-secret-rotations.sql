-- Up Migration
-- Intent: a person on the back-office rotates a partner's client secret or webhook secret (issue
-- 27); operator_actions records who, like onboarding and the webhook URL (before and after are the
-- time of the rotation and, for a webhook secret, when the previous ones stop: never a secret).

ALTER TABLE operator_actions DROP CONSTRAINT operator_actions_action_check;
ALTER TABLE operator_actions ADD CONSTRAINT operator_actions_action_check
  CHECK (action IN ('partner.onboard', 'partner.webhook_url.set', 'partner.client_secret.rotate', 'partner.webhook_secret.rotate'));

-- Down Migration
ALTER TABLE operator_actions DROP CONSTRAINT operator_actions_action_check;
ALTER TABLE operator_actions ADD CONSTRAINT operator_actions_action_check
  CHECK (action IN ('partner.onboard', 'partner.webhook_url.set'));
