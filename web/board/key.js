// A board's key, made from its legend: a swatch and the words of every kind of square the board
// uses, what a cell out of play means, and each piece's letter with its name.

import { attr, esc, legendOf, pieceShape } from './draw.js';

const swatch = (inner) => `<svg class="key-swatch" viewBox="0 0 1 1" aria-hidden="true">${inner}</svg>`;

/** The key's HTML for a board description (empty when the legend says nothing worth a key). */
export function keyHtml(board) {
  const legend = legendOf(board);
  const palette = legend.palette;
  const squares = (board.cells || []).filter((c) => c.shape !== 'point');
  const used = new Set(squares.map((c) => c.style));
  const items = [];
  const seen = new Set();
  for (const style of legend.cells) {
    if (!used.has(style.class)) continue;
    // Styles that differ only by owner (the same fill and words) are one entry.
    const key = `${style.fill}|${style.words}`;
    if (seen.has(key)) continue;
    seen.add(key);
    items.push(
      `<li class="key-cell">${swatch(`<rect x="0.05" y="0.05" width="0.9" height="0.9"${attr('fill', style.fill)}${attr('stroke', palette.edge)}/>`)}` +
        `<span>${esc(style.words)}</span></li>`,
    );
  }
  if (legend.absent && squares.length) {
    items.push(
      `<li class="key-cell">${swatch(`<rect class="hole" x="0.05" y="0.05" width="0.9" height="0.9"${attr('fill', palette.absent)}${attr('stroke', palette.edge)}/>`)}` +
        `<span>${esc(legend.absent)}</span></li>`,
    );
  }
  for (const piece of legend.pieces) {
    const letter = String(piece.letter || '?').toUpperCase();
    items.push(
      `<li class="key-piece">${swatch(`<g class="piece">${pieceShape(palette, 'white', letter, piece, 0.5, 0.5)}</g>`)}` +
        `<span>${esc(piece.kind)}</span></li>`,
    );
  }
  if (!items.length) return '';
  return `<ul class="board-key" aria-label="Key">${items.join('')}</ul>`;
}
