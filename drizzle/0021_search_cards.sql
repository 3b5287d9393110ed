-- The cards of a page of search results (decision 0021, amended g): the card columns of
-- `cardColumns` (app/modules/catalog/products.server.ts) under their names there, and for a
-- product with options and variants the summary `variantSummariesQuery` reads (card-variants.server.ts),
-- for a list of ids, as one JSON array. A function, planned once per connection: the same
-- statement planned with every search took 1–1.5 ms of the 2–2.5 its cards cost on PGlite.
-- A test keeps it the same as those two (search-options.integration.test.ts).
CREATE OR REPLACE FUNCTION layerkart_cards(ids uuid[]) RETURNS json
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT coalesce(json_agg(json_build_object(
      'id', p.id, 'name', p.name, 'category', p.category, 'subcategory', p.subcategory,
      'image', p.image, 'pricePaise', p.price_paise, 'originalPricePaise', p.original_price_paise,
      'discount', p.discount, 'rating', p.rating, 'reviewsCount', p.reviews_count,
      'badge', p.badge, 'inStock', p.in_stock, 'isActive', p.is_active,
      'stockCount', p.stock_count,
      -- Read per product (a loop over the few ids), only for one with options.
      'summary', (SELECT json_build_object(
          'varies', count(DISTINCT v.price_paise) FILTER (WHERE v.is_active) > 1,
          -- The swatches of values that an active variant has, in the options' and values' order.
          'swatches', (SELECT json_agg(json_build_object('option', o.position, 'value', ov.value,
                                                         'swatch', ov.swatch)
                                       ORDER BY o.position, ov.position, ov.id)
                         FROM product_options o
                         JOIN product_option_values ov ON ov.option_id = o.id
                        WHERE o.product_id = p.id
                          AND ov.swatch IS NOT NULL
                          AND EXISTS (SELECT 1 FROM product_variant_values pvv
                                        JOIN product_variants av ON av.id = pvv.variant_id
                                       WHERE pvv.value_id = ov.id AND av.is_active)))
                    FROM product_variants v
                   WHERE v.product_id = p.id
                     AND EXISTS (SELECT 1 FROM product_options po WHERE po.product_id = p.id)
                   GROUP BY v.product_id))), '[]')
    FROM products p
   -- Custom parts (priced quotes) are their owner's alone, as in `listProductsByIds`.
   WHERE p.id = ANY(ids) AND p.quote_id IS NULL);
END;
$$;
