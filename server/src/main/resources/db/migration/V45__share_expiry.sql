-- Share links expire when nobody opens them for a while, and all of them together are held to a storage budget:
-- when each was last opened, and how many bytes its code takes.
ALTER TABLE shares ADD COLUMN last_opened_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE shares ADD COLUMN size_bytes INTEGER;
UPDATE shares SET last_opened_at = created_at, size_bytes = OCTET_LENGTH(source);
ALTER TABLE shares ALTER COLUMN last_opened_at SET NOT NULL;
ALTER TABLE shares ALTER COLUMN size_bytes SET NOT NULL;
CREATE INDEX shares_last_opened ON shares (last_opened_at);
