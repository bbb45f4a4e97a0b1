-- pg_trgm is not expressible in schema.ts: added by hand (PGlite loads it in pglite-worker.mjs; a
-- PostgreSQL server has it in contrib, and it is a trusted extension).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "people_name_trgm_idx" ON "people" USING gin (lower("first_name" || ' ' || "last_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "people_username_trgm_idx" ON "people" USING gin (lower(coalesce("username", '')) gin_trgm_ops);