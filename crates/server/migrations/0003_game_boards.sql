-- A game played on a board file other than its ruleset's default (an uploaded Schada board)
-- keeps the file's name and text, so that it can always be replayed. NULL: the default board.
ALTER TABLE games ADD COLUMN board_name TEXT;
ALTER TABLE games ADD COLUMN board_text TEXT;
