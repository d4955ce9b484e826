-- In a timed game, the time the mover had left when making the move (before any increment):
-- a takeback gives the mover that, not the time spent thinking. NULL: untimed.
ALTER TABLE moves ADD COLUMN left_ms BIGINT;
