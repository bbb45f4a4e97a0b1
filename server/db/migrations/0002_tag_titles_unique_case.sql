-- Custom (hand-written) migration: tag titles become unique per funnel without regard to case
-- (the next, generated migration adds the index on lower(title)). Titles that differ only in
-- case are kept apart first, by a number after the later ones: "vip" next to "VIP" becomes
-- "vip (2)". Nothing is merged or deleted: people keep their tags.
WITH ranked AS (
  SELECT id, row_number() OVER (PARTITION BY funnel_id, lower(title) ORDER BY id) AS n
  FROM tags
)
UPDATE tags SET title = left(tags.title, 58) || ' (' || ranked.n || ')'
FROM ranked
WHERE ranked.id = tags.id AND ranked.n > 1;
