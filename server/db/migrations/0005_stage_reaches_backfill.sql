-- Custom (hand-written) migration: who reached which stage before stage_reaches existed, from
-- what is known: every stage message sent to a person (the history), and each person's current
-- stage (since they joined, at the latest). The earliest moment is kept.
INSERT INTO stage_reaches (person_id, stage_id, funnel_id, reached_at)
SELECT person_id, stage_id, funnel_id, min(at)
FROM (
  SELECT e.person_id, e.stage_id, e.funnel_id, e.created_at AS at
  FROM person_events e
  JOIN stages s ON s.id = e.stage_id
  WHERE e.kind = 'stage_message' AND e.stage_id IS NOT NULL
  UNION ALL
  SELECT p.id, p.stage_id, p.funnel_id, p.joined_at
  FROM people p
  WHERE p.stage_id IS NOT NULL
) known
GROUP BY person_id, stage_id, funnel_id
ON CONFLICT DO NOTHING;
