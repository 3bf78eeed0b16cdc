-- The invitation page: a live token’s invitation
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
SELECT
  i.id,
  i.brand_id,
  b.name AS brand_name,
  i.email,
  i.permissions,
  a.id AS user_id
FROM
  invitations i
  JOIN brands b ON b.id = i.brand_id
  LEFT JOIN users a ON a.email = i.email
WHERE
  i.token_hash = $1
  AND i.status = 'pending'
  AND i.expires_at > now()
