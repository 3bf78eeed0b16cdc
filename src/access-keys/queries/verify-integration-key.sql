-- The key check on every request with an integration key
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 fingerprint, $2 settingsManage
SELECT
  k.id,
  k.brand_id,
  k.name,
  k.permissions,
  k.full_access,
  k.fingerprint,
  k.last_used_at,
  k.allowed_ips
FROM
  integration_keys k
WHERE
  k.fingerprint = $1
  AND k.revoked_at IS NULL
  AND (
    k.expires_at IS NULL
    OR k.expires_at > now()
  )
  AND EXISTS (
    SELECT
      1
    FROM
      users u
      LEFT JOIN memberships m ON m.user_id = u.id
      AND m.brand_id = k.brand_id
    WHERE
      u.id = k.created_by
      AND u.active
      AND CASE
        WHEN k.issued_as_superadmin THEN u.is_superadmin
        ELSE u.is_superadmin
        OR $2 = ANY (m.permissions)
      END
  )
