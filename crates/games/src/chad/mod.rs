//! Chad (Christian Freeling, 1979).
