-- A platform order with its lines
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 brandId, $2 hash, $3 source, $4 partnerOrderId, $5 status, $6 paymentStatus
--   $7 orderedAt, $8 deliveryCostKopeks, $9 promoCode, $10 comment, $11 recipientFullName, $12 recipientSurname
--   $13 recipientFirstName, $14 recipientPatronymic, $15 recipientPhone, $16 recipientPhoneNormalized, $17 recipientEmail, $18 deliveryCity
--   $19 deliveryCityCode, $20 deliveryPvzCode, $21 deliveryPvzAddress, $22 carrierOrderUuid, $23 carrierTrackingNumber, $24 waybillUrl
--   $25 requestFingerprint, $26 itemsTotalKopeks, $27 totalKopeks, $28 lineNumbers, $29 productIds, $30 sizeIds
--   $31 articles, $32 storefrontArticles, $33 sizes, $34 quantities, $35 prices
WITH
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
        counted
      )
    VALUES
      (
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
        $25,
        nextval('order_number_seq')::text,
        $26,
        $27,
        TRUE
      )
    ON CONFLICT (brand_id, partner_order_id) DO NOTHING
    RETURNING
      id,
      order_number,
      hash,
      brand_id
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
      l.line,
      l.product_id,
      l.size_id,
      l.article,
      l.storefront_article,
      l.size,
      l.quantity,
      l.price,
      l.price * l.quantity
    FROM
      created,
      unnest(
        $28::INT[],
        $29::INT[],
        $30::INT[],
        $31::TEXT[],
        $32::TEXT[],
        $33::TEXT[],
        $34::INT[],
        $35::BIGINT[]
      ) AS l (line, product_id, size_id, article, storefront_article, size, quantity, price)
  )
SELECT
  id,
  order_number,
  hash
FROM
  created
