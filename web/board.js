// Denkmeter board: one SVG renderer for every board description, and the click logic that
// turns clicks on cells into one of the legal moves the server sent. No rules live here: the
// board is drawn from `board` (cells, lines, size), the position from `pieces` and `absent`, and
// a move is only ever one of `legal_moves`.

const SVG_NS = 'http://www.w3.org/2000/svg';
const MARGIN_LEFT = 0.55; // room for the rank labels
const MARGIN_BOTTOM = 0.55; // room for the file labels
const MARGIN_EDGE = 0.12; // top and right

function esc(text) {
  return String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** The letters and the digits of a cell name: `D12` -> ['D', '12'], `d4` -> ['d', '4']. */
export function nameParts(name) {
  const m = /^([^0-9]*)([0-9].*)?$/.exec(name);
  return m ? [m[1] || '', m[2] || ''] : [name, ''];
}

/** A class name made safe for an attribute. */
function cls(name) {
  return String(name).replace(/[^A-Za-z0-9_-]/g, '');
}

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

/**
 * Draws a board into `svg` (an <svg> element, whose content is replaced).
 *
 * options: {
 *   board: {cells, lines, width, height},
 *   pieces: [{cell, owner, kind, letter}], absent: [cell],
 *   flip: bool (Black at the bottom),
 *   lastMove: {from, via, to, captured, removed} | null,
 *   selected: [cell], targets: Set|[cell], movable: Set|[cell],
 * }
 */
export function renderBoard(svg, options) {
  const { board } = options;
  const cells = board.cells || [];
  const W = Number(board.width) || 1;
  const H = Number(board.height) || 1;
  const flip = Boolean(options.flip);
  const absent = new Set(options.absent || []);
  const selected = new Set(options.selected || []);
  const targets = new Set(options.targets || []);
  const movable = new Set(options.movable || []);
  const occupied = new Map();
  for (const p of options.pieces || []) occupied.set(p.cell, p);

  const centre = (i) => {
    const c = cells[i];
    if (!c) return [0, 0];
    const x = Number(c.x) + 0.5;
    const y = Number(c.y) + 0.5;
    return flip ? [W - x, H - y] : [x, y];
  };
  const r2 = (n) => Math.round(n * 1000) / 1000;

  const vbX = -MARGIN_LEFT;
  const vbY = -MARGIN_EDGE;
  const vbW = W + MARGIN_LEFT + MARGIN_EDGE;
  const vbH = H + MARGIN_BOTTOM + MARGIN_EDGE;
  svg.setAttribute('viewBox', `${r2(vbX)} ${r2(vbY)} ${r2(vbW)} ${r2(vbH)}`);
  svg.setAttribute('width', String(Math.round(vbW * 48)));
  svg.setAttribute('height', String(Math.round(vbH * 48)));
  svg.setAttribute('role', 'img');
  svg.classList.add('board');
  svg.classList.toggle('flipped', flip);

  const out = [];
  out.push(`<rect class="board-bg" x="${r2(vbX)}" y="${r2(vbY)}" width="${r2(vbW)}" height="${r2(vbH)}"/>`);

  // Cells: squares (or holes where the tile is gone), then the lines between points, then the
  // points themselves, so that every cell is one clickable element carrying data-cell.
  const squares = [];
  const points = [];
  cells.forEach((c, i) => {
    const [cx, cy] = centre(i);
    const name = esc(c.name);
    const classes = (c.classes || []).map(cls).join(' ');
    const extra = `${movable.has(i) ? ' movable' : ''}${targets.has(i) ? ' target' : ''}`;
    if (c.shape === 'point') {
      points.push(
        `<g class="cell pt${absent.has(i) ? ' hole' : ''} ${classes}${extra}" data-cell="${name}" data-index="${i}">` +
          `<title>${name}</title>` +
          `<rect class="hit" x="${r2(cx - 0.5)}" y="${r2(cy - 0.5)}" width="1" height="1"/>` +
          (absent.has(i) ? '' : `<circle class="dot" cx="${r2(cx)}" cy="${r2(cy)}" r="0.09"/>`) +
          `</g>`,
      );
    } else if (absent.has(i)) {
      squares.push(
        `<rect class="cell hole${extra}" data-cell="${name}" data-index="${i}" x="${r2(cx - 0.5)}" y="${r2(cy - 0.5)}" width="1" height="1"><title>${name}</title></rect>`,
      );
    } else {
      squares.push(
        `<rect class="cell sq ${classes}${extra}" data-cell="${name}" data-index="${i}" x="${r2(cx - 0.5)}" y="${r2(cy - 0.5)}" width="1" height="1"><title>${name}</title></rect>`,
      );
    }
  });
  out.push(`<g class="cells">${squares.join('')}</g>`);
  if (board.lines && board.lines.length) {
    const lines = board.lines
      .map(([a, b]) => {
        const [x1, y1] = centre(a);
        const [x2, y2] = centre(b);
        const gone = absent.has(a) || absent.has(b) ? ' gone' : '';
        return `<line class="link${gone}" x1="${r2(x1)}" y1="${r2(y1)}" x2="${r2(x2)}" y2="${r2(y2)}"/>`;
      })
      .join('');
    out.push(`<g class="lines">${lines}</g>`);
  }
  if (points.length) out.push(`<g class="points">${points.join('')}</g>`);

  // Marks under the pieces: the last move, what it took away, the selection.
  const marks = [];
  const square = (i, klass) => {
    const [cx, cy] = centre(i);
    return `<rect class="${klass}" x="${r2(cx - 0.5)}" y="${r2(cy - 0.5)}" width="1" height="1"/>`;
  };
  const last = options.lastMove;
  if (last) {
    for (const i of clickPath(last)) marks.push(square(i, 'mark last'));
    for (const i of [...(last.captured || []), ...(last.removed || [])]) {
      const [cx, cy] = centre(i);
      const d = 0.13;
      marks.push(
        `<path class="mark taken" d="M${r2(cx - d)} ${r2(cy - d)}L${r2(cx + d)} ${r2(cy + d)}M${r2(cx + d)} ${r2(cy - d)}L${r2(cx - d)} ${r2(cy + d)}"/>`,
      );
    }
  }
  for (const i of selected) marks.push(square(i, 'mark selected'));
  out.push(`<g class="marks">${marks.join('')}</g>`);

  // Pieces: discs with their letter.
  const pieces = [];
  for (const p of options.pieces || []) {
    const c = cells[p.cell];
    if (!c) continue;
    const [cx, cy] = centre(p.cell);
    const owner = p.owner === 'black' ? 'black' : 'white';
    const letter = String(p.letter || '?').toUpperCase();
    pieces.push(
      `<g class="piece ${owner} kind-${cls(p.kind)}${selected.has(p.cell) ? ' lifted' : ''}" data-piece="${esc(p.letter)}" data-owner="${owner}" data-kind="${esc(p.kind)}" data-at="${esc(c.name)}">` +
        `<circle cx="${r2(cx)}" cy="${r2(cy)}" r="0.39"/>` +
        `<text x="${r2(cx)}" y="${r2(cy + 0.015)}">${esc(letter)}</text>` +
        `</g>`,
    );
  }
  out.push(`<g class="pieces">${pieces.join('')}</g>`);

  // Destinations of the selected piece: a dot on an empty cell, a ring around a piece.
  const dests = [];
  for (const i of targets) {
    const [cx, cy] = centre(i);
    if (occupied.has(i)) {
      dests.push(`<circle class="dest capture" cx="${r2(cx)}" cy="${r2(cy)}" r="0.45"/>`);
    } else {
      dests.push(`<circle class="dest" cx="${r2(cx)}" cy="${r2(cy)}" r="0.16"/>`);
    }
  }
  out.push(`<g class="dests">${dests.join('')}</g>`);

  // Coordinates from the board description: labels beside the rows and under the columns.
  const labels = [];
  for (const { at, text } of board.column_labels || []) {
    const x = flip ? W - 1 - at : at;
    labels.push(`<text class="coord file" x="${r2(x + 0.5)}" y="${r2(H + MARGIN_BOTTOM / 2)}">${esc(text)}</text>`);
  }
  for (const { at, text } of board.row_labels || []) {
    const y = flip ? H - 1 - at : at;
    labels.push(`<text class="coord rank" x="${r2(-MARGIN_LEFT / 2)}" y="${r2(y + 0.5)}">${esc(text)}</text>`);
  }
  out.push(`<g class="coords">${labels.join('')}</g>`);

  svg.innerHTML = out.join('');
}

/** Creates an empty board <svg> element that reports clicked cell indices to `onCell`. */
export function createBoardElement(onCell) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('xmlns', SVG_NS);
  svg.addEventListener('click', (event) => {
    const el = event.target.closest('[data-cell]');
    if (!el || !svg.contains(el)) return;
    const index = Number(el.dataset.index);
    onCell(Number.isInteger(index) ? index : el.getAttribute('data-cell'));
  });
  return svg;
}
