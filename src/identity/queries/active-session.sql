-- Every session request: the session, its user, memberships, policies and second factor
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
SELECT
  u.id AS user_id,
  u.email,
  u.is_superadmin,
  COALESCE(
    json_agg(
      json_build_object(
        'brandId',
        m.brand_id,
        'brandName',
        b.name,
        'brandSlug',
        b.slug,
        'permissions',
        m.permissions,
        'secondFactorRequired',
        b.require_second_factor
      )
      ORDER BY
        m.brand_id
    ) FILTER (
      WHERE
        m.brand_id IS NOT NULL
    ),
    '[]'
  ) AS memberships,
  s.authenticated_at,
  s.last_seen_at < now() - interval '1 minute' AS stale,
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
  ) AS second_factor
FROM
  sessions s
  JOIN users u ON u.id = s.user_id
  LEFT JOIN memberships m ON m.user_id = u.id
  LEFT JOIN brands b ON b.id = m.brand_id
WHERE
  s.id = $1
  AND s.ended_at IS NULL
  AND s.expires_at > now()
  AND u.active
GROUP BY
  u.id,
  s.id
