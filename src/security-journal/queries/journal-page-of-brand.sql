-- A page of a brand’s journal: the entries it acted in and those about it
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 limit, $2 brandId
SELECT
  *
FROM
  (
    (
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
        j.brand_id = ANY (ARRAY[$2]::INT[])
      ORDER BY
        j.brand_id DESC,
        j.at DESC,
        j.id DESC
      LIMIT
        $1
    )
    UNION ALL
    (
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
        j.target_brand_id = ANY (ARRAY[$2]::INT[])
        AND j.brand_id IS DISTINCT FROM $2
      ORDER BY
        j.target_brand_id DESC,
        j.at DESC,
        j.id DESC
      LIMIT
        $1
    )
  ) j
ORDER BY
  j.at DESC,
  j.id DESC
LIMIT
  $1
