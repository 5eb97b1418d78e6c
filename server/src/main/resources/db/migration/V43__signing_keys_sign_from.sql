-- When a rotated key starts signing. Until then it only verifies, so that every node on the database has read it
-- before any node hands out cookies signed with it. Keys made before this column existed signed from creation.
ALTER TABLE signing_keys ADD COLUMN signs_from TIMESTAMP WITH TIME ZONE;
UPDATE signing_keys SET signs_from = created_at;
ALTER TABLE signing_keys ALTER COLUMN signs_from SET NOT NULL;
