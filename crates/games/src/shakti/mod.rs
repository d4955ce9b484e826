//! Shakti (Christian Freeling, 1982).
