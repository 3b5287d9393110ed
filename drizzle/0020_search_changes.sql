CREATE TABLE "search_removed" (
	"id" uuid PRIMARY KEY NOT NULL,
	"changed" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "search_products" ADD COLUMN "changed" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "search_removed_changed_idx" ON "search_removed" USING btree ("changed");--> statement-breakpoint
CREATE INDEX "search_products_changed_idx" ON "search_products" USING btree ("changed");--> statement-breakpoint
-- Hand-written from here (docs/decisions/0021-search-answers.md, amended 2026-11-27 d): the
-- triggers of drizzle/0019 now stamp what they write. A statement that changes search_products
-- raises the search generation and stamps its rows (and the removed products' ids) with the value
-- it raised it to. The generation row stays locked until the transaction ends, so a later stamp
-- is always a later commit: a reader that saw generation G has seen every row stamped up to G, and
-- next time reads only the rows stamped after G. A statement that changes nothing the search
-- reads (a sale's stock update) raises and writes nothing, as before.
CREATE OR REPLACE FUNCTION layerkart_search_stamp() RETURNS bigint
LANGUAGE sql VOLATILE AS $$
  UPDATE search_generation SET generation = generation + 1 RETURNING generation
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION layerkart_search_products_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  stamp bigint;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.is_active) THEN
    RETURN NULL;
  END IF;
  stamp := layerkart_search_stamp();
  INSERT INTO search_products (id, name, search_text, search_words, search_coded, changed)
    SELECT n.id, n.name, n.search_text, n.search_words, layerkart_search_coded(n.search_text), stamp
      FROM new_rows n WHERE n.is_active
  ON CONFLICT (id) DO UPDATE
    SET name = excluded.name, search_text = excluded.search_text,
        search_words = excluded.search_words, search_coded = excluded.search_coded,
        changed = excluded.changed;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION layerkart_search_products_update() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  stamp bigint;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM new_rows n JOIN search_products s ON s.id = n.id
                  WHERE NOT n.is_active)
     AND NOT EXISTS (SELECT 1 FROM new_rows n
                      WHERE n.is_active
                        AND NOT EXISTS (SELECT 1 FROM old_rows o
                                         WHERE o.id = n.id AND o.is_active AND o.name = n.name
                                           AND o.search_text = n.search_text
                                           AND o.search_words = n.search_words)) THEN
    RETURN NULL;
  END IF;
  stamp := layerkart_search_stamp();
  INSERT INTO search_removed (id, changed)
    SELECT s.id, stamp FROM new_rows n JOIN search_products s ON s.id = n.id WHERE NOT n.is_active
  ON CONFLICT (id) DO UPDATE SET changed = excluded.changed;
  DELETE FROM search_products s
   USING new_rows n
   WHERE s.id = n.id AND NOT n.is_active;
  INSERT INTO search_products (id, name, search_text, search_words, search_coded, changed)
    SELECT n.id, n.name, n.search_text, n.search_words, layerkart_search_coded(n.search_text), stamp
      FROM new_rows n
     WHERE n.is_active
       AND NOT EXISTS (SELECT 1 FROM old_rows o
                        WHERE o.id = n.id AND o.is_active AND o.name = n.name
                          AND o.search_text = n.search_text AND o.search_words = n.search_words)
  ON CONFLICT (id) DO UPDATE
    SET name = excluded.name, search_text = excluded.search_text,
        search_words = excluded.search_words, search_coded = excluded.search_coded,
        changed = excluded.changed;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION layerkart_search_products_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  stamp bigint;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM old_rows o JOIN search_products s ON s.id = o.id) THEN
    RETURN NULL;
  END IF;
  stamp := layerkart_search_stamp();
  INSERT INTO search_removed (id, changed)
    SELECT s.id, stamp FROM old_rows o JOIN search_products s ON s.id = o.id
  ON CONFLICT (id) DO UPDATE SET changed = excluded.changed;
  DELETE FROM search_products s USING old_rows o WHERE s.id = o.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION layerkart_search_products_truncate() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  stamp bigint;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM search_products) THEN
    RETURN NULL;
  END IF;
  stamp := layerkart_search_stamp();
  INSERT INTO search_removed (id, changed) SELECT id, stamp FROM search_products
  ON CONFLICT (id) DO UPDATE SET changed = excluded.changed;
  TRUNCATE search_products;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- What changed since a generation, for the process keeping the rows (app/modules/catalog/
-- search-index.server.ts): the rows stamped since, by name, each with the id of the product
-- before it by name (the name index), and the products removed since and not back; or, when
-- more than `at_most` rows changed (a bulk import), only that ('{"more": true}': the copy is read
-- anew). A function, so its statements are planned once per connection, not with every search.
CREATE OR REPLACE FUNCTION layerkart_search_changes(since bigint, at_most int) RETURNS json
LANGUAGE plpgsql STABLE AS $$
BEGIN
  -- Every read in the order of `changed`, with a limit: the function's cached generic plan then
  -- still walks the index from `since` (without them it read every row: 2–10 ms on PGlite).
  IF (SELECT count(*) FROM (SELECT 1 FROM search_products WHERE changed > since
                             ORDER BY changed LIMIT at_most + 1) c)
     + (SELECT count(*) FROM (SELECT 1 FROM search_removed WHERE changed > since
                               ORDER BY changed LIMIT at_most + 1) c) > at_most THEN
    RETURN json_build_object('more', true);
  END IF;
  RETURN json_build_object(
    'rows', (SELECT coalesce(json_agg(json_build_array(s.id, s.search_text, s.search_words,
               (SELECT b.id FROM search_products b WHERE (b.name, b.id) < (s.name, s.id)
                 ORDER BY b.name DESC, b.id DESC LIMIT 1)) ORDER BY s.name, s.id), '[]')
               FROM (SELECT id, name, search_text, search_words FROM search_products
                      WHERE changed > since ORDER BY changed LIMIT at_most) s),
    'removed', (SELECT coalesce(json_agg(r.id), '[]')
                  FROM (SELECT id FROM search_removed WHERE changed > since
                         ORDER BY changed LIMIT at_most) r
                 WHERE NOT EXISTS (SELECT 1 FROM search_products s WHERE s.id = r.id)));
END;
$$;
--> statement-breakpoint
-- The first `wanted` active products with options matching a query with their options' values
-- (issue 22: "red dragon"), best first: decision 0004's rules over the product's search text and
-- its values (`contains`: the query as a LIKE pattern; `words`: its words). A function, planned
-- once per connection, so the statement reading the search generation, which asks for it, isn't
-- planned with it every time.
CREATE OR REPLACE FUNCTION layerkart_search_optioned(q text, contains text, words text[], wanted int)
RETURNS text[]
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT coalesce(array_agg(id ORDER BY n), '{}') FROM (
    SELECT p.id::text AS id, row_number() OVER (
             ORDER BY (t.text LIKE contains) DESC, word_similarity(q, t.text) DESC, p.name) AS n
      FROM (SELECT o.product_id, string_agg(lower(v.value), ' ') AS values_text,
                   regexp_split_to_array(string_agg(lower(v.value), ' '), '[[:space:][:punct:]]+')
                     AS values_words
              FROM product_options o JOIN product_option_values v ON v.option_id = o.id
             GROUP BY o.product_id) x
      -- Each product read by its id (the fence keeps it a loop over the few with options: a
      -- cached generic plan hashed all the products instead).
      CROSS JOIN LATERAL (SELECT pr.id, pr.name, pr.search_text, pr.search_words FROM products pr
                           WHERE pr.id = x.product_id AND pr.is_active OFFSET 0) p
      CROSS JOIN LATERAL (SELECT p.search_text || ' ' || x.values_text AS text) t
     WHERE (t.text LIKE contains
            OR (cardinality(words) = 0 AND word_similarity(q, t.text) >= 0.25)
            OR (cardinality(words) > 0 AND NOT EXISTS (
                  SELECT 1 FROM unnest(words) AS w(word)
                   WHERE NOT (word_similarity(w.word, t.text) >= 0.25
                              AND (strict_word_similarity(w.word, t.text) >= 0.4
                                   OR EXISTS (
                                     SELECT 1 FROM unnest(p.search_words || x.values_words) AS pw(word)
                                      WHERE starts_with(pw.word, w.word)
                                         OR levenshtein(pw.word, w.word) <= CASE
                                              WHEN char_length(w.word) <= 3 THEN 0
                                              WHEN char_length(w.word) <= 4 THEN 1
                                              ELSE 2 END))))))
     ORDER BY n LIMIT wanted) best);
END;
$$;
