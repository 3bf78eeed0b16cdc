-- The expiry reminders' claim of the 1d window: due keys marked reminded, each once
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
UPDATE integration_keys
SET
  reminded_1d_at = now(),
  reminded_7d_at = COALESCE(reminded_7d_at, now())
WHERE
  expires_at IS NOT NULL
  AND revoked_at IS NULL
  AND rolled_at IS NULL
  AND expires_at > now()
  AND expires_at <= now() + interval '1 day'
  AND reminded_1d_at IS NULL
RETURNING
  id,
  brand_id,
  name,
  key_hint,
  expires_at
