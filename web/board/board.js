// The board component. It knows no game and no server: it is created on an element with a board
// description and a move callback, and shown a position with set(). It owns what happens between
// the person and the legal moves it was given: selection by click or tap, the destinations, the
// buttons for moves that differ only by a choice (or have no cell to click), and the optimistic
// move (shown at once, taken back if the callback's promise is refused).
//
// When every legal move is a placement told apart on its cell only by a choice (a tile's
// orientation), the choice comes first: buttons showing each choice's piece, `r` to go through
// them; the chosen piece is shown faintly on the cell under the pointer and on the selected
// cell, and a second click on the selected cell (or a choice button, or Enter) places it.
//
// In editing mode (the analysis board's position set-up) a click on a cell makes no move: it goes
// to the `onCell` callback, and the piece to put down shows faintly under the pointer.
//
//   const board = createBoard(element, { board, orientation: 'white', onMove: (text) => promise,
//                                        onCell: (cell) => {} });
//   board.set({ position, pieces, absent, lastMove, moves, canMove, orientation, mirror,
//               highlights, caption, toMove, editing, editPiece });
//   board.destroy();

import { attr, createSvg, drawBoard, esc, legendOf, pieceShape } from './draw.js';
import { title } from '../text.js';
import { clickPath, MoveInput } from './input.js';
import { keyHtml } from './key.js';

/** The least height a board is given on any screen, in CSS pixels. */
const MIN_BOARD_PX = 200;
/** The gap kept between what must show under the board and the bottom of the window. */
const BOTTOM_GAP_PX = 8;

/**
 * Creates a board in `element` (its content is replaced).
 *
 * config: {
 *   board: the board description of the API (cells, lines, labels, width, height, legend),
 *   orientation: 'white' | 'black', the side at the bottom,
 *   onMove: (text) => Promise, called with the text of a legal move the person made; a rejected
 *     promise takes the move back.
 *   onCell: (cell) => void, called with the index of a cell clicked in editing mode.
 *   pageArrows: whether the arrow keys stay the page's while the board has the focus from a
 *     click (not from Tab): where moves are clicked and the arrows step through them (the
 *     analysis board).
 * }
 */
export function createBoard(element, config) {
  return new Board(element, config);
}

export class Board {
  constructor(element, { board, orientation = 'white', onMove = null, onCell = null, pageArrows = false } = {}) {
    this.element = element;
    this.board = board;
    this.onMove = onMove;
    this.onCell = onCell;
    this.pageArrows = pageArrows;
    this.focusByPointer = false; // the board has the focus from a click or tap
    this.state = {
      position: null,
      pieces: [],
      absent: [],
      lastMove: null,
      moves: [],
      canMove: false,
      orientation,
      mirror: false,
      highlights: [],
      caption: '',
      toMove: null,
      sideNames: null, // what the game calls each seat (a view's side_names)
      names: false,
      hint: null,
      editing: false, // clicks on cells go to onCell
      editPiece: null, // in editing mode, the piece a click puts down: {owner, kind, letter}
    };
    this.input = new MoveInput([]);
    this.pending = null; // {move, position}: a move sent and not yet answered
    this.destroyed = false;
    this.choice = null; // the choice made first (see choiceFirst), kept from move to move
    this.hover = null; // the cell under the pointer
    this.hoverChoice = null; // the choice whose button is under the pointer or focused

    element.classList.add('board-box');
    element.innerHTML = `<div class="board-caption" hidden></div><div class="board-wrap"></div><p class="board-hint" role="status" aria-live="polite"></p><div class="choices" hidden></div>${keyHtml(board)}`;
    this.caption = element.querySelector('.board-caption');
    this.hint = element.querySelector('.board-hint');
    this.choices = element.querySelector('.choices');
    this.svg = createSvg(
      (cell) => this.click(cell),
      (cell) => {
        if (cell === this.hover) return;
        this.hover = cell;
        if (this.choiceFirst() || this.editable()) this.renderBoard();
      },
    );
    element.querySelector('.board-wrap').appendChild(this.svg);
    // The keyboard: Tab to the board, the arrow keys move a cursor from cell to cell as drawn,
    // Enter or Space clicks the cell under it, Escape drops the selection.
    this.cursor = null;
    this.svg.setAttribute('tabindex', '0');
    this.svg.setAttribute('aria-label', 'Board: arrow keys move the cursor, Enter or Space picks the cell, Escape cancels');
    this.svg.addEventListener('keydown', (e) => this.key(e));
    this.svg.addEventListener('pointerdown', () => {
      this.focusByPointer = true;
    });
    this.svg.addEventListener('blur', () => {
      this.focusByPointer = false;
    });
    this.choices.addEventListener('click', (e) => {
      const button = e.target.closest('button[data-move]');
      const chooser = e.target.closest('button[data-choice]');
      if (button) {
        const move = (this.state.moves || []).find((m) => m.text === button.dataset.move);
        if (move && move.choice && this.choiceFirst()) this.choice = move.choice;
        if (move) this.play(move);
      } else if (chooser) {
        this.choose(chooser.dataset.choice);
      } else if (e.target.closest('button[data-cancel]')) {
        this.cancel();
      }
    });
    const previewChoice = (e) => {
      const button = e.target.closest && e.target.closest('button[data-move], button[data-choice]');
      const choice = button ? button.dataset.choice : null;
      if (choice !== this.hoverChoice) {
        this.hoverChoice = choice;
        this.renderBoard();
      }
    };
    for (const type of ['pointerover', 'focusin']) this.choices.addEventListener(type, previewChoice);
    for (const type of ['pointerleave', 'focusout']) this.choices.addEventListener(type, () => previewChoice({ target: this.choices }));
    this.onKey = (e) => {
      if (e.target && /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
      if (e.key === 'Escape') {
        this.cancel();
      } else if ((e.key === 'r' || e.key === 'R') && !e.ctrlKey && !e.metaKey && !e.altKey && this.interactive() && this.choiceFirst()) {
        // r: the next choice; shift-r: the one before.
        const list = this.choiceList();
        const at = list.indexOf(this.currentChoice());
        this.choose(list[(at + (e.key === 'R' ? list.length - 1 : 1)) % list.length]);
      } else if (e.key === 'Enter' && this.interactive() && this.choiceFirst() && this.input.path.length === 1 && !(e.target && e.target.closest && e.target.closest('button, a'))) {
        const move = this.moveAt(this.input.path[0]);
        if (move) this.play(move);
      }
    };
    document.addEventListener('keydown', this.onKey);
    this.choicesRoom = 0; // the height the choice buttons took (kept once they have shown)
    this.onResize = () => this.fit();
    window.addEventListener('resize', this.onResize);
    this.render();
  }

  /**
   * Sizes the board to the window: as wide as its column, and no taller than the window less
   * what lies above it (the page's header, a caption) and what shows under it: the line that
   * explains a click, the choice buttons a move may need (their room kept once they have shown,
   * so that the board does not jump) and the key. The stylesheet subtracts what the page keeps under the
   * board on its own (--board-below) and turns the room into a width by the board's proportions.
   */
  fit() {
    if (this.destroyed) return;
    const wrap = this.element.querySelector('.board-wrap');
    if (!this.choices.hidden) this.choicesRoom = Math.max(this.choicesRoom, this.choices.offsetHeight + parseFloat(getComputedStyle(this.choices).marginTop || '0'));
    const style = getComputedStyle(this.hint);
    const hintRoom = (parseFloat(style.minHeight) || 0) + (parseFloat(style.marginTop) || 0);
    const key = this.element.querySelector('.board-key');
    const keyRoom = key ? key.offsetHeight + (parseFloat(getComputedStyle(key).marginTop) || 0) : 0;
    const top = wrap.getBoundingClientRect().top + window.scrollY;
    const room = Math.max(MIN_BOARD_PX, window.innerHeight - top - hintRoom - this.choicesRoom - keyRoom - BOTTOM_GAP_PX);
    this.element.style.setProperty('--board-room', `${Math.floor(room)}px`);
  }

  /**
   * Shows a view; fields left out keep their value.
   *
   * view: {
   *   position: a key that changes when the position does (a new one clears the selection and
   *     ends an optimistic move made on another position),
   *   pieces: [{cell, owner, kind, letter}], absent: [cell],
   *   lastMove: {from, via, to, captured, removed} | null,
   *   moves: the legal moves, [{text, from, via, to, choice, captured, places}],
   *   canMove: whether the person may move now,
   *   orientation: 'white' | 'black',
   *   mirror: whether the back of a two-sided board is shown (pieces in front coordinates),
   *   highlights: regions to point out, [{owner, label, value, parts, outline}],
   *   caption: a line of HTML above the board, or '',
   *   toMove: 'white' | 'black', whose piece a placement's preview shows,
   *   names: whether every cell's name is written on it,
   *   hint: a legal move to point out (its cells marked, its text under the board), or null,
   *   editing: whether clicks on cells go to onCell (no moves are made then),
   *   editPiece: in editing mode, the piece shown faintly on the empty cell under the pointer,
   * }
   */
  set(view = {}) {
    const s = this.state;
    const newPosition = 'position' in view && view.position !== s.position;
    Object.assign(s, view);
    if (newPosition) {
      this.input.reset();
      this.explain('');
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

  /** A key pressed on the board (see the constructor). */
  key(e) {
    // Only while a move can be made (or a cell edited): otherwise the page's keys (the arrows
    // step through the game's positions) and the browser's (alt-left) keep theirs.
    if (e.altKey || e.ctrlKey || e.metaKey || !(this.interactive() || this.editable())) return;
    const step = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
    if (step && this.pageArrows && this.focusByPointer && this.cursor === null) return;
    if (step) {
      this.cursor = this.cursor === null ? this.firstCursor() : this.nextCell(this.cursor, step);
      this.renderBoard();
    } else if ((e.key === 'Enter' || e.key === ' ') && this.cursor !== null) {
      this.click(this.cursor);
    } else {
      return;
    }
    // The page's own keys (the arrows step through the game's positions) stay out of it.
    e.preventDefault();
    e.stopPropagation();
  }

  /** Where the cursor starts: on a piece that can move, else the cell nearest the middle. */
  firstCursor() {
    const starts = [...this.input.startCells()];
    if (starts.length) return starts[0];
    const cells = this.board.cells || [];
    const [mx, my] = [Number(this.board.width) / 2, Number(this.board.height) / 2];
    let best = null;
    let bestDistance = Infinity;
    cells.forEach((c, i) => {
      const d = Math.hypot(Number(c.x) + 0.5 - mx, Number(c.y) + 0.5 - my);
      if (d < bestDistance) [best, bestDistance] = [i, d];
    });
    return best;
  }

  /**
   * The cell next to `from` in the screen direction `[dx, dy]` as the board is drawn (turned
   * round, or seen from the back): the nearest within 45 degrees of it; `from` if none.
   */
  nextCell(from, [dx, dy]) {
    const cells = this.board.cells || [];
    const flip = this.state.orientation === 'black';
    const sx = flip !== Boolean(this.state.mirror) ? -1 : 1;
    const sy = flip ? -1 : 1;
    const a = cells[from];
    if (!a) return from;
    let best = from;
    let bestCost = Infinity;
    cells.forEach((c, i) => {
      if (i === from) return;
      const vx = sx * (Number(c.x) - Number(a.x));
      const vy = sy * (Number(c.y) - Number(a.y));
      const along = vx * dx + vy * dy;
      const across = Math.abs(vx * dy - vy * dx);
      if (along <= 0 || across > along) return;
      const cost = along + 2 * across;
      if (cost < bestCost) [best, bestCost] = [i, cost];
    });
    return best;
  }

  /** Drops the selection. */
  cancel() {
    this.input.reset();
    this.render();
  }

  /**
   * Whether every legal move is a placement (one cell to click) that differs from the others on
   * its cell only by its choice: then the choice is made first and previewed.
   */
  choiceFirst() {
    const moves = this.state.moves || [];
    return moves.length > 0 && moves.every((m) => m.choice && clickPath(m).length === 1 && (m.from === null || m.from === undefined));
  }

  /** The choices of the legal moves, in their order. */
  choiceList() {
    const list = [];
    for (const m of this.state.moves || []) if (m.choice && !list.includes(m.choice)) list.push(m.choice);
    return list;
  }

  /** The choice made first: the last one picked while it is still offered, else the first. */
  currentChoice() {
    const list = this.choiceList();
    return list.includes(this.choice) ? this.choice : list[0] ?? null;
  }

  /** Picks the choice that the next placement makes. */
  choose(choice) {
    this.choice = choice;
    this.render();
  }

  /** The legal move that places `choice` (the current one by default) on `cell`. */
  moveAt(cell, choice = this.currentChoice()) {
    return (this.state.moves || []).find((m) => m.to === cell && m.choice === choice) || null;
  }

  destroy() {
    this.destroyed = true;
    document.removeEventListener('keydown', this.onKey);
    window.removeEventListener('resize', this.onResize);
    this.element.innerHTML = '';
    this.element.classList.remove('board-box');
  }

  /** Whether clicks make moves now. */
  interactive() {
    return Boolean(this.state.canMove) && !this.state.editing && !this.pending && typeof this.onMove === 'function' && !this.destroyed;
  }

  /** Whether clicks on cells go to the page (editing mode). */
  editable() {
    return Boolean(this.state.editing) && typeof this.onCell === 'function' && !this.destroyed;
  }

  click(cell) {
    if (this.editable()) {
      this.onCell(cell);
      return;
    }
    if (!this.interactive()) return;
    if (this.choiceFirst() && this.input.path.length === 1 && this.input.path[0] === cell) {
      // The second click on the selected cell places the previewed piece.
      const chosen = this.moveAt(cell);
      if (chosen) {
        this.play(chosen);
        return;
      }
    }
    const before = this.input.path;
    const move = this.input.click(cell);
    // A click that neither moves nor selects says why (putting a piece down again needs no
    // reason).
    const deselected = before.length === 1 && before[0] === cell;
    this.explain(move || this.input.path.length || deselected ? '' : this.whyNot(cell, before.length > 0));
    if (move) this.play(move);
    else this.render();
  }

  /** Shows one line under the board ('' clears it). */
  explain(text) {
    if (this.hint.textContent !== text) this.hint.textContent = text;
  }

  /** Why a click on `cell` started no move (`selecting`: a piece was selected before). */
  whyNot(cell, selecting) {
    const s = this.state;
    const moves = s.moves || [];
    if (!moves.length) return '';
    const name = (this.board.cells[cell] || {}).name || 'that cell';
    const piece = (s.pieces || []).find((p) => p.cell === cell);
    const mover = title(s.toMove, s.sideNames);
    const captureDue = moves.every((m) => (m.captured || []).length > 0);
    if (moves.some((m) => m.places)) return piece ? `${name} is taken.` : `Nothing can be placed on ${name} now.`;
    if (piece && piece.owner && s.toMove && piece.owner !== s.toMove) {
      return selecting ? `The selected piece cannot go to ${name}; the marked cells show where it can.` : `That is not your piece: you play ${mover}.`;
    }
    if (piece) {
      if (captureDue) return 'A capture is compulsory here: the marked pieces must capture.';
      return `The piece on ${name} cannot move now; the ringed pieces can.`;
    }
    if (selecting) return `The selected piece cannot go to ${name}; the marked cells show where it can.`;
    return captureDue ? 'A capture is compulsory here: the marked pieces must capture.' : 'Pick up one of the ringed pieces first.';
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

  /** The piece to show faintly: the chosen one on the selected cell, else under the pointer. */
  preview() {
    if (this.editable()) {
      const piece = this.state.editPiece;
      return piece && this.hover !== null && this.hover !== undefined ? { ...piece, cell: this.hover } : null;
    }
    if (!this.interactive() || !this.choiceFirst()) return null;
    const cell = this.input.path.length === 1 ? this.input.path[0] : this.hover;
    if (cell === null || cell === undefined) return null;
    const move = this.moveAt(cell, this.input.path.length === 1 && this.hoverChoice ? this.hoverChoice : this.currentChoice());
    if (!move || !move.places) return null;
    return { cell, owner: this.state.toMove, kind: move.places };
  }

  /** Draws the board alone (the choice buttons stay as they are). */
  renderBoard() {
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
    } else if (mv && mv.places && mv.to !== null && mv.to !== undefined && !s.mirror) {
      // A placement: the placed piece shows at once.
      pieces = [...pieces.filter((p) => p.cell !== mv.to), { cell: mv.to, owner: s.toMove, kind: mv.places, letter: '' }];
      lastMove = mv;
    }
    drawBoard(this.svg, {
      board: this.board,
      pieces,
      absent: s.absent,
      flip: s.orientation === 'black',
      mirror: Boolean(s.mirror),
      lastMove,
      selected: live ? this.input.path : [],
      targets: live ? this.input.targets() : [],
      movable: live && !this.input.path.length ? this.input.startCells() : [],
      mustCapture: (s.moves || []).length > 0 && (s.moves || []).every((m) => (m.captured || []).length > 0),
      preview: this.preview(),
      highlights: s.highlights || [],
      names: Boolean(s.names),
      hint: s.hint,
      // Drawn only while the board has the focus (style.css); a redraw on focus would replace
      // the cell under a mouse press and lose its click.
      cursor: this.cursor,
    });
    this.svg.classList.toggle('interactive', live && (s.moves || []).length > 0);
    this.svg.classList.toggle('editing', this.editable());
  }

  /** A button's picture of the piece a choice places (nothing if the legend has no style). */
  choiceIcon(kind) {
    const legend = legendOf(this.board);
    const style = legend.pieces.find((p) => p.kind === kind);
    if (!style) return '';
    const owner = this.state.toMove === 'black' ? 'black' : 'white';
    const letter = String(style.letter || '?').toUpperCase();
    return `<svg class="choice-icon" viewBox="0 0 1 1" aria-hidden="true"><g class="piece">${pieceShape(legend.palette, owner, letter, style, 0.5, 0.5)}</g></svg>`;
  }

  render() {
    if (this.destroyed) return;
    const s = this.state;
    const live = this.interactive();
    this.renderBoard();
    // A hint shows unless an explanation of the last click is on show.
    if (s.hint && (!this.hint.textContent || this.hint.textContent.startsWith('Hint: '))) this.explain(`Hint: ${s.hint.text}`);
    else if (this.hint.textContent.startsWith('Hint: ')) this.explain('');
    this.caption.innerHTML = s.caption || '';
    this.caption.hidden = !s.caption;

    // Buttons for choices between complete moves and for moves without cells (a pass).
    const buttons = [];
    if (live) {
      const pending = this.input.choices();
      const first = this.choiceFirst();
      const current = first ? this.currentChoice() : null;
      const icon = (m) => (m && m.places ? this.choiceIcon(m.places) : '');
      if (pending.length) {
        buttons.push(`<span class="small">${first ? 'Click the cell again to place, or choose:' : 'Choose:'}</span>`);
        for (const m of pending) {
          const pressed = first ? attr('aria-pressed', String(m.choice === current)) : '';
          buttons.push(
            `<button type="button" class="primary${icon(m) ? ' with-icon' : ''}" data-move="${esc(m.text)}"${attr('data-choice', m.choice)}${pressed}>${icon(m)}${esc(m.choice || m.text)}</button>`,
          );
        }
        buttons.push('<button type="button" data-cancel="1">Cancel</button>');
      } else if (first) {
        buttons.push('<span class="small" title="r: the next choice, shift-r: the one before">Choose, then click a cell:</span>');
        for (const choice of this.choiceList()) {
          const example = (s.moves || []).find((m) => m.choice === choice);
          buttons.push(
            `<button type="button" class="${icon(example) ? 'with-icon' : ''}" data-choice="${esc(choice)}"${attr('aria-pressed', String(choice === current))}>${icon(example)}${esc(choice)}</button>`,
          );
        }
      }
      for (const m of this.input.buttonMoves()) {
        buttons.push(`<button type="button" data-move="${esc(m.text)}">${esc(m.text)}</button>`);
      }
    }
    // Keep the keyboard's place among the choice buttons, which are drawn anew.
    const focused = this.choices.contains(document.activeElement) ? document.activeElement.dataset.choice : undefined;
    this.choices.innerHTML = buttons.join(' ');
    this.choices.hidden = !buttons.length;
    if (focused !== undefined) {
      const again = [...this.choices.querySelectorAll('button[data-choice]')].find((b) => b.dataset.choice === focused);
      if (again) again.focus({ preventScroll: true });
    }
    // Now, and again once the page has drawn what it shows around the board this turn.
    this.fit();
    if (!this.fitting) {
      this.fitting = true;
      requestAnimationFrame(() => {
        this.fitting = false;
        this.fit();
      });
    }
  }
}
