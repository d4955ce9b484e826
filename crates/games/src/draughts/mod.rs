//! Draughts on square boards: Scandinavian checkers, International draughts, English checkers.
