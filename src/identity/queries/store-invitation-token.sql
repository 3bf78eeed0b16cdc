-- The invitation mail: a new token’s digest on a live invitation, and what the mail says
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
WITH
  minted AS (
    UPDATE invitations i
    SET
      token_hash = $2
    WHERE
      i.id = $1
      AND i.status = 'pending'
      AND i.expires_at > now()
    RETURNING
      i.brand_id,
      i.email,
      i.permissions,
      i.expires_at,
      i.invited_by
  )
SELECT
  m.email,
  m.permissions,
  m.expires_at,
  b.name AS brand_name,
  u.email AS inviter_email
FROM
  minted m
  JOIN brands b ON b.id = m.brand_id
  LEFT JOIN users u ON u.id = m.invited_by
