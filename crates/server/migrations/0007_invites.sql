-- An invite link is claimed once: the claimant gets a fresh token for the seat (its hash
-- replaces the invite's in `*_token_hash`) and the invite's hash moves here, so that the used
-- link is refused with a clear message. NULL: the seat was never claimed through an invite.
ALTER TABLE games ADD COLUMN white_invite_hash TEXT;
ALTER TABLE games ADD COLUMN black_invite_hash TEXT;
