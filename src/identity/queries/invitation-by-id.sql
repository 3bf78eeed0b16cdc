-- An invitation with its inviter’s e-mail
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
  i.id = $1
