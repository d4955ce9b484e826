-- Whole-game analyses: every position of a game searched once and every move judged. An
-- analysis is keyed by what it analyses (ruleset, board, start, moves and strength), so a game
-- asked for twice is analysed once. A server claims an analysis to run it and renews its claim
-- after every position; a claim not renewed for a minute is another server's to take over.
-- Times are Unix milliseconds.
CREATE TABLE game_analyses (
    id TEXT PRIMARY KEY,
    -- The server's game analysed, if the analysis is of one (else a game pasted in).
    game_id TEXT,
    ruleset TEXT NOT NULL,
    -- The start position's string (NULL: the ruleset's start) and the moves as a JSON array.
    start_position TEXT,
    moves TEXT NOT NULL,
    -- The address that asked, for the bound on analyses waiting per address.
    requested_by TEXT NOT NULL,
    requested_at BIGINT NOT NULL,
    claimed_by TEXT,
    claimed_at BIGINT,
    -- Positions searched so far by the server that holds the claim.
    done BIGINT NOT NULL DEFAULT 0,
    finished_at BIGINT,
    -- The analysis as JSON once finished, or why it failed.
    result TEXT,
    error TEXT
);
CREATE INDEX game_analyses_waiting ON game_analyses (finished_at, requested_at);
CREATE INDEX game_analyses_by_address ON game_analyses (requested_by, finished_at);
