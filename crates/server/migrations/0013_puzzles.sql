-- Puzzles: the puzzles themselves ship with the server (puzzles/*.jsonl); the database keeps
-- their Glicko-2 ratings, each signed-in player's puzzle rating, and every player's first
-- attempt at each puzzle, the one that counts. Times are Unix milliseconds.
CREATE TABLE puzzle_ratings (
    puzzle_id TEXT PRIMARY KEY,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL,
    solved BIGINT NOT NULL
);

CREATE TABLE puzzle_players (
    player_id TEXT PRIMARY KEY REFERENCES players (id),
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL,
    solved BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- `solved`: 1 solved, 0 failed, -1 begun (a right move made) and not yet ended.
CREATE TABLE puzzle_attempts (
    player_id TEXT NOT NULL REFERENCES players (id),
    puzzle_id TEXT NOT NULL,
    solved BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (player_id, puzzle_id)
);
