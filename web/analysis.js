// A whole game's computer analysis (#/analysis/{id}): the engine's score of every position, as a
// graph and as a bar beside the board, the moves it marks as inaccuracies, mistakes and
// blunders, and for each the better move, pointed out on the board; "Analysis board" and "try
// it" take a position further on the analysis board (analysis-board.js). The server searches an
// analysis behind the games being played; the page follows its progress (a stream of server-sent
// events, or asking every 1.5 s when the stream fails) and draws the review once it is done. The
// moves and the board can be looked at meanwhile.

import { api } from './api.js';
import { createBoard } from './board/board.js';
import { hasNumbers, legendOf, pieceColours } from './board/draw.js';
import { EvalBar } from './board/evalbar.js';
import { squareNumbersWanted } from './game/page.js';
import { esc, moveNumber, rulesetName, title } from './text.js';

/** How often the analysis is asked for while its event stream is down, in milliseconds. */
const POLL_MS = 1500;
/** Each judgement's glyph, as annotators of chess games write them. */
const GLYPHS = { inaccuracy: '?!', mistake: '?', blunder: '??' };
/** The graph's size and margin in its own units; it is drawn as wide as its card. */
const GRAPH_W = 300;
const GRAPH_H = 110;
const GRAPH_PAD = 6;

const analysisPath = (id, rest = '') => `/api/analyses/${encodeURIComponent(id)}${rest ? `/${rest}` : ''}`;
const hundredths = (n) => (Number(n) / 100).toFixed(2);
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const finished = (a) => a && (a.status === 'done' || a.status === 'failed');

/** Move `ply` (the first is 1) as the move list numbers it: `9. E3-G3`, or `9... H8-H6` for the second player's. */
function moveLabel(a, ply) {
  return `${moveNumber(ply, a.first_to_move)} ${a.moves[ply - 1]}`;
}

/** The analysis board's address for the position after `ply` moves of analysis `id`. */
const boardHref = (id, ply) => `#/board/analysis/${encodeURIComponent(id)}?ply=${ply}`;

export class AnalysisPage {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.analysis = null; // the latest answer of GET /api/analyses/{id}
    this.ply = 0; // the position on show
    this.positions = new Map(); // ply -> the promise of that position (the positions endpoint)
    this.board = null;
    this.flipped = false; // Black at the bottom, by the flip button
    this.source = null; // the progress event stream
    this.timers = new Set();
    this.disposed = false;
    this.build();
    this.load();
  }

  later(fn, ms) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.disposed) fn();
    }, ms);
    this.timers.add(t);
  }

  dispose() {
    this.disposed = true;
    if (this.source) this.source.close();
    this.source = null;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    document.removeEventListener('keydown', this.onKey);
    if (this.board) this.board.destroy();
  }

  build() {
    document.title = 'Computer analysis – Denkmeter';
    this.app.innerHTML = `
      <div class="game analysis-page">
        <div class="board-col">
          <div id="board"></div>
          <div class="replay" id="replay">
            <button type="button" id="replay-first" title="Start position" aria-label="First">«</button>
            <button type="button" id="replay-prev" title="Previous move (←)" aria-label="Previous">‹</button>
            <span id="replay-ply" class="ply"></span>
            <button type="button" id="replay-next" title="Next move (→)" aria-label="Next">›</button>
            <button type="button" id="replay-last" title="Final position" aria-label="Last">»</button>
          </div>
        </div>
        <aside class="analysis-panel">
          <div class="card">
            <div class="game-head">
              <h1 id="analysis-title">Computer analysis</h1>
              <a id="rules-link" class="small" href="#/" hidden>Rules</a>
            </div>
            <p class="small" id="analysis-about"></p>
            <p class="small notice" id="full-information" hidden></p>
            <div class="analysis-progress" id="analysis-progress" hidden>
              <progress id="analysis-bar" max="1" value="0"></progress>
              <span id="analysis-count" aria-live="polite"></span>
            </div>
            <p class="error" id="analysis-error" role="alert" hidden></p>
            <div class="eval-graph" id="eval-graph" hidden></div>
            <p class="ply-info" id="ply-info" aria-live="polite"></p>
            <p class="ply-judgement" id="ply-judgement" hidden></p>
            <p class="board-link-row"><a class="button" id="board-link" href="#/" title="Play on from the position shown, with the engine, in moves of your own">Analysis board</a></p>
          </div>
          <div class="card">
            <div class="card-head">
              <h2>Moves</h2>
              <button type="button" class="link-button" id="flip">Flip board</button>
            </div>
            <ol class="moves clickable" id="moves"></ol>
          </div>
          <div class="card" id="review-card" hidden>
            <h2>Summary</h2>
            <ul class="review-sides" id="review-sides"></ul>
            <h3>Marked moves</h3>
            <ol class="marked-moves" id="marked-moves"></ol>
            <p class="small muted" id="review-unit"></p>
          </div>
          <p class="small"><a href="#/">← Lobby</a></p>
        </aside>
      </div>`;
    const on = (id, fn) => document.getElementById(id).addEventListener('click', fn);
    on('replay-first', () => this.goto(0));
    on('replay-prev', () => this.goto(this.ply - 1));
    on('replay-next', () => this.goto(this.ply + 1));
    on('replay-last', () => this.goto(Infinity));
    on('moves', (e) => {
      const move = e.target.closest('[data-ply]');
      if (move) this.goto(Number(move.dataset.ply));
    });
    on('marked-moves', (e) => {
      const button = e.target.closest('[data-ply]');
      if (button) this.goto(Number(button.dataset.ply));
    });
    on('eval-graph', (e) => this.graphClick(e));
    on('flip', () => {
      this.flipped = !this.flipped;
      this.showPosition();
    });
    this.onKey = (e) => {
      if (e.target && /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
      // Alt+← and the like are the browser's (back and forward), not ours.
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        e.preventDefault();
        this.goto(this.ply + (e.key === 'ArrowLeft' ? -1 : 1));
      }
    };
    document.addEventListener('keydown', this.onKey);
  }

  // --- the analysis and its progress

  /** Asks for the analysis and draws it; resolves to whether it came. */
  async load() {
    let a;
    try {
      a = await api('GET', analysisPath(this.id));
    } catch (e) {
      if (this.disposed) return false;
      if (!this.analysis) {
        this.app.innerHTML = `<section class="card"><h1>Analysis not found</h1><p class="error" role="alert">${esc(e.message)}</p><p><a href="#/">Back to the lobby</a></p></section>`;
        this.dispose();
      } else {
        this.showError(e.message);
      }
      return false;
    }
    if (this.disposed) return false;
    const first = !this.analysis;
    this.analysis = a;
    this.showError('');
    this.render(first);
    if (first && !finished(a)) this.follow();
    return true;
  }

  /**
   * Follows the progress on the server's event stream. A stream that worked and then closed
   * (the server ends one after some minutes) is opened again; one that fails at once gives way to
   * asking for the analysis every 1.5 s.
   */
  follow() {
    const source = new EventSource(analysisPath(this.id, 'events'));
    this.source = source;
    let heard = false;
    source.addEventListener('progress', (e) => {
      heard = true;
      let data;
      try {
        data = JSON.parse(e.data);
      } catch {
        return;
      }
      if (finished(data)) {
        source.close();
        this.source = null;
        // The review (or the reason of the failure) comes with the analysis: asked for until it comes.
        this.load().then((came) => {
          if (!came && !this.disposed) this.poll();
        });
      } else {
        Object.assign(this.analysis, { status: data.status, done: data.done, total: data.total });
        this.renderProgress();
      }
    });
    source.addEventListener('error', () => {
      source.close();
      if (this.source === source) this.source = null;
      if (this.disposed || finished(this.analysis)) return;
      if (heard) this.later(() => this.follow(), POLL_MS);
      else this.poll();
    });
  }

  /** Asks for the analysis every 1.5 s until it is done or failed. */
  poll() {
    this.later(async () => {
      await this.load();
      if (this.source === null && !finished(this.analysis)) this.poll();
    }, POLL_MS);
  }

  showError(message) {
    const box = document.getElementById('analysis-error');
    box.textContent = message;
    box.hidden = !message;
  }

  // --- the page

  /** What the first answer sets up: the title, the board and its evaluation bar. */
  start() {
    const a = this.analysis;
    const name = rulesetName(a);
    document.title = `Computer analysis · ${name} – Denkmeter`;
    document.getElementById('analysis-title').textContent = `Computer analysis · ${name}`;
    const rules = document.getElementById('rules-link');
    rules.href = `#/rules/${encodeURIComponent(a.ruleset)}`;
    rules.hidden = false;
    const about = document.getElementById('analysis-about');
    about.innerHTML = a.game_id
      ? `<a href="#/game/${esc(encodeURIComponent(a.game_id))}" id="analysis-game">← Back to the game</a>`
      : '<span class="muted">A game brought in by hand.</span>';
    const full = document.getElementById('full-information');
    full.textContent = a.full_information || '';
    full.hidden = !a.full_information;
    this.board = createBoard(document.getElementById('board'), {
      board: a.board,
      orientation: 'white',
      // Nothing is played on this board.
      onMove: () => Promise.reject(new Error('the analysis board is read-only')),
    });
    // The evaluation bar stands beside the drawing, as tall as it (style.css).
    this.bar = new EvalBar(document.getElementById('board'), a.board);
  }

  render(first = false) {
    const a = this.analysis;
    if (!a || this.disposed) return;
    if (first) this.start();
    this.renderProgress();
    if (a.status === 'failed') this.showError(`The analysis failed: ${a.error || 'no reason given'}.`);
    const review = a.status === 'done' ? a.review : null;
    document.getElementById('eval-graph').hidden = !review;
    document.getElementById('review-card').hidden = !review;
    if (review) {
      this.drawGraph(review);
      this.renderSummary(review);
    }
    this.renderMoves();
    this.showPosition();
  }

  renderProgress() {
    const a = this.analysis;
    const box = document.getElementById('analysis-progress');
    box.hidden = finished(a);
    if (box.hidden) return;
    const bar = document.getElementById('analysis-bar');
    bar.max = Math.max(1, a.total);
    bar.value = a.done;
    const what = `${a.done} of ${plural(a.total, 'position', 'positions')}`;
    document.getElementById('analysis-count').textContent =
      a.status === 'waiting' ? `Waiting for the engine (other analyses first): ${what}` : `Analysing: ${what}`;
  }

  /** The review's judgement of move `ply` (the first is 1), or null. */
  moveReview(ply) {
    const review = this.analysis && this.analysis.status === 'done' ? this.analysis.review : null;
    return (review && review.moves[ply - 1]) || null;
  }

  /** A move's glyph for its judgement, as HTML ('' for an unmarked move). */
  glyphHtml(ply) {
    const m = this.moveReview(ply);
    return m && m.judgement ? `<span class="glyph ${esc(m.judgement)}" title="${esc(m.judgement)}">${GLYPHS[m.judgement]}</span>` : '';
  }

  /** The moves in numbered pairs, as the game page writes them, each with its glyph. */
  renderMoves() {
    const a = this.analysis;
    const moves = a.moves;
    const offset = a.first_to_move === 'black' ? 1 : 0;
    const items = [];
    for (let i = -offset; i < moves.length; i += 2) {
      const cell = (j) => {
        if (j < 0) return '<span class="move">...</span>';
        if (j >= moves.length) return '';
        return `<span class="move" data-ply="${j + 1}">${esc(moves[j])}${this.glyphHtml(j + 1)}</span>`;
      };
      items.push(`<li><span class="num">${(i + offset) / 2 + 1}.</span>${cell(i)}${cell(i + 1)}</li>`);
    }
    document.getElementById('moves').innerHTML = items.join('') || '<li class="muted empty">No moves</li>';
  }

  /** The graph of White's chances, position by position, with the marked moves as dots. */
  drawGraph(review) {
    const a = this.analysis;
    const points = review.positions;
    const last = Math.max(1, points.length - 1);
    const x = (ply) => Math.round((GRAPH_PAD + (ply / last) * (GRAPH_W - 2 * GRAPH_PAD)) * 10) / 10;
    const y = (chances) => Math.round((GRAPH_PAD + (1 - chances) * (GRAPH_H - 2 * GRAPH_PAD)) * 10) / 10;
    const { palette } = legendOf(a.board);
    const fill = (player) => pieceColours(palette, player).fill;
    const line = points.map((p) => `${x(p.ply)},${y(p.white_chances)}`).join(' ');
    const [top, bottom, left, right] = [y(1), y(0), x(0), x(last)];
    const dots = review.moves
      .filter((m) => m.judgement)
      .map((m) => {
        const p = points[m.ply];
        if (!p) return '';
        const words = `${moveLabel(a, m.ply)}${GLYPHS[m.judgement]} ${m.judgement}`;
        return `<circle class="graph-dot ${esc(m.judgement)}" cx="${x(m.ply)}" cy="${y(p.white_chances)}" r="4"><title>${esc(words)}</title></circle>`;
      });
    const white = title('white', a.side_names);
    // White's share fills the graph from the bottom, in White's colour over Black's, as in the bar.
    document.getElementById('eval-graph').innerHTML = `
      <svg class="graph" viewBox="0 0 ${GRAPH_W} ${GRAPH_H}" role="img" aria-labelledby="graph-title">
        <title id="graph-title">${esc(`${white}'s chances after each move (the middle line: even); click to go to a position`)}</title>
        <rect class="graph-back" x="${left}" y="${top}" width="${right - left}" height="${bottom - top}" fill="${esc(fill('black'))}"/>
        <polygon class="graph-area" points="${left},${bottom} ${line} ${right},${bottom}" fill="${esc(fill('white'))}"/>
        <line class="graph-middle" x1="${left}" y1="${y(0.5)}" x2="${right}" y2="${y(0.5)}"/>
        <polyline class="graph-line" points="${line}"/>
        <line class="graph-cursor" id="graph-cursor" x1="0" y1="${top}" x2="0" y2="${bottom}"/>
        ${dots.join('')}
      </svg>`;
    this.graphX = x;
  }

  /** A click on the graph goes to the position nearest to it. */
  graphClick(e) {
    const svg = e.currentTarget.querySelector('svg');
    const review = this.analysis && this.analysis.review;
    if (!svg || !review) return;
    const box = svg.getBoundingClientRect();
    const last = Math.max(1, review.positions.length - 1);
    const at = ((e.clientX - box.left) / box.width) * GRAPH_W;
    this.goto(Math.round(((at - GRAPH_PAD) / (GRAPH_W - 2 * GRAPH_PAD)) * last));
  }

  /** Each side's marks and mean loss, the marked moves, and what the numbers mean. */
  renderSummary(review) {
    const a = this.analysis;
    const names = a.side_names;
    document.getElementById('review-sides').innerHTML = ['white', 'black']
      .map((side) => {
        const s = review[side];
        return `<li><strong>${esc(title(side, names))}</strong>: ${plural(s.inaccuracies, 'inaccuracy', 'inaccuracies')}, ${plural(s.mistakes, 'mistake', 'mistakes')}, ${plural(s.blunders, 'blunder', 'blunders')}, mean loss ${hundredths(s.mean_loss)}</li>`;
      })
      .join('');
    const marked = review.moves.filter((m) => m.judgement);
    // Each goes to the position before the move, where the better move is pointed out.
    document.getElementById('marked-moves').innerHTML = marked.length
      ? marked
          .map((m) => `<li><button type="button" class="link-button" data-ply="${m.ply - 1}">${esc(moveLabel(a, m.ply))}${GLYPHS[m.judgement]}</button> <span class="small">${esc(m.judgement)}, ${esc(hundredths(m.loss))}${m.best ? `; better ${esc(m.best)}` : ''} · <a href="${esc(boardHref(this.id, m.ply - 1))}" class="try-link" title="The position before the move on the analysis board, to try the better line">try it</a></span></li>`)
          .join('')
      : '<li class="muted">None: no move lost enough to be marked.</li>';
    const unit = review.unit;
    const t = review.thresholds;
    document.getElementById('review-unit').textContent =
      `Scores are for ${title('white', names)} in hundredths of ${unit} (+1.00: ${title('white', names)} is ${unit} ahead); "wins in N plies" is a forced win. ` +
      `A move is an inaccuracy when it loses ${hundredths(t.inaccuracy)}, a mistake from ${hundredths(t.mistake)}, a blunder from ${hundredths(t.blunder)} ` +
      `(scores beyond ±${hundredths(t.decided)} count as decided).`;
  }

  // --- the position on show

  /** Goes to the position after `ply` moves (clamped to the game). */
  goto(ply) {
    if (!this.analysis) return;
    const next = Math.max(0, Math.min(this.analysis.moves.length, ply));
    if (next === this.ply || Number.isNaN(next)) return;
    this.ply = next;
    this.showPosition();
  }

  /** The position after `ply` moves, asked for once. */
  position(ply) {
    if (!this.positions.has(ply)) {
      const asked = api('GET', analysisPath(this.id, `positions/${ply}`));
      // A failure is not kept: the next visit asks again.
      asked.catch(() => this.positions.delete(ply));
      this.positions.set(ply, asked);
    }
    return this.positions.get(ply);
  }

  /** The move the engine preferred to the marked move played from position `ply`, or null. */
  betterMove(ply) {
    const m = this.moveReview(ply + 1);
    return m && m.judgement && m.best ? m : null;
  }

  /** Shows the position `this.ply`: the board and its bar, the move list, the graph, the words. */
  async showPosition() {
    const a = this.analysis;
    if (!a || !this.board) return;
    const ply = this.ply;
    const total = a.moves.length;
    document.getElementById('replay-ply').textContent = `${ply} / ${total}`;
    document.getElementById('board-link').href = boardHref(this.id, ply);
    for (const [id, off] of [['replay-first', ply <= 0], ['replay-prev', ply <= 0], ['replay-next', ply >= total], ['replay-last', ply >= total]]) {
      document.getElementById(id).disabled = off;
    }
    const list = document.getElementById('moves');
    for (const el of list.querySelectorAll('.move[data-ply]')) {
      const current = Number(el.dataset.ply) === ply;
      el.classList.toggle('current', current);
      if (current) {
        // Into view within the list only: the page itself stays where it is.
        const [outer, inner] = [list.getBoundingClientRect(), el.getBoundingClientRect()];
        if (inner.top < outer.top) list.scrollTop -= outer.top - inner.top;
        else if (inner.bottom > outer.bottom) list.scrollTop += inner.bottom - outer.bottom;
      }
    }
    const cursor = document.getElementById('graph-cursor');
    if (cursor && this.graphX) {
      cursor.setAttribute('x1', this.graphX(ply));
      cursor.setAttribute('x2', this.graphX(ply));
    }
    this.renderWords();
    this.renderBar();
    let p;
    try {
      p = await this.position(ply);
    } catch (e) {
      if (!this.disposed && this.ply === ply) this.showError(e.message);
      return;
    }
    if (this.disposed || this.ply !== ply) return;
    this.renderWords(p);
    const better = this.betterMove(ply);
    const hint = better ? (p.legal_moves || []).find((m) => m.text === better.best) || null : null;
    this.board.set({
      position: `analysis/${ply}`,
      pieces: p.pieces || [],
      absent: p.absent || [],
      lastMove: p.last_move || null,
      moves: [],
      canMove: false,
      orientation: this.flipped ? 'black' : 'white',
      sideNames: a.side_names,
      names: hasNumbers(a.board) && squareNumbersWanted(),
      highlights: (p.highlights || []).filter((h) => !h.side || h.side === 'front'),
      hint,
      toMove: p.to_move,
    });
  }

  /** The evaluation bar: White's share of the height, from White's side of the board. */
  renderBar() {
    const a = this.analysis;
    const p = a.status === 'done' && a.review ? a.review.positions[this.ply] : null;
    if (!p) this.bar.hide();
    else this.bar.show({ chances: p.white_chances, text: p.white_text, flipped: this.flipped, sideNames: a.side_names });
  }

  /**
   * What the engine says of the position on show, and of the marked move that led to it or
   * leaves it; `shown` is the position fetched, if it has come (it says who is to move before the
   * review does).
   */
  renderWords(shown = null) {
    const a = this.analysis;
    const ply = this.ply;
    const review = a.status === 'done' ? a.review : null;
    const p = review ? review.positions[ply] : null;
    const where = ply ? `After ${moveLabel(a, ply)}` : 'The start';
    const toMove = (p && p.to_move) || (shown && shown.to_move);
    let info = toMove ? `${where} (${title(toMove, a.side_names)} to move)` : where;
    if (p && p.over) info = `${where}: ${p.white_text}.`;
    else if (p) info += `: ${p.white_text} (depth ${p.depth}).${p.pv.length ? ` Best line: ${p.pv.join(' ')}` : ''}`;
    else info += '.';
    document.getElementById('ply-info').textContent = info;

    const box = document.getElementById('ply-judgement');
    const led = this.moveReview(ply);
    const next = this.betterMove(ply);
    const lines = [];
    if (led && led.judgement) {
      const unit = String(review.unit).replace(/^(a|an) /, '');
      const better = led.best ? ` Better was ${esc(led.best)}${led.line.length ? ` (${esc(led.line.join(' '))})` : ''}.` : '';
      lines.push(`<span class="glyph ${esc(led.judgement)}">${esc(moveLabel(a, ply))}${GLYPHS[led.judgement]}</span> is ${led.judgement === 'inaccuracy' ? 'an' : 'a'} ${esc(led.judgement)}: it lost ${hundredths(led.loss)} in ${esc(unit)} units.${better}`);
    }
    if (next) {
      lines.push(`Next, ${esc(moveLabel(a, ply + 1))}${GLYPHS[next.judgement]} is ${next.judgement === 'inaccuracy' ? 'an' : 'a'} ${esc(next.judgement)}: the engine's better move, ${esc(next.best)}, is marked on the board.`);
    }
    box.innerHTML = lines.join('<br>');
    box.hidden = !lines.length;
  }
}
