-- A brand’s pending, unexpired invitations
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
SELECT
  i.id,
  i.brand_id,
  i.email,
  i.permissions,
  i.status,
  i.created_at,
  i.expires_at,
  i.invited_by,
  u.email AS inviter_email
FROM
  invitations i
  LEFT JOIN users u ON u.id = i.invited_by
WHERE
  i.brand_id = $1
  AND i.status = 'pending'
  AND i.expires_at > now()
ORDER BY
  i.created_at DESC,
  i.id DESC
