-- GET …/members: the brand’s members with their second factor
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
SELECT
  m.user_id,
  u.email,
  m.permissions,
  (
    EXISTS (
      SELECT
        1
      FROM
        totp_authenticators t
      WHERE
        t.user_id = u.id
        AND t.confirmed_at IS NOT NULL
    )
    OR EXISTS (
      SELECT
        1
      FROM
        passkeys p
      WHERE
        p.user_id = u.id
    )
  ) AS second_factor,
  u.last_sign_in_at
FROM
  memberships m
  JOIN users u ON u.id = m.user_id
WHERE
  m.brand_id = $1
ORDER BY
  u.email
