-- A page of the platform’s journal
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 limit
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
  TRUE
ORDER BY
  j.at DESC,
  j.id DESC
LIMIT
  $1
