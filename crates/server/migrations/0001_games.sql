-- Games and their moves. Times are Unix milliseconds; a game's state is its start position and
-- its moves, replayed through the rules when it is loaded. `version` counts the writes to a game:
-- every write names the version it read, so servers sharing one database never overwrite each
-- other.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    start_position TEXT,
    white_kind TEXT NOT NULL,
    white_level BIGINT,
    white_token TEXT,
    black_kind TEXT NOT NULL,
    black_level BIGINT,
    black_token TEXT,
    result TEXT NOT NULL,
    termination TEXT,
    draw_offer TEXT,
    seed BIGINT NOT NULL,
    version BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE INDEX games_by_update ON games (updated_at);

CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games (id),
    ply BIGINT NOT NULL,
    text TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
