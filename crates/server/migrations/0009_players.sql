-- Players with accounts, their sessions and their ratings. Times are Unix milliseconds.
--
-- A player's `name` is shown as typed; `name_key` is the name folded so that look-alike names
-- ("Boogerd", "B00gerd", "boo_gerd") share one key and cannot both be taken. A deleted account
-- keeps its row, so its games still point at it, with the name, key and password gone.
CREATE TABLE players (
    id TEXT PRIMARY KEY,
    name TEXT,
    name_key TEXT UNIQUE,
    password_hash TEXT,
    created_at BIGINT NOT NULL,
    deleted_at BIGINT
);

-- A signed-in browser: the SHA-256 of the session cookie's random token, never the token.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players (id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_by_player ON sessions (player_id);

-- One Glicko-2 rating per player and category (`FAMILY/CLASS`, e.g. `chad/blitz`).
CREATE TABLE ratings (
    player_id TEXT NOT NULL REFERENCES players (id),
    category TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (player_id, category)
);
CREATE INDEX ratings_by_category ON ratings (category, rating);

-- What each rated game did to its players' ratings: written in the transaction that stores the
-- game's result, once per seat of a player (the computer's ratings are fixed).
CREATE TABLE rating_changes (
    game_id TEXT NOT NULL REFERENCES games (id),
    seat TEXT NOT NULL,
    player_id TEXT NOT NULL REFERENCES players (id),
    category TEXT NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    deviation_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    deviation_after DOUBLE PRECISION NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX rating_changes_by_player ON rating_changes (player_id, category, created_at);

-- The accounts holding a game's seats (NULL: a seat without an account, or the computer), and
-- whether the game counts for ratings (0 or 1).
ALTER TABLE games ADD COLUMN white_player TEXT REFERENCES players (id);
ALTER TABLE games ADD COLUMN black_player TEXT REFERENCES players (id);
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
CREATE INDEX games_by_white_player ON games (white_player, updated_at);
CREATE INDEX games_by_black_player ON games (black_player, updated_at);
