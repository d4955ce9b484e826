// The board component. It knows no game and no server: it is created on an element with a board
// description and a move callback, and shown a position with set(). It owns what happens between
// the person and the legal moves it was given: selection by click or tap, the destinations, the
// buttons for moves that differ only by a choice (or have no cell to click), and the optimistic
// move (shown at once, taken back if the callback's promise is refused).
//
//   const board = createBoard(element, { board, orientation: 'white', onMove: (text) => promise });
//   board.set({ position, pieces, absent, lastMove, moves, canMove, orientation });
//   board.destroy();

import { createSvg, drawBoard, esc } from './draw.js';
import { MoveInput } from './input.js';
import { keyHtml } from './key.js';

/**
 * Creates a board in `element` (its content is replaced).
 *
 * config: {
 *   board: the board description of the API (cells, lines, labels, width, height, legend),
 *   orientation: 'white' | 'black', the side at the bottom,
 *   onMove: (text) => Promise, called with the text of a legal move the person made; a rejected
 *     promise takes the move back.
 * }
 */
export function createBoard(element, config) {
  return new Board(element, config);
}

export class Board {
  constructor(element, { board, orientation = 'white', onMove = null } = {}) {
    this.element = element;
    this.board = board;
    this.onMove = onMove;
    this.state = { position: null, pieces: [], absent: [], lastMove: null, moves: [], canMove: false, orientation };
    this.input = new MoveInput([]);
    this.pending = null; // {move, position}: a move sent and not yet answered
    this.destroyed = false;

    element.classList.add('board-box');
    element.innerHTML = `<div class="board-wrap"></div><div class="choices" hidden></div>${keyHtml(board)}`;
    this.choices = element.querySelector('.choices');
    this.svg = createSvg((cell) => this.click(cell));
    element.querySelector('.board-wrap').appendChild(this.svg);
    this.choices.addEventListener('click', (e) => {
      const button = e.target.closest('button[data-move]');
      if (button) {
        const move = (this.state.moves || []).find((m) => m.text === button.dataset.move);
        if (move) this.play(move);
      } else if (e.target.closest('button[data-cancel]')) {
        this.cancel();
      }
    });
    this.onKey = (e) => {
      if (e.key !== 'Escape' || (e.target && /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName))) return;
      this.cancel();
    };
    document.addEventListener('keydown', this.onKey);
    this.render();
  }

  /**
   * Shows a view; fields left out keep their value.
   *
   * view: {
   *   position: a key that changes when the position does (a new one clears the selection and
   *     ends an optimistic move made on another position),
   *   pieces: [{cell, owner, kind, letter}], absent: [cell],
   *   lastMove: {from, via, to, captured, removed} | null,
   *   moves: the legal moves, [{text, from, via, to, choice, captured}],
   *   canMove: whether the person may move now,
   *   orientation: 'white' | 'black',
   * }
   */
  set(view = {}) {
    const s = this.state;
    const newPosition = 'position' in view && view.position !== s.position;
    Object.assign(s, view);
    if (newPosition) {
      this.input.reset();
      if (this.pending && this.pending.position !== s.position) this.pending = null;
    }
    if ('moves' in view) {
      const path = this.input.path;
      this.input = new MoveInput(s.moves || []);
      this.input.path = path;
      if (path.length && !this.input.matching(path).length) this.input.reset();
    }
    this.render();
  }

  /** Drops the selection. */
  cancel() {
    this.input.reset();
    this.render();
  }

  destroy() {
    this.destroyed = true;
    document.removeEventListener('keydown', this.onKey);
    this.element.innerHTML = '';
    this.element.classList.remove('board-box');
  }

  /** Whether clicks make moves now. */
  interactive() {
    return Boolean(this.state.canMove) && !this.pending && typeof this.onMove === 'function' && !this.destroyed;
  }

  click(cell) {
    if (!this.interactive()) return;
    const move = this.input.click(cell);
    if (move) this.play(move);
    else this.render();
  }

  /** Plays a move: shows it at once, and takes it back if the callback refuses it. */
  async play(move) {
    if (!this.interactive()) return;
    this.input.reset();
    const pending = { move, position: this.state.position };
    this.pending = pending;
    this.render();
    try {
      await this.onMove(move.text);
    } catch {
      // Refused: the move is taken back below (the caller says why).
    }
    if (this.pending === pending) this.pending = null;
    this.render();
  }

  render() {
    if (this.destroyed) return;
    const s = this.state;
    const live = this.interactive();
    let pieces = s.pieces || [];
    let lastMove = s.lastMove;
    const mv = this.pending && this.pending.move;
    if (mv && mv.from !== null && mv.from !== undefined && mv.to !== null && mv.to !== undefined) {
      pieces = pieces
        .filter((p) => p.cell !== mv.to && !(mv.captured || []).includes(p.cell))
        .map((p) => (p.cell === mv.from ? { ...p, cell: mv.to } : p));
      lastMove = mv;
    }
    drawBoard(this.svg, {
      board: this.board,
      pieces,
      absent: s.absent,
      flip: s.orientation === 'black',
      lastMove,
      selected: live ? this.input.path : [],
      targets: live ? this.input.targets() : [],
      movable: live && !this.input.path.length ? this.input.startCells() : [],
    });
    this.svg.classList.toggle('interactive', live && (s.moves || []).length > 0);

    // Buttons for choices between complete moves and for moves without cells (a pass).
    const buttons = [];
    if (live) {
      const pending = this.input.choices();
      if (pending.length) {
        buttons.push('<span class="small">Choose:</span>');
        for (const m of pending) buttons.push(`<button type="button" class="primary" data-move="${esc(m.text)}">${esc(m.choice || m.text)}</button>`);
        buttons.push('<button type="button" data-cancel="1">Cancel</button>');
      }
      for (const m of this.input.buttonMoves()) {
        buttons.push(`<button type="button" data-move="${esc(m.text)}">${esc(m.text)}</button>`);
      }
    }
    this.choices.innerHTML = buttons.join(' ');
    this.choices.hidden = !buttons.length;
  }
}
