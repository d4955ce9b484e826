-- The open challenges not yet expired, which the lobby reads on every look. A challenge that
-- expires keeps its status `open`, so without this index every look would read through all the
-- challenges that ever expired.
CREATE INDEX challenges_open ON challenges (status, expires_at);
