-- DELETE /auth/sessions/:id: one live session of the account
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
UPDATE sessions s
SET
  ended_at = now()
WHERE
  s.id = $1
  AND s.user_id = $2
  AND s.ended_at IS NULL
  AND s.expires_at > now()
RETURNING
  s.id
