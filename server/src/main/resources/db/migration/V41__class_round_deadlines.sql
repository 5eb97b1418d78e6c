-- A live round's time limit (classroom feature): answers after the deadline are refused; null is no limit. Numbered
-- after every migration already released, since Flyway applies versions in order and refuses one below the newest.
ALTER TABLE class_rounds ADD COLUMN deadline TIMESTAMP WITH TIME ZONE;
