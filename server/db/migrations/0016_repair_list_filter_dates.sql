-- A saved segment whose filter names a day that does not exist (2024-02-30, 2023-02-29, 0000-01-01:
-- the contract took any YYYY-MM-DD before it checked the day) made every read of its owner's lists
-- fail. Such a bound is dropped from the filter, as if it had never been given, so the lists load
-- again; a day that exists is kept as it is. CASE keeps the casts behind the pattern's check.
UPDATE "contact_lists" AS l
   SET "filter" = l."filter" - bad."keys", "updated_at" = now()
  FROM (
    SELECT c."id", array_agg(k."key") AS "keys"
      FROM "contact_lists" c
     CROSS JOIN LATERAL (VALUES ('joined_from'), ('joined_to')) AS k("key")
     WHERE jsonb_typeof(c."filter") = 'object'
       AND c."filter" ? k."key"
       AND NOT CASE
         WHEN jsonb_typeof(c."filter" -> k."key") = 'string' AND (c."filter" ->> k."key") ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN
           CASE
             WHEN substr(c."filter" ->> k."key", 1, 4)::int BETWEEN 1 AND 9999 AND substr(c."filter" ->> k."key", 6, 2)::int BETWEEN 1 AND 12 THEN
               substr(c."filter" ->> k."key", 9, 2)::int BETWEEN 1 AND extract(day FROM make_date(substr(c."filter" ->> k."key", 1, 4)::int, substr(c."filter" ->> k."key", 6, 2)::int, 1) + interval '1 month' - interval '1 day')::int
             ELSE false
           END
         ELSE false
       END
     GROUP BY c."id"
  ) AS bad
 WHERE l."id" = bad."id";
