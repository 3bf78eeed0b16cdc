-- A page of an account’s own entries (GET /auth/activity)
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 limit, $2 accountId
SELECT
  j.id,
  j.at,
  j.type,
  j.brand_id AS "brandId",
  j.target_brand_id AS "targetBrandId",
  j.actor_kind AS "actorKind",
  j.actor_id AS "actorId",
  j.method,
  j.path,
  j.ip,
  j.details,
  j.count,
  j.repeat_of AS "repeatOf",
  j.repeat_minute AS "repeatMinute"
FROM
  security_journal j
WHERE
  j.actor_kind = 'user'
  AND j.actor_id = ANY (ARRAY[$2]::INT[])
  AND j.brand_id IS NULL
ORDER BY
  j.actor_id DESC,
  j.at DESC,
  j.id DESC
LIMIT
  $1
