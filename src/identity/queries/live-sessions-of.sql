-- GET /auth/sessions: the account’s live sessions
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
SELECT
  s.id,
  s.created_at,
  s.last_seen_at,
  s.ip,
  s.user_agent
FROM
  sessions s
WHERE
  s.user_id = $1
  AND s.ended_at IS NULL
  AND s.expires_at > now()
ORDER BY
  s.created_at DESC,
  s.id
