-- Seat tokens are kept as their SHA-256 (64 hexadecimal digits), never in plain text. Rows
-- written before this migration hold plain tokens; the server hashes them when it opens the
-- database (`Store::open`), so no plain token outlives the first start after an upgrade.
ALTER TABLE games RENAME COLUMN white_token TO white_token_hash;
ALTER TABLE games RENAME COLUMN black_token TO black_token_hash;
CREATE INDEX games_ongoing ON games (result, updated_at);
