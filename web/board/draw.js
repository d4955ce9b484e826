// One SVG drawing for every board description. No game lives here: the cells, lines and labels
// come from the board description, every colour from its legend (each cell's style's fill, the
// shared palette), the position from `pieces` and `absent`. The stylesheet adds only what is not
// the board's own look: the selection, the last move, the destinations.

import { clickPath } from './input.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const MARGIN_LEFT = 0.55; // room for the rank labels
const MARGIN_BOTTOM = 0.55; // room for the file labels
const MARGIN_EDGE = 0.12; // top and right
const PIECE_RADIUS = 0.39;
const RING_RADIUS = 0.3; // the inner ring of a crowned piece
const TILE_SCALE = 0.92; // a tile's side, in cells: the gap shows the frame
const OWNER_MARK = 0.1; // the radius of the owner's disc on a split tile
// The rings that mark a point (radius and width, in cells), between a piece's edge (0.41) and
// half the distance to the nearest point (0.5): the last move's outside, the selection's and
// the hint's inside it, so that a point marked twice shows both.
export const POINT_RINGS = {
  last: { r: 0.47, width: 0.05 },
  selected: { r: 0.43, width: 0.05 },
  hint: { r: 0.43, width: 0.05 },
};

export function esc(text) {
  return String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** ` name="value"`, or nothing when there is no value. */
export function attr(name, value) {
  return value === undefined || value === null || value === '' ? '' : ` ${name}="${esc(value)}"`;
}

/** The legend's parts, empty where the board description has no legend. */
export function legendOf(board) {
  const legend = (board && board.legend) || {};
  let palette = legend.palette || {};
  // Where the first player's pieces are the dark ones (English checkers), the seats swap colours.
  if (legend.first_player_dark) {
    palette = {
      ...palette,
      white_piece: palette.black_piece,
      white_ink: palette.black_ink,
      black_piece: palette.white_piece,
      black_ink: palette.white_ink,
    };
  }
  return {
    cells: Array.isArray(legend.cells) ? legend.cells : [],
    absent: legend.absent || null,
    pieces: Array.isArray(legend.pieces) ? legend.pieces : [],
    palette,
  };
}

/** A piece's fill and ink from the palette; pieces of nobody (stones) take the stone colours. */
export function pieceColours(palette, owner, style) {
  if (style && style.neutral) return { fill: palette.stone, ink: palette.stone_ink };
  return owner === 'black'
    ? { fill: palette.black_piece, ink: palette.black_ink }
    : { fill: palette.white_piece, ink: palette.white_ink };
}

/**
 * A tile covering the cell centred at (cx, cy), `size` cell units wide: in its owner's colour, or
 * split into White's colour and Black's half (the legend's `dark_half`, turned by the signs `sx`
 * and `sy` as the board is mirrored or turned round) with a small disc of its owner's colour at
 * the centre, since both players' split tiles show both colours.
 */
export function tileShape(palette, owner, style, cx, cy, sx = 1, sy = 1, size = TILE_SCALE) {
  const { fill, ink } = pieceColours(palette, owner, style);
  const r = (n) => Math.round(n * 1000) / 1000;
  const half = style && Array.isArray(style.dark_half) && style.dark_half.length >= 3 ? style.dark_half : null;
  const box = `x="${r(cx - size / 2)}" y="${r(cy - size / 2)}" width="${r(size)}" height="${r(size)}"`;
  let out = `<rect class="tile${half ? ' split' : ' solid'}" ${box}${attr('fill', half ? palette.white_piece : fill)}${attr('stroke', palette.piece_edge)}/>`;
  if (half) {
    const points = half.map(([x, y]) => `${r(cx + sx * Number(x) * size)},${r(cy + sy * Number(y) * size)}`).join(' ');
    out += `<polygon class="tile-dark" points="${points}"${attr('fill', palette.black_piece)}/>`;
    out += `<circle class="owner-mark" cx="${r(cx)}" cy="${r(cy)}" r="${OWNER_MARK}"${attr('fill', fill)}${attr('stroke', ink)}/>`;
  }
  return out;
}

/**
 * A piece as SVG at (cx, cy): its body in the legend's shape (a disc, two stacked discs, or the
 * polygon `outline` in units of the piece's radius; triangles point away from their owner, so
 * Black's point down unless the board is `flipped`), a ring inside if crowned, and its emblem in
 * its owner's ink: the legend's figure (`emblem_path`) or text (`emblem_text`). `style` is the
 * piece's legend entry, or undefined for a plain disc bearing `letter`.
 */
export function pieceShape(palette, owner, letter, style, cx, cy, flipped = false) {
  if (style && style.fills_cell) return tileShape(palette, owner, style, cx, cy, flipped ? -1 : 1, flipped ? -1 : 1);
  const { fill, ink } = pieceColours(palette, owner, style);
  const shape = (style && style.shape) || 'disc';
  const round = (n) => Math.round(n * 1000) / 1000;
  const paint = `${attr('fill', fill)}${attr('stroke', palette.piece_edge)}`;
  // The face that bears the ring and the emblem: a stacked piece's upper disc sits higher.
  const lift = shape === 'stacked' ? round(PIECE_RADIUS * 0.12) : 0;
  const face = round(cy - lift);
  let body = `<circle class="disc" cx="${cx}" cy="${cy}" r="${PIECE_RADIUS}"${paint}/>`;
  if (shape === 'stacked') {
    body =
      `<circle class="disc under" cx="${cx}" cy="${round(cy + lift)}" r="${PIECE_RADIUS}"${paint}/>` +
      `<circle class="disc" cx="${cx}" cy="${face}" r="${PIECE_RADIUS}"${paint}/>`;
  } else if (style && Array.isArray(style.outline) && style.outline.length >= 3) {
    // A triangle points away from its owner, whichever side is at the bottom.
    const flip = shape === 'triangle' && (owner === 'black') !== flipped ? -1 : 1;
    const points = style.outline
      .map(([x, y]) => `${round(cx + Number(x) * PIECE_RADIUS)},${round(cy + flip * Number(y) * PIECE_RADIUS)}`)
      .join(' ');
    body = `<polygon class="disc ${esc(shape)}" points="${points}"${paint}/>`;
  }
  const text = style ? style.emblem_text : letter;
  return (
    body +
    (shape === 'crowned' ? `<circle class="ring" cx="${cx}" cy="${face}" r="${RING_RADIUS}" fill="none"${attr('stroke', ink)}/>` : '') +
    (style && style.emblem_path
      ? `<path class="emblem ${esc(style.emblem || '')}" d="${esc(style.emblem_path)}" transform="translate(${cx} ${face}) scale(${PIECE_RADIUS})"${attr('fill', ink)}/>`
      : '') +
    (text ? `<text x="${cx}" y="${round(face + 0.015)}"${attr('fill', ink)}>${esc(String(text).toUpperCase())}</text>` : '')
  );
}

/**
 * An empty board <svg> element that reports clicked cell indices to `onCell`, and the cell under
 * the pointer (null when it leaves the cells) to `onHover`.
 */
export function createSvg(onCell, onHover = null) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('xmlns', SVG_NS);
  const cellOf = (event) => {
    const el = event.target.closest && event.target.closest('[data-cell]');
    if (!el || !svg.contains(el)) return null;
    const index = Number(el.dataset.index);
    return Number.isInteger(index) ? index : null;
  };
  svg.addEventListener('click', (event) => {
    const index = cellOf(event);
    if (index !== null) onCell(index);
  });
  if (onHover) {
    svg.addEventListener('pointerover', (event) => onHover(cellOf(event)));
    svg.addEventListener('pointerleave', () => onHover(null));
  }
  return svg;
}

/**
 * Draws a board into `svg` (its content is replaced).
 *
 * options: {
 *   board: {cells, lines, width, height, row_labels, column_labels, legend},
 *   pieces: [{cell, owner, kind, letter}], absent: [cell],
 *   flip: bool (Black at the bottom),
 *   mirror: bool (the board seen from its back: left and right exchanged; `pieces` and
 *     `highlights` are given in front coordinates),
 *   lastMove: {from, via, to, captured, removed} | null,
 *   selected: [cell], targets: Set|[cell], movable: Set|[cell] (pieces on them are ringed),
 *   mustCapture: bool (every legal move captures: the movable pieces are ringed as due),
 *   preview: {cell, owner, kind} | null, a piece shown faintly before it is placed,
 *   highlights: [{owner, label, parts: [[[x, y], ...]], outline: [[x1, y1, x2, y2]]}], regions
 *     pointed out over the pieces, in board coordinates,
 *   names: bool (every cell's name written in its corner, over the pieces),
 *   hint: a move whose cells are marked as suggested, or null,
 *   cursor: the cell the keyboard's cursor is on, or null,
 * }
 */
export function drawBoard(svg, options) {
  const { board } = options;
  const cells = board.cells || [];
  const W = Number(board.width) || 1;
  const H = Number(board.height) || 1;
  const flip = Boolean(options.flip);
  // Turned round, both axes run the other way; seen from the back, x does too (again).
  const flipX = flip !== Boolean(options.mirror);
  const sx = flipX ? -1 : 1;
  const sy = flip ? -1 : 1;
  const X = (x) => (flipX ? W - x : x);
  const Y = (y) => (flip ? H - y : y);
  const absent = new Set(options.absent || []);
  const selected = new Set(options.selected || []);
  const targets = new Set(options.targets || []);
  const movable = new Set(options.movable || []);
  const occupied = new Map();
  for (const p of options.pieces || []) occupied.set(p.cell, p);
  const legend = legendOf(board);
  const palette = legend.palette;
  const fills = new Map(legend.cells.map((s) => [s.class, s.fill]));
  const plainFill = legend.cells.length ? legend.cells[0].fill : undefined;
  const styles = new Map(legend.pieces.map((p) => [p.kind, p]));

  const centre = (i) => {
    const c = cells[i];
    if (!c) return [0, 0];
    return [X(Number(c.x) + 0.5), Y(Number(c.y) + 0.5)];
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
  // The board's proportions, for the stylesheet to fit it to the screen.
  svg.style.setProperty('--aspect', String(r2(vbW / vbH)));
  svg.classList.add('board');
  svg.classList.toggle('flipped', flip);
  svg.classList.toggle('mirrored', Boolean(options.mirror));

  const out = [];
  out.push(`<rect class="board-bg" x="${r2(vbX)}" y="${r2(vbY)}" width="${r2(vbW)}" height="${r2(vbH)}"${attr('fill', palette.background)}/>`);

  // Cells: squares (or holes where the cell is out of play), then the lines between points, then
  // the points themselves, so that every cell is one clickable element carrying data-cell.
  const squares = [];
  const points = [];
  cells.forEach((c, i) => {
    const [cx, cy] = centre(i);
    const name = esc(c.name);
    const extra = `${movable.has(i) ? ' movable' : ''}${targets.has(i) ? ' target' : ''}`;
    const data = `data-cell="${name}" data-index="${i}"${attr('data-style', c.style)}`;
    const box = `x="${r2(cx - 0.5)}" y="${r2(cy - 0.5)}" width="1" height="1"`;
    if (c.shape === 'point') {
      points.push(
        `<g class="cell pt${absent.has(i) ? ' hole' : ''}${extra}" ${data}>` +
          `<title>${name}</title>` +
          `<rect class="hit" ${box}/>` +
          (absent.has(i) ? '' : `<circle class="dot" cx="${r2(cx)}" cy="${r2(cy)}" r="0.09"${attr('fill', palette.line)}/>`) +
          `</g>`,
      );
    } else if (absent.has(i)) {
      squares.push(`<rect class="cell hole${extra}" ${data} ${box}${attr('fill', palette.absent)}${attr('stroke', palette.edge)}><title>${name}</title></rect>`);
    } else {
      const fill = fills.get(c.style) ?? plainFill;
      squares.push(`<rect class="cell sq${extra}" ${data} ${box}${attr('fill', fill)}${attr('stroke', palette.edge)}><title>${name}</title></rect>`);
    }
  });
  out.push(`<g class="cells">${squares.join('')}</g>`);
  if (board.lines && board.lines.length) {
    const lines = board.lines
      .map(([a, b]) => {
        const [x1, y1] = centre(a);
        const [x2, y2] = centre(b);
        const gone = absent.has(a) || absent.has(b) ? ' gone' : '';
        return `<line class="link${gone}" x1="${r2(x1)}" y1="${r2(y1)}" x2="${r2(x2)}" y2="${r2(y2)}"${attr('stroke', palette.line)}/>`;
      })
      .join('');
    out.push(`<g class="lines">${lines}</g>`);
  }
  if (points.length) out.push(`<g class="points">${points.join('')}</g>`);

  // Marks under the pieces: the last move, the selection, the hint, and over them what the last
  // move took away. Their colours are the palette's (chosen against every board's cells, see the
  // legend's mark_clashes): a square is tinted, a point is ringed (POINT_RINGS) so that the
  // marks of neighbouring points, the lines and the cross stay clear of each other.
  const marks = [];
  const over = []; // rings drawn over the pieces and the rings of pieces that can move
  const mark = (i, klass, colour, layer = marks) => {
    if (!colour || !cells[i]) return;
    const [cx, cy] = centre(i);
    if (cells[i].shape === 'point') {
      const ring = POINT_RINGS[klass];
      // The ring in the colour made opaque (#rrggbb of #rrggbbaa).
      const opaque = /^#[0-9a-f]{8}$/i.test(colour) ? colour.slice(0, 7) : colour;
      layer.push(`<circle class="mark ${klass} ring" cx="${r2(cx)}" cy="${r2(cy)}" r="${ring.r}" stroke-width="${ring.width}" fill="none"${attr('stroke', opaque)}/>`);
    } else {
      marks.push(`<rect class="mark ${klass}" x="${r2(cx - 0.5)}" y="${r2(cy - 0.5)}" width="1" height="1"${attr('fill', colour)}/>`);
    }
  };
  const last = options.lastMove;
  if (last) for (const i of clickPath(last)) mark(i, 'last', palette.last_move);
  for (const i of selected) mark(i, 'selected', palette.selected);
  // A hint's ring goes over the ring that says its piece can move.
  if (options.hint) for (const i of clickPath(options.hint)) mark(i, 'hint', palette.hint, over);
  if (last) {
    for (const i of [...(last.captured || []), ...(last.removed || [])]) {
      if (!cells[i]) continue;
      const [cx, cy] = centre(i);
      const d = 0.13;
      marks.push(
        `<path class="mark taken" d="M${r2(cx - d)} ${r2(cy - d)}L${r2(cx + d)} ${r2(cy + d)}M${r2(cx + d)} ${r2(cy - d)}L${r2(cx - d)} ${r2(cy + d)}"/>`,
      );
    }
  }
  if (options.cursor !== null && options.cursor !== undefined && cells[options.cursor]) {
    const [cx, cy] = centre(options.cursor);
    marks.push(`<rect class="mark cursor" x="${r2(cx - 0.5)}" y="${r2(cy - 0.5)}" width="1" height="1"/>`);
  }
  out.push(`<g class="marks">${marks.join('')}</g>`);

  // Pieces: their shapes bearing their emblems, a ring inside the crowned ones.
  const pieces = [];
  for (const p of options.pieces || []) {
    const c = cells[p.cell];
    if (!c) continue;
    const [cx, cy] = centre(p.cell);
    const owner = p.owner === 'black' ? 'black' : 'white';
    const letter = String(p.letter || '?').toUpperCase();
    const style = styles.get(p.kind);
    pieces.push(
      `<g class="piece ${owner}${selected.has(p.cell) ? ' lifted' : ''}" data-piece="${esc(p.letter)}" data-owner="${owner}" data-kind="${esc(p.kind)}" data-at="${esc(c.name)}">` +
        (style && style.fills_cell
          ? tileShape(palette, owner, style, r2(cx), r2(cy), sx, sy)
          : pieceShape(palette, owner, letter, style, r2(cx), r2(cy), flip)) +
        `</g>`,
    );
  }
  // The piece a placement would put down, faintly, before it is made.
  const preview = options.preview;
  if (preview && cells[preview.cell] && !occupied.has(preview.cell)) {
    const [cx, cy] = centre(preview.cell);
    const owner = preview.owner === 'black' ? 'black' : 'white';
    const style = styles.get(preview.kind);
    const letter = String(preview.letter || (style && style.letter) || '?').toUpperCase();
    pieces.push(
      `<g class="piece preview ${owner}" data-owner="${owner}" data-kind="${esc(preview.kind)}" data-preview-at="${esc(cells[preview.cell].name)}">` +
        (style && style.fills_cell
          ? tileShape(palette, owner, style, r2(cx), r2(cy), sx, sy)
          : pieceShape(palette, owner, letter, style, r2(cx), r2(cy), flip)) +
        `</g>`,
    );
  }
  out.push(`<g class="pieces">${pieces.join('')}</g>`);

  // Highlighted regions over the pieces: a tint over the parts and the outline around them.
  const lit = [];
  for (const h of options.highlights || []) {
    const owner = h.owner === 'black' ? 'black' : 'white';
    const colour = owner === 'black' ? palette.black_highlight : palette.white_highlight;
    const area = (h.parts || [])
      .filter((part) => Array.isArray(part) && part.length >= 3)
      .map((part) => part.map(([x, y], k) => `${k ? 'L' : 'M'}${r2(X(Number(x)))} ${r2(Y(Number(y)))}`).join('') + 'Z')
      .join('');
    const edges = (h.outline || []).map(([x1, y1, x2, y2]) => `M${r2(X(x1))} ${r2(Y(y1))}L${r2(X(x2))} ${r2(Y(y2))}`).join('');
    lit.push(
      `<g class="highlight ${owner}" data-owner="${owner}" data-value="${esc(h.value ?? 1)}">` +
        `<title>${esc(h.label || '')}</title>` +
        `<path class="area" d="${area}"${attr('fill', colour)}/>` +
        `<path class="edge" d="${edges}"${attr('stroke', colour)}/>` +
        `</g>`,
    );
  }
  if (lit.length) out.push(`<g class="highlights">${lit.join('')}</g>`);

  // Markings printed on the cells (Schada's paths): dots along each path, over the pieces.
  if (Array.isArray(board.marks) && board.marks.length) {
    const marks = [];
    for (const m of board.marks) {
      if (!cells[m.cell] || !Array.isArray(m.points)) continue;
      const [cx, cy] = centre(m.cell);
      const pts = m.points.map(([x, y]) => [r2(cx + sx * Number(x)), r2(cy + sy * Number(y))]);
      const d = `M${r2(cx)} ${r2(cy)}` + pts.map(([x, y]) => `L${x} ${y}`).join('');
      marks.push(`<path class="path-line" d="${d}"${attr('stroke', palette.line)}/>`);
      for (const [x, y] of pts) marks.push(`<circle class="path-dot" cx="${x}" cy="${y}" r="0.035"${attr('fill', palette.line)}/>`);
    }
    out.push(`<g class="cell-marks">${marks.join('')}</g>`);
  }

  // Destinations of the selected piece: a dot on an empty cell, a ring around a piece; and
  // the pieces that can move, ringed (as due when every move captures). Each mark is drawn
  // twice, light under dark, so that it shows on light and dark squares alike.
  const dests = [];
  const twoTone = (klass, cx, cy, r) =>
    `<circle class="${klass} halo" cx="${r2(cx)}" cy="${r2(cy)}" r="${r}"/><circle class="${klass}" cx="${r2(cx)}" cy="${r2(cy)}" r="${r}"/>`;
  for (const i of movable) {
    if (!occupied.has(i)) continue;
    const [cx, cy] = centre(i);
    dests.push(twoTone(`can-move${options.mustCapture ? ' must' : ''}`, cx, cy, 0.46));
  }
  for (const i of targets) {
    const [cx, cy] = centre(i);
    if (occupied.has(i)) {
      dests.push(twoTone('dest capture', cx, cy, 0.45));
    } else {
      dests.push(twoTone('dest', cx, cy, 0.16));
    }
  }
  out.push(`<g class="dests">${dests.join('')}</g>`);
  if (over.length) out.push(`<g class="marks over">${over.join('')}</g>`);

  // Coordinates from the board description: labels beside the rows and under the columns.
  const labels = [];
  const ink = attr('fill', palette.edge);
  for (const { at, text } of board.column_labels || []) {
    const x = flipX ? W - 1 - at : at;
    labels.push(`<text class="coord file" x="${r2(x + 0.5)}" y="${r2(H + MARGIN_BOTTOM / 2)}"${ink}>${esc(text)}</text>`);
  }
  for (const { at, text } of board.row_labels || []) {
    const y = flip ? H - 1 - at : at;
    labels.push(`<text class="coord rank" x="${r2(-MARGIN_LEFT / 2)}" y="${r2(y + 0.5)}"${ink}>${esc(text)}</text>`);
  }
  out.push(`<g class="coords">${labels.join('')}</g>`);

  // Every cell's name, on request: in a square's top left corner, beside and below a point.
  // A board whose players number its squares (draughts' 1 to 50) shows the numbers instead.
  if (options.names) {
    const numbered = hasNumbers(board);
    const names = cells.map((c, i) => {
      const text = numbered ? c.number : c.name;
      if (text === null || text === undefined) return '';
      const [cx, cy] = centre(i);
      const [x, y] = c.shape === 'point' ? [cx + 0.12, cy + 0.3] : [cx - 0.46, cy - 0.36];
      return `<text class="cell-name${numbered ? ' number' : ''}" x="${r2(x)}" y="${r2(y)}">${esc(String(text))}</text>`;
    });
    out.push(`<g class="cell-names">${names.join('')}</g>`);
  }

  svg.innerHTML = out.join('');
}

/** Whether the board's players number its cells (draughts' squares 1 to 50). */
export function hasNumbers(board) {
  return board.cells.some((c) => c.number !== null && c.number !== undefined);
}
