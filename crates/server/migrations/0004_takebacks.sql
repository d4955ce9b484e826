-- A takeback one person asked for that the other has not answered yet ('white' or 'black'),
-- cleared by an answer, a move or the end of the game. NULL: none.
ALTER TABLE games ADD COLUMN takeback_offer TEXT;
