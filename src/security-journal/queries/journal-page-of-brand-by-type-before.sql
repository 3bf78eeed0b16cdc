-- A page of a brand’s journal of some types, older than an entry
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 limit, $2 types, $3 beforeId, $4 brandId
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
        j.brand_id = ANY (ARRAY[$4]::INT[])
        AND j.type = ANY ($2::TEXT[])
        AND (j.at, j.id) < (
          SELECT
            b.at,
            b.id
          FROM
            security_journal b
          WHERE
            b.id = $3
        )
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
        j.target_brand_id = ANY (ARRAY[$4]::INT[])
        AND j.brand_id IS DISTINCT FROM $4
        AND j.type = ANY ($2::TEXT[])
        AND (j.at, j.id) < (
          SELECT
            b.at,
            b.id
          FROM
            security_journal b
          WHERE
            b.id = $3
        )
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
