// Turning clicks on cells into one of the legal moves the server sent. No rules live here: a
// move is only ever one of the moves given, each with the cells it is clicked through.

/** The cells a person clicks for a move, in order: from, each via, to. */
export function clickPath(move) {
  const path = [];
  if (move.from !== null && move.from !== undefined) path.push(move.from);
  for (const cell of move.via || []) path.push(cell);
  if (move.to !== null && move.to !== undefined) path.push(move.to);
  return path;
}

/**
 * Turns clicks into a legal move. `path` holds the cells clicked so far; a move matches while
 * its click path starts with them. A move is played as soon as it is the only one left and
 * complete; when several complete moves remain (they differ by `choice`, or one ends where
 * another goes on), they are offered as buttons.
 */
export class MoveInput {
  constructor(moves) {
    this.moves = Array.isArray(moves) ? moves : [];
    this.path = [];
  }

  reset() {
    this.path = [];
  }

  /** Moves with nothing to click (a pass): always offered as buttons. */
  buttonMoves() {
    return this.moves.filter((m) => clickPath(m).length === 0);
  }

  matching(path) {
    return this.moves.filter((m) => {
      const p = clickPath(m);
      return p.length >= path.length && p.length > 0 && path.every((c, i) => p[i] === c);
    });
  }

  /** Cells where a move can start (pieces to pick up, or placement targets). */
  startCells() {
    const cells = new Set();
    for (const m of this.moves) {
      const p = clickPath(m);
      if (p.length) cells.add(p[0]);
    }
    return cells;
  }

  /** Cells that continue the current selection. */
  targets() {
    if (!this.path.length) return new Set();
    const cells = new Set();
    for (const m of this.matching(this.path)) {
      const p = clickPath(m);
      if (p.length > this.path.length) cells.add(p[this.path.length]);
    }
    return cells;
  }

  /** Complete moves for the current selection when the person must choose between them. */
  choices() {
    if (!this.path.length) return [];
    return this.matching(this.path).filter((m) => clickPath(m).length === this.path.length);
  }

  /**
   * A click on `cell`. Returns the move to play, or null (the selection changed or was
   * cleared).
   */
  click(cell) {
    if (this.path.length === 1 && this.path[0] === cell) {
      this.path = [];
      return null;
    }
    let next = [...this.path, cell];
    let found = this.matching(next);
    if (!found.length && this.path.length) {
      // Not a continuation: maybe the start of another move (picking another piece).
      next = [cell];
      found = this.matching(next);
    }
    if (!found.length) {
      this.path = [];
      return null;
    }
    this.path = next;
    const complete = found.filter((m) => clickPath(m).length === next.length);
    if (complete.length === 1 && found.length === 1) {
      this.path = [];
      return complete[0];
    }
    return null;
  }
}
