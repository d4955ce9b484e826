-- Challenges in the lobby: a signed-in player offers a game; another accepts it, and the game
-- is made in the same transaction that marks the challenge accepted, so that of two players
-- accepting at once exactly one gets it. Times are Unix milliseconds.
CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players (id),
    ruleset TEXT NOT NULL,
    -- The clock as `games` stores it (NULL: untimed), and the rating category it gives.
    clock_kind TEXT,
    clock_main_ms BIGINT,
    clock_increment_ms BIGINT,
    category TEXT,
    rated BIGINT NOT NULL,
    -- `white`, `black` or `random`: the challenger's colour.
    colour TEXT NOT NULL,
    -- The only player who may accept it, if named.
    target_id TEXT REFERENCES players (id),
    -- `open`, `accepted` or `cancelled`.
    status TEXT NOT NULL,
    game_id TEXT,
    accepted_by TEXT REFERENCES players (id),
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX challenges_by_status ON challenges (status, updated_at);
CREATE INDEX challenges_by_player ON challenges (player_id, status);
