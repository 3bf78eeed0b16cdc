-- A storefront order with the key checked in the statement, without the subscribers’ parts
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 hash, $2 source, $3 partnerOrderId, $4 status, $5 paymentStatus, $6 orderedAt
--   $7 deliveryCostKopeks, $8 promoCode, $9 comment, $10 recipientFullName, $11 recipientSurname, $12 recipientFirstName
--   $13 recipientPatronymic, $14 recipientPhone, $15 recipientPhoneNormalized, $16 recipientEmail, $17 deliveryCity, $18 deliveryCityCode
--   $19 deliveryPvzCode, $20 deliveryPvzAddress, $21 carrierOrderUuid, $22 carrierTrackingNumber, $23 waybillUrl, $24 requestFingerprint
--   $25 storefrontArticles, $26 sizeKeys, $27 quantities, $28 givenPrices, $29 actorKind, $30 acceptanceMail
--   $31 keyFingerprint, $32 keyPermission, $33 settingsManage
WITH
  key_check AS (
    SELECT
      k.id,
      k.brand_id,
      k.name,
      k.permissions,
      k.full_access,
      encode(k.fingerprint, 'hex') AS fingerprint,
      k.last_used_at,
      k.allowed_ips
    FROM
      integration_keys k
    WHERE
      k.fingerprint = $31
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
            OR $33 = ANY (m.permissions)
          END
      )
  ),
  key_ok AS (
    SELECT
      id,
      brand_id
    FROM
      key_check
    WHERE
      allowed_ips IS NULL
      AND $32::text <> 'settings.manage'
      AND (
        full_access
        OR $32::text = ANY (permissions)
      )
  ),
  listens AS (
    SELECT
      (
        EXISTS (
          SELECT
            1
          FROM
            webhook_endpoints w
          WHERE
            w.brand_id = (
              SELECT
                brand_id
              FROM
                key_ok
            )
            AND w.enabled
            AND (
              w.event_types && ARRAY['order.created', 'stock.changed']::TEXT[]
              OR '*' = ANY (w.event_types)
            )
        )
      ) AS yes
  ),
  earlier AS (
    SELECT
      id,
      order_number,
      hash,
      total_kopeks,
      request_fingerprint
    FROM
      orders
    WHERE
      brand_id = (
        SELECT
          brand_id
        FROM
          key_ok
      )
      AND partner_order_id = $3
  ),
  matched AS (
    SELECT
      l.line::int AS line,
      p.id AS product_id,
      s.id AS size_id,
      p.article,
      p.storefront_article,
      s.name AS size,
      l.quantity,
      COALESCE(l.price, s.price_kopeks, p.price_kopeks) AS price,
      s.stock
    FROM
      unnest($25::TEXT[], $26::TEXT[], $27::INT[], $28::BIGINT[]) WITH ORDINALITY AS l (article, size_key, quantity, price, line)
      JOIN products p ON p.brand_id = (
        SELECT
          brand_id
        FROM
          key_ok
      )
      AND p.storefront_article = l.article
      JOIN product_sizes s ON s.product_id = p.id
      AND s.name_key = l.size_key
    WHERE
      NOT EXISTS (
        SELECT
          1
        FROM
          earlier
      )
  ),
  ready AS (
    SELECT
      NOT EXISTS (
        SELECT
          1
        FROM
          earlier
      )
      AND NOT (
        SELECT
          yes
        FROM
          listens
      )
      AND (
        SELECT
          count(*)
        FROM
          matched
      ) = cardinality($25::TEXT[]) AS ok
  ),
  per_size AS (
    SELECT
      size_id AS id,
      - sum(quantity)::int AS delta,
      min(article) AS article,
      min(storefront_article) AS storefront_article
    FROM
      matched
    WHERE
      (
        SELECT
          ok
        FROM
          ready
      )
    GROUP BY
      size_id
  ),
  locked AS (
    SELECT
      id,
      stock
    FROM
      product_sizes
    WHERE
      id = ANY (
        (
          SELECT
            array_agg(id)
          FROM
            per_size
        )::INT[]
      )
    ORDER BY
      id
    FOR NO KEY UPDATE
  ),
  created AS (
    INSERT INTO
      orders (
        brand_id,
        hash,
        source,
        partner_order_id,
        status,
        payment_status,
        ordered_at,
        delivery_cost_kopeks,
        promo_code,
        comment,
        recipient_full_name,
        recipient_surname,
        recipient_first_name,
        recipient_patronymic,
        recipient_phone,
        recipient_phone_normalized,
        recipient_email,
        delivery_city,
        delivery_city_code,
        delivery_pvz_code,
        delivery_pvz_address,
        carrier_order_uuid,
        carrier_tracking_number,
        waybill_url,
        request_fingerprint,
        order_number,
        items_total_kopeks,
        total_kopeks,
        stock_shortage,
        stock_deducted_at,
        counted
      )
    SELECT
      (
        SELECT
          brand_id
        FROM
          key_ok
      ),
      $1,
      $2,
      $3,
      $4,
      $5,
      $6,
      $7,
      $8,
      $9,
      $10,
      $11,
      $12,
      $13,
      $14,
      $15,
      $16,
      $17,
      $18,
      $19,
      $20,
      $21,
      $22,
      $23,
      $24,
      nextval('order_number_seq')::text,
      money.items,
      money.items + $7::bigint,
      EXISTS (
        SELECT
          1
        FROM
          locked l
          JOIN per_size d ON d.id = l.id
        WHERE
          l.stock + d.delta < 0
      ),
      now(),
      TRUE
    FROM
      (
        SELECT
          sum(price * quantity)::bigint AS items
        FROM
          matched
      ) AS money
    WHERE
      (
        SELECT
          ok
        FROM
          ready
      )
    ON CONFLICT (brand_id, partner_order_id) DO NOTHING
    RETURNING
      id,
      order_number,
      hash,
      total_kopeks,
      brand_id,
      partner_order_id,
      source,
      status,
      payment_status,
      delivery_status,
      carrier_tracking_number
  ),
  counted AS (
    INSERT INTO
      brand_order_counts (brand_id, slot, orders)
    SELECT
      brand_id,
      pg_backend_pid() % 64,
      1
    FROM
      created
    ON CONFLICT (brand_id, slot) DO UPDATE
    SET
      orders = brand_order_counts.orders + 1
  ),
  updated AS (
    UPDATE product_sizes s
    SET
      stock = s.stock + d.delta,
      stock_events = s.stock_events + (d.delta <> 0)::int,
      stock_event_position = CASE
        WHEN d.delta <> 0 THEN GREATEST(domain_event_position (), s.stock_event_position)
        ELSE s.stock_event_position
      END
    FROM
      locked AS l
      JOIN per_size AS d (id, delta) ON d.id = l.id
    WHERE
      s.id = l.id
      AND s.id = ANY (
        ARRAY(
          SELECT
            id
          FROM
            locked
        )
      )
      AND s.brand_id = (
        SELECT
          brand_id
        FROM
          key_ok
      )
      AND EXISTS (
        SELECT
          1
        FROM
          created
      )
    RETURNING
      s.id,
      s.stock,
      s.product_id,
      s.name,
      s.stock_events,
      s.stock_event_position,
      d.delta,
      d.article,
      d.storefront_article
  ),
  lines AS (
    INSERT INTO
      order_items (
        order_id,
        line,
        product_id,
        size_id,
        article,
        storefront_article,
        size,
        quantity,
        price_kopeks,
        line_total_kopeks
      )
    SELECT
      created.id,
      m.line,
      m.product_id,
      m.size_id,
      m.article,
      m.storefront_article,
      m.size,
      m.quantity,
      m.price,
      m.price * m.quantity
    FROM
      created,
      matched m
  ),
  moved AS (
    INSERT INTO
      stock_movements (
        brand_id,
        size_id,
        delta,
        reason,
        order_id,
        acceptance_id,
        note,
        actor_kind,
        actor_id
      )
    SELECT
      (
        SELECT
          brand_id
        FROM
          key_ok
      )::int,
      m.size_id,
      - m.quantity,
      'order',
      created.id,
      NULL::int,
      NULL::text,
      $29::text,
      (
        SELECT
          id
        FROM
          key_ok
      )::int
    FROM
      created,
      matched m
  ),
  domain_event AS (
    INSERT INTO
      domain_events AS e (
        brand_id,
        subject,
        subject_id,
        type,
        data,
        sequence,
        position,
        stock_product_id,
        stock_article,
        stock_storefront_article,
        stock_size,
        stock_delta,
        stock_after,
        stock_reason,
        stock_order_id,
        stock_return_id
      )
    SELECT
      *
    FROM
      (
        SELECT
          (c.brand_id)::int,
          'order'::text,
          (c.id)::int,
          ('order.created')::text,
          jsonb_build_object(
            'orderId',
            c.id,
            'orderNumber',
            c.order_number,
            'partnerOrderId',
            c.partner_order_id,
            'source',
            c.source,
            'status',
            c.status,
            'paymentStatus',
            c.payment_status,
            'deliveryStatus',
            c.delivery_status,
            'carrierTrackingNumber',
            c.carrier_tracking_number,
            'totalKopeks',
            c.total_kopeks,
            'sequence',
            (1)::int
          ),
          (1)::int,
          (domain_event_position ())::bigint,
          NULL::int,
          NULL::text,
          NULL::text,
          NULL::text,
          NULL::int,
          NULL::int,
          NULL::text,
          NULL::int,
          NULL::int
        FROM
          created AS c
        UNION ALL
        SELECT
          (
            (
              SELECT
                brand_id
              FROM
                key_ok
            )
          )::int,
          'size'::text,
          (u.id)::int,
          ('stock.changed')::text,
          NULL::jsonb,
          (u.stock_events)::int,
          (GREATEST(domain_event_position (), u.stock_event_position))::bigint,
          (u.product_id)::int,
          (u.article)::text,
          (u.storefront_article)::text,
          (u.name)::text,
          (u.delta)::int,
          (u.stock)::int,
          ('order')::text,
          (
            (
              SELECT
                id
              FROM
                created
            )
          )::int,
          (NULL)::int
        FROM
          updated AS u
        WHERE
          u.delta <> 0
      ) AS ev (
        brand_id,
        subject,
        subject_id,
        type,
        data,
        sequence,
        position,
        stock_product_id,
        stock_article,
        stock_storefront_article,
        stock_size,
        stock_delta,
        stock_after,
        stock_reason,
        stock_order_id,
        stock_return_id
      )
  ),
  mail AS (
    INSERT INTO
      outbox (kind, payload, dedupe_key)
    SELECT
      'mail.order_accepted',
      jsonb_build_object('orderId', created.id),
      'order_accepted:' || created.id
    FROM
      created
    WHERE
      $30::boolean
    ON CONFLICT (dedupe_key) DO NOTHING
  )
SELECT
  CASE
    WHEN c.id IS NOT NULL THEN 'created'
    WHEN e.id IS NOT NULL THEN 'earlier'
    WHEN (
      SELECT
        yes
      FROM
        listens
    ) THEN 'listens'
    WHEN NOT (
      SELECT
        ok
      FROM
        ready
    )
    AND EXISTS (
      SELECT
        1
      FROM
        key_ok
    ) THEN 'unmatched'
  END AS outcome,
  COALESCE(c.id, e.id) AS id,
  COALESCE(c.order_number, e.order_number) AS order_number,
  COALESCE(c.hash, e.hash) AS hash,
  COALESCE(c.total_kopeks, e.total_kopeks) AS total_kopeks,
  e.request_fingerprint,
  0 AS written,
  jsonb_build_object(
    'row',
    (
      SELECT
        to_jsonb(c)
      FROM
        key_check c
    ),
    'acted',
    EXISTS (
      SELECT
        1
      FROM
        key_ok
    )
  ) AS key_check
FROM
  (
    SELECT
      1
  ) AS one
  LEFT JOIN created c ON TRUE
  LEFT JOIN earlier e ON TRUE
