-- A timed game's time control ('per-move' or 'main', the main time or time per move, the
-- increment) and its clocks: each player's time left when the current turn began, and when it
-- began (Unix milliseconds). NULL: an untimed game.
ALTER TABLE games ADD COLUMN clock_kind TEXT;
ALTER TABLE games ADD COLUMN clock_main_ms BIGINT;
ALTER TABLE games ADD COLUMN clock_increment_ms BIGINT;
ALTER TABLE games ADD COLUMN white_clock_ms BIGINT;
ALTER TABLE games ADD COLUMN black_clock_ms BIGINT;
ALTER TABLE games ADD COLUMN turn_started_at BIGINT;
