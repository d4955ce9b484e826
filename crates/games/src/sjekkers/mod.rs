//! Sjekkers (Fred Horn, 1982) on the 61-crossing hexagonal board.
