// The evaluation bar beside a board (the analysis page and the analysis board): White's share of
// the height, filled from White's side of the board in White's colour over Black's, with the
// score written at the end of the side ahead, in that side's ink. The colours are the board's
// own (its legend's palette); style.css places the bar beside the drawing, as tall as it.

import { legendOf, pieceColours } from './draw.js';
import { title } from '../text.js';

export class EvalBar {
  /** Puts a bar (hidden until shown) beside the board drawn in `boardElement`, whose description is `board`. */
  constructor(boardElement, board) {
    const bar = document.createElement('div');
    bar.className = 'eval-bar';
    bar.hidden = true;
    bar.innerHTML = '<div class="eval-white"></div><span class="eval-text"></span>';
    const { palette } = legendOf(board);
    const white = pieceColours(palette, 'white');
    const black = pieceColours(palette, 'black');
    bar.style.background = black.fill;
    bar.querySelector('.eval-white').style.background = white.fill;
    this.ink = { white: white.ink, black: black.ink };
    boardElement.querySelector('.board-wrap').prepend(bar);
    this.element = bar;
  }

  /**
   * Shows White's `chances` (0 to 1) with `text` (the score in words) written on the bar;
   * `flipped`: Black is at the bottom of the board; `sideNames`: what the game calls each side.
   */
  show({ chances, text, flipped = false, sideNames = null }) {
    const bar = this.element;
    const share = Math.max(0, Math.min(1, Number(chances)));
    bar.hidden = false;
    bar.classList.toggle('flipped', flipped);
    bar.querySelector('.eval-white').style.height = `${(share * 100).toFixed(1)}%`;
    const ahead = share >= 0.5 ? 'white' : 'black';
    const label = bar.querySelector('.eval-text');
    label.textContent = text;
    label.classList.toggle('at-white', ahead === 'white');
    label.style.color = this.ink[ahead];
    const words = `${title('white', sideNames)}'s chances ${Math.round(share * 100)}%, score ${text}`;
    bar.title = words;
    bar.setAttribute('aria-label', words);
  }

  hide() {
    this.element.hidden = true;
  }

  /** Marks what the bar shows as being about another position than the one on show (or not). */
  stale(on) {
    this.element.classList.toggle('stale', on);
  }
}
