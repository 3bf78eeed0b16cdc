-- A password change, a reset, end-others: the live sessions of an account but one (or none)
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
UPDATE sessions s
SET
  ended_at = now()
WHERE
  s.user_id = $1
  AND s.ended_at IS NULL
  AND s.expires_at > now()
  AND (
    $2::uuid IS NULL
    OR s.id <> $2::uuid
  )
RETURNING
  s.id
