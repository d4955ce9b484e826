-- Servers sharing one database (PostgreSQL) and who wrote each game last. The server that
-- stores a game's write also searches the computer's reply, so `written_by` names the server
-- whose search a game waits for. A server renews its row (`seen_at`, Unix milliseconds) every
-- few seconds while it runs: a game whose writer is this server (an earlier run of it, after a
-- restart) or a server whose row is no longer renewed is taken over at once; only a live
-- other server's search is waited for. NULL: written before this migration.
ALTER TABLE games ADD COLUMN written_by TEXT;
CREATE TABLE servers (
    id TEXT PRIMARY KEY,
    seen_at BIGINT NOT NULL
);
