// Puzzles (#/puzzles, #/puzzles/{family}, #/puzzle/{id}): positions from our own self-play games
// in which the player to move forces a win, proved by an exhaustive solver, with exactly one
// winning move at each of the player's turns (docs/api.md, "Puzzles"). Problems
// (#/problems/{family}, each solved at #/puzzle/{id} too): a game's numbered collection of long
// forced wins, as in a book's problem section, never rated.
//
// #/puzzles lists the games that have puzzles, the games' problem collections and the
// signed-in player's puzzle rating; #/problems/{family} lists a game's problems by number;
// #/puzzles/{family} shows a puzzle of that game chosen by the server (near the player's rating)
// and #/puzzle/{id} one given puzzle, the address a player can share (the family's page takes
// it once its puzzle is chosen). The browser holds neither rules nor solutions: the positions
// and their legal moves come from POST /api/positions, as on the analysis board, and each move
// made is checked by the server, which answers with the opponent's replies and, once the
// attempt has ended (a wrong move, the last right one, or "Show solution"), the whole solution.
// A signed-in player's first attempt at a puzzle is rated, the puzzle's rating with it.

import { api, query } from './api.js';
import { createBoard } from './board/board.js';
import { hasNumbers } from './board/draw.js';
import { squareNumbersWanted } from './game/page.js';
import { changeHtml, ratingHtml } from './ratings.js';
import { onSession, signedInName } from './session.js';
import { esc, moveNumber, title } from './text.js';

const POSITIONS = '/api/positions';
/** How long each reply of the opponent waits before it is played on the board. */
const REPLY_DELAY_MS = 450;
/**
 * How long stepping through the solution to a position not yet known waits before asking for
 * it: a key held down asks for the last position only (the server counts these as moves).
 */
const FETCH_DELAY_MS = 80;

const puzzlePath = (id, rest = '') => `/api/puzzles/${encodeURIComponent(id)}${rest ? `/${rest}` : ''}`;
const familyHref = (family) => `#/puzzles/${encodeURIComponent(family)}`;
const problemsPath = (family) => `/api/problems/${encodeURIComponent(family)}`;
const problemsHref = (family) => `#/problems/${encodeURIComponent(family)}`;
const puzzleHref = (id) => `#/puzzle/${encodeURIComponent(id)}`;
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const ABOUT =
  'Every puzzle here is a position from our own self-play games in which the player to move forces a win. ' +
  'An exhaustive solver proved it: at each of your turns exactly one move wins, and the opponent’s replies are the best defence, played for you.';

const PROBLEMS_ABOUT =
  'Problems are longer forced wins, of three moves or more, numbered like the problem section of a book (“White to play wins in 6 moves”). ' +
  'They are not rated. The number of moves stated is the shortest win, proved by the solver; the opponent’s best defence is played for you.';

/** A problem of a collection in words ("Problem 3: White to play wins in 4 moves"). */
const problemText = (p) => `Problem ${p.number}: ${p.goal}`;

const SIGN_IN =
  '<a href="#/account?form=signin">Sign in</a> to get a puzzle rating; as a guest your attempts are not rated.';

/** The player's puzzle rating in words (`data`: the answer of GET /api/puzzles). */
function playerHtml(data) {
  if (!data || !data.signed_in) return SIGN_IN;
  const p = data.player;
  if (!p) return 'No puzzle rating yet: your first attempt at a puzzle sets it.';
  return `Your puzzle rating: ${ratingHtml(p.rating.rating, p.rating.provisional)} <span class="small muted">(${esc(plural(p.attempts, 'attempt', 'attempts'))}, ${esc(p.solved)} solved)</span>`;
}

/** The list of the games with puzzles (#/puzzles); returns the page ({dispose}). */
export function puzzlesPage(app) {
  let disposed = false;
  document.title = 'Puzzles – Denkmeter';
  app.innerHTML = `
    <div class="puzzles-page">
      <section class="card">
        <h1>Puzzles</h1>
        <p>${esc(ABOUT)}</p>
        <p id="player-rating" class="puzzle-player" aria-live="polite"></p>
      </section>
      <section class="card">
        <h2>Games</h2>
        <div id="puzzle-families"><p class="muted">Loading…</p></div>
      </section>
      <section class="card" id="problems-section">
        <h2>Problems</h2>
        <p>${esc(PROBLEMS_ABOUT)}</p>
        <div id="problem-collections"><p class="muted">Loading…</p></div>
      </section>
    </div>`;
  const families = app.querySelector('#puzzle-families');
  const collections = app.querySelector('#problem-collections');
  const player = app.querySelector('#player-rating');
  const load = () =>
    api('GET', '/api/puzzles')
      .then((data) => {
        if (disposed) return;
        player.innerHTML = playerHtml(data);
        const list = (data && data.families) || [];
        families.innerHTML = list.length
          ? `<ul class="puzzle-families">${list
              .map((f) => `<li><a href="${esc(familyHref(f.family))}" data-family="${esc(f.family)}">${esc(f.title || f.family)}</a> <span class="small muted">${esc(plural(f.count, 'puzzle', 'puzzles'))}</span></li>`)
              .join('')}</ul>`
          : '<p class="muted" id="no-puzzles">No puzzles yet.</p>';
        const books = (data && data.problems) || [];
        collections.innerHTML = books.length
          ? `<ul class="puzzle-families problem-collections">${books
              .map((f) => `<li><a href="${esc(problemsHref(f.family))}" data-problems="${esc(f.family)}">${esc(f.title || f.family)}</a> <span class="small muted">${esc(plural(f.count, 'problem', 'problems'))}</span></li>`)
              .join('')}</ul>`
          : '<p class="muted" id="no-problems">No problems yet.</p>';
      })
      .catch((e) => {
        if (disposed) return;
        families.innerHTML = `<p class="error" role="alert">${esc(e.message)}</p>`;
        collections.innerHTML = '';
      });
  load();
  // Signed in or out meanwhile (here or in another tab): the rating is asked for again.
  const stop = onSession(() => {
    if (!disposed) load();
  });
  return {
    dispose() {
      disposed = true;
      stop();
    },
  };
}

/** A game's problem collection, by number (#/problems/{family}); returns the page ({dispose}). */
export function problemsPage(app, family) {
  let disposed = false;
  document.title = 'Problems – Denkmeter';
  app.innerHTML = `
    <div class="puzzles-page problems-page">
      <section class="card">
        <h1 id="problems-title">Problems</h1>
        <p>${esc(PROBLEMS_ABOUT)}</p>
        <div id="problem-list"><p class="muted">Loading…</p></div>
      </section>
      <p class="small"><a href="#/puzzles" id="all-puzzles">← All puzzles and problems</a></p>
    </div>`;
  const list = app.querySelector('#problem-list');
  api('GET', problemsPath(family))
    .then((data) => {
      if (disposed) return;
      const name = data.title || data.family || family;
      document.title = `Problems · ${name} – Denkmeter`;
      app.querySelector('#problems-title').textContent = `${name} problems`;
      const problems = data.problems || [];
      list.innerHTML = problems.length
        ? `<ol class="problem-list">${problems
            .map((p) => `<li value="${esc(p.number)}"><a href="${esc(puzzleHref(p.id))}" data-problem="${esc(p.id)}" data-number="${esc(p.number)}">${esc(problemText(p))}</a></li>`)
            .join('')}</ol>`
        : '<p class="muted">No problems yet.</p>';
    })
    .catch((e) => {
      if (disposed) return;
      if (e.status === 404) app.querySelector('#problems-title').textContent = 'No problems of this game';
      list.innerHTML = `<p class="error" role="alert">${esc(e.message)}</p>`;
    });
  return {
    dispose() {
      disposed = true;
    },
  };
}

/**
 * A puzzle to solve: `route` is `{family}` (the server chooses one of that game's puzzles) or
 * `{id}` (that puzzle).
 */
export class PuzzlePage {
  constructor(app, route) {
    this.app = app;
    this.route = route;
    this.puzzle = null; // GET /api/puzzles/{id} or /next: the puzzle, without its solution
    this.info = null; // the answer for its position with the board (POST /api/positions)
    this.player = null; // GET /api/puzzles: who is signed in and their puzzle rating
    this.board = null;
    this.flipped = false;
    this.positions = new Map(); // moves joined by spaces -> the promise of that position
    this.generation = 0; // changes with each puzzle shown: older answers are dropped
    this.reset();
    this.disposed = false;
    this.build();
    this.start();
  }

  /** The state of an attempt, before its first move. */
  reset() {
    this.phase = 'loading'; // 'solving', 'busy' (a move being checked or replied to), 'over'
    this.mine = []; // the solver's moves so far, all right
    this.plies = []; // the moves on the board: the solver's and the replies
    this.solution = null; // the whole line, once the attempt has ended
    this.ending = null; // how it ended: {kind: 'solved'|'wrong'|'shown', at, expected, played}
    this.change = null; // the rating change of a rated attempt
    this.step = 0; // once over: the position of the solution on show
    this.stepAsked = 0;
  }

  dispose() {
    this.disposed = true;
    this.generation += 1;
    if (this.board) this.board.destroy();
    document.removeEventListener('keydown', this.onKey);
    if (this.stopSession) this.stopSession();
  }

  // --- the page

  build() {
    document.title = 'Puzzle – Denkmeter';
    this.app.innerHTML = `
      <div class="game puzzle-page" id="puzzle-page">
        <div class="board-col">
          <div id="board"><p class="muted">Loading…</p></div>
          <div class="replay" id="solution-nav" role="group" aria-label="The solution, move by move" hidden>
            <button type="button" id="nav-first" title="The puzzle's position" aria-label="First">«</button>
            <button type="button" id="nav-prev" title="One move back (←)" aria-label="Previous">‹</button>
            <span id="nav-ply" class="ply"></span>
            <button type="button" id="nav-next" title="One move on (→)" aria-label="Next">›</button>
            <button type="button" id="nav-last" title="The end of the solution" aria-label="Last">»</button>
          </div>
        </div>
        <aside class="panel puzzle-panel">
          <div class="card">
            <div class="game-head">
              <h1 id="puzzle-title">Puzzle</h1>
              <a id="rules-link" class="small" href="#/puzzles" hidden>Rules</a>
            </div>
            <p class="small muted" id="puzzle-about"></p>
            <p class="puzzle-goal" id="puzzle-goal"></p>
            <p class="small" id="puzzle-rating"></p>
            <div class="status" id="puzzle-status" aria-live="polite"></div>
            <div class="puzzle-change" id="rating-change" aria-live="polite" hidden></div>
            <p class="error" id="puzzle-error" role="alert" hidden></p>
            <div class="actions">
              <button type="button" id="show-solution" aria-describedby="solution-warning">Show solution</button>
              <button type="button" class="primary" id="next-puzzle">Next puzzle</button>
              <a class="button" id="problem-collection" href="#/puzzles" hidden>All problems</a>
              <a class="button" id="board-link" href="#/" hidden>Open on the analysis board</a>
            </div>
            <p class="small muted" id="solution-warning" hidden>Showing the solution counts as a failed attempt for your puzzle rating.</p>
          </div>
          <div class="card">
            <div class="card-head">
              <h2 id="moves-title">Moves</h2>
              <button type="button" class="link-button" id="flip">Flip board</button>
            </div>
            <div class="move-tree puzzle-moves" id="puzzle-moves" aria-labelledby="moves-title"></div>
          </div>
          <div class="card" id="rating-card">
            <h2>Your puzzle rating</h2>
            <p id="player-rating" class="puzzle-player"><span class="muted">Loading…</span></p>
            <p class="small muted" id="attempt-rated" hidden></p>
          </div>
          <p class="small"><a href="#/puzzles" id="all-puzzles">← All puzzles</a></p>
        </aside>
      </div>`;
    const on = (id, fn) => document.getElementById(id).addEventListener('click', fn);
    on('next-puzzle', () => this.next());
    on('show-solution', () => this.showSolution());
    on('flip', () => {
      this.flipped = !this.flipped;
      this.redraw();
    });
    on('nav-first', () => this.showStep(0));
    on('nav-prev', () => this.showStep(this.step - 1));
    on('nav-next', () => this.showStep(this.step + 1));
    on('nav-last', () => this.showStep(this.solution ? this.solution.length : 0));
    on('puzzle-moves', (e) => {
      const el = e.target.closest('[data-ply]');
      if (el && this.phase === 'over') this.showStep(Number(el.dataset.ply));
    });
    this.onKey = (e) => {
      if (e.target && /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
      if (e.altKey || e.ctrlKey || e.metaKey || this.phase !== 'over' || !this.solution) return;
      const to = { ArrowLeft: this.step - 1, ArrowRight: this.step + 1, ArrowUp: 0, ArrowDown: this.solution.length }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      this.showStep(to);
    };
    document.addEventListener('keydown', this.onKey);
    // Signed in or out meanwhile: the rating, and whether this attempt is rated, asked for again.
    this.stopSession = onSession(() => this.refreshPlayer(true));
  }

  showError(message) {
    const box = document.getElementById('puzzle-error');
    if (!box) return;
    box.textContent = message;
    box.hidden = !message;
  }

  /** Whether the puzzle on show is one of a game's problems (numbered, not rated). */
  isProblem() {
    return Boolean(this.puzzle && this.puzzle.collection === 'problems');
  }

  /** Whether a problem after this one is in its collection. */
  hasNextProblem() {
    const p = this.puzzle;
    return Boolean(p && (!p.number || !p.of || p.number < p.of));
  }

  notFound(heading, message) {
    this.dispose();
    this.app.innerHTML = `<section class="card"><h1>${esc(heading)}</h1><p class="error" role="alert">${esc(message)}</p><p><a href="#/puzzles">All puzzles</a></p></section>`;
  }

  // --- loading

  async start() {
    let puzzle;
    try {
      puzzle = this.route.id
        ? await api('GET', puzzlePath(this.route.id))
        : await api('GET', `/api/puzzles/next${query({ family: this.route.family })}`);
    } catch (e) {
      if (this.disposed) return;
      if (e.status === 404) this.notFound(this.route.id ? 'No such puzzle' : 'No puzzles of this game', e.message);
      else this.notFound('The puzzle cannot be shown', e.message);
      return;
    }
    if (this.disposed) return;
    // The family's address becomes the puzzle's: a reload, or the link shared, shows it again.
    if (!this.route.id) history.replaceState(null, '', puzzleHref(puzzle.id));
    this.refreshPlayer(false);
    await this.show(puzzle);
  }

  /** Asks for the player's puzzle rating (`again`: and whether the puzzle on show was tried). */
  async refreshPlayer(again) {
    this.playerAsked = (this.playerAsked || 0) + 1;
    const asked = this.playerAsked;
    try {
      const [data, puzzle] = await Promise.all([
        api('GET', '/api/puzzles'),
        again && this.puzzle ? api('GET', puzzlePath(this.puzzle.id)) : Promise.resolve(null),
      ]);
      if (this.disposed || asked !== this.playerAsked) return;
      this.player = data;
      if (puzzle && this.puzzle && puzzle.id === this.puzzle.id) this.puzzle.attempted = puzzle.attempted;
      this.renderPlayer();
    } catch (e) {
      if (this.disposed || asked !== this.playerAsked) return;
      document.getElementById('player-rating').innerHTML = `<span class="error">The rating cannot be shown: ${esc(e.message)}</span>`;
    }
  }

  /** Shows `puzzle`, a new attempt at it. */
  async show(puzzle) {
    this.generation += 1;
    const generation = this.generation;
    this.puzzle = puzzle;
    this.positions = new Map();
    this.reset();
    this.flipped = false;
    this.showError('');
    this.renderText();
    this.renderStatus();
    this.renderMoves();
    this.renderControls();
    this.renderPlayer();
    let first;
    try {
      first = await this.position([], true);
    } catch (e) {
      if (!this.disposed && generation === this.generation) this.showError(`The puzzle's position cannot be shown: ${e.message}`);
      return;
    }
    if (this.disposed || generation !== this.generation) return;
    this.info = first;
    if (this.board) this.board.destroy();
    this.board = createBoard(document.getElementById('board'), {
      board: first.board,
      orientation: this.orientation(),
      onMove: (text) => this.move(text),
      pageArrows: true,
    });
    this.phase = 'solving';
    this.draw([], first);
    this.renderStatus();
    this.renderControls();
  }

  /** The next puzzle of the same game (not this one again), or a problem's next by number. */
  async next() {
    if (!this.puzzle) return;
    const button = document.getElementById('next-puzzle');
    button.disabled = true;
    const problem = this.isProblem();
    try {
      const puzzle = problem
        ? await this.nextProblem()
        : await api('GET', `/api/puzzles/next${query({ family: this.puzzle.family, after: this.puzzle.id })}`);
      if (this.disposed) return;
      if (!puzzle) {
        this.puzzle.of = this.puzzle.number; // the last one after all
        this.renderControls();
        return;
      }
      history.pushState(null, '', puzzleHref(puzzle.id));
      window.scrollTo(0, 0);
      await this.show(puzzle);
    } catch (e) {
      if (!this.disposed) this.showError(`No next ${problem ? 'problem' : 'puzzle'}: ${e.message}`);
    } finally {
      if (!this.disposed) button.disabled = false;
    }
  }

  /** The problem numbered after this one in its collection (GET /api/problems/{family}), or null. */
  async nextProblem() {
    const p = this.puzzle;
    const data = await api('GET', problemsPath(p.family));
    const list = (data && data.problems) || [];
    const at = list.findIndex((q) => q.id === p.id);
    const entry = at >= 0 ? list[at + 1] : list.find((q) => q.number === p.number + 1);
    return entry ? api('GET', puzzlePath(entry.id)) : null;
  }

  /** The position after `moves` from the puzzle's (asked for once; `withBoard`: drawing's too). */
  position(moves, withBoard = false) {
    const key = moves.join(' ');
    let asked = this.positions.get(key);
    if (!asked) {
      const p = this.puzzle;
      asked = api('POST', POSITIONS, { ruleset: p.ruleset, position: p.position, moves, ...(withBoard ? { with_board: true } : {}) });
      // A failure is not kept: the next visit asks again.
      asked.catch(() => {
        if (this.positions.get(key) === asked) this.positions.delete(key);
      });
      this.positions.set(key, asked);
    }
    return asked;
  }

  // --- solving

  /** The board's move callback: the server checks the move; a refusal rejects (the board takes it back). */
  async move(text) {
    if (this.phase !== 'solving') throw new Error('not your move now');
    const generation = this.generation;
    const moves = [...this.mine, text];
    this.phase = 'busy';
    this.showError('');
    this.renderStatus('Checking…');
    this.renderControls();
    let r;
    try {
      r = await api('POST', puzzlePath(this.puzzle.id, 'attempt'), { moves });
    } catch (e) {
      if (this.disposed || generation !== this.generation) throw e;
      this.phase = 'solving';
      this.showError(`Move ${text} was not checked: ${e.message}`);
      this.renderStatus();
      this.renderControls();
      throw e;
    }
    if (this.disposed || generation !== this.generation) return;
    if (r.rating) this.rated(r.rating, r.result === 'solved');
    if (r.result === 'wrong') {
      const played = r.played || [];
      this.end('wrong', r.solution || [], { at: played.length, expected: r.expected, played: text });
      return;
    }
    this.mine = moves;
    const replies = r.replies || [];
    const line = r.played || [...this.plies, text];
    // The position after the move (the board shows it meanwhile), then each reply after a moment.
    const afterMove = line.slice(0, line.length - replies.length);
    this.plies = afterMove;
    this.renderMoves();
    this.renderStatus(replies.length ? 'Right! The reply comes…' : 'Right!');
    try {
      this.draw(afterMove, await this.position(afterMove));
    } catch (e) {
      if (this.disposed || generation !== this.generation) return;
      this.showError(`The position after ${text} cannot be shown: ${e.message}`);
      this.board.set({ canMove: false, moves: [] });
    }
    if (this.disposed || generation !== this.generation) return;
    this.replies(r, afterMove, replies, generation).catch((e) => {
      if (!this.disposed && generation === this.generation) this.showError(`The reply cannot be shown: ${e.message}`);
    });
  }

  /** Plays the opponent's `replies` after the solver's right move, then waits for the next (or ends). */
  async replies(r, afterMove, replies, generation) {
    for (let i = 1; i <= replies.length; i += 1) {
      await sleep(REPLY_DELAY_MS);
      if (this.disposed || generation !== this.generation) return;
      const moves = [...afterMove, ...replies.slice(0, i)];
      const p = await this.position(moves);
      if (this.disposed || generation !== this.generation) return;
      this.plies = moves;
      this.renderMoves();
      this.draw(moves, p);
    }
    if (r.result === 'solved') {
      this.end('solved', r.solution || this.plies, {});
      return;
    }
    this.phase = 'solving';
    this.draw(this.plies, await this.position(this.plies));
    this.renderStatus();
    this.renderControls();
  }

  /** "Show solution": gives up (a failed attempt, if it is rated) and shows the solution. */
  async showSolution() {
    if (this.phase !== 'solving') return;
    const generation = this.generation;
    this.phase = 'busy';
    this.renderControls();
    let r;
    try {
      r = await api('POST', puzzlePath(this.puzzle.id, 'solution'), {});
    } catch (e) {
      if (this.disposed || generation !== this.generation) return;
      this.phase = 'solving';
      this.showError(`The solution cannot be shown: ${e.message}`);
      this.renderControls();
      return;
    }
    if (this.disposed || generation !== this.generation) return;
    if (r.rating) this.rated(r.rating, false);
    const solution = r.solution || [];
    // From where the player had got to: the move to find there.
    const at = this.plies.length <= solution.length ? this.plies.length : 0;
    this.end('shown', solution, { at, expected: solution[at] || r.expected });
  }

  /** The attempt has ended: the solution is known and can be stepped through. */
  end(kind, solution, { at = solution.length, expected = null, played = null }) {
    this.phase = 'over';
    this.solution = solution;
    this.ending = { kind, at, expected, played };
    if (this.player && this.player.signed_in && this.puzzle) this.puzzle.attempted = true;
    this.renderStatus();
    this.renderControls();
    this.renderPlayer();
    this.showStep(kind === 'solved' ? solution.length : at);
  }

  /** A rated attempt (`solved` or not): the player's and the puzzle's new ratings. */
  rated(change, solved) {
    this.change = change;
    if (this.player) {
      const before = this.player.player;
      this.player = {
        ...this.player,
        signed_in: true,
        player: {
          name: (before && before.name) || signedInName() || '',
          rating: change.after,
          attempts: ((before && before.attempts) || 0) + 1,
          solved: ((before && before.solved) || 0) + (solved ? 1 : 0),
        },
      };
    }
    this.puzzle.rating = change.puzzle_after;
    this.puzzle.attempts = (this.puzzle.attempts || 0) + 1;
    this.puzzle.solved = (this.puzzle.solved || 0) + (solved ? 1 : 0);
    this.renderText();
    this.renderChange();
    this.renderPlayer();
    // The server's own counts (an answer asked for before this attempt is dropped).
    this.refreshPlayer(false);
  }

  // --- the solution, once the attempt has ended

  /** Shows the position after `step` plies of the solution. */
  async showStep(step) {
    if (this.phase !== 'over' || !this.solution) return;
    const to = Math.max(0, Math.min(this.solution.length, step));
    this.step = to;
    this.stepAsked += 1;
    const asked = this.stepAsked;
    this.renderMoves();
    this.renderNav();
    const moves = this.solution.slice(0, to);
    if (!this.positions.has(moves.join(' '))) {
      await sleep(FETCH_DELAY_MS);
      if (this.disposed || asked !== this.stepAsked) return;
    }
    const generation = this.generation;
    try {
      const p = await this.position(moves);
      if (this.disposed || asked !== this.stepAsked || generation !== this.generation) return;
      this.draw(moves, p);
    } catch (e) {
      if (!this.disposed && asked === this.stepAsked) this.showError(`The position cannot be shown: ${e.message}`);
    }
  }

  // --- drawing

  orientation() {
    const solver = this.puzzle && this.puzzle.to_move === 'black' ? 'black' : 'white';
    if (!this.flipped) return solver;
    return solver === 'white' ? 'black' : 'white';
  }

  /**
   * The words above the board: the goal while the attempt goes on (in view with the board on a
   * phone), then who is to move, or how the game ended.
   */
  caption(p) {
    const names = this.info && this.info.side_names;
    if (p.status === 'over') return `<strong class="board-status over">${esc(p.outcome || 'The game is over')}</strong>`;
    if (this.phase !== 'over') {
      const yours = this.phase === 'solving' && p.to_move === this.puzzle.to_move ? ' · your move' : '';
      return `<span class="board-status">${esc(this.puzzle.goal)}${yours}</span>`;
    }
    return `<span class="board-status">${esc(title(p.to_move, names))} to move</span>`;
  }

  /** Draws the position `p` after `moves` on the board. */
  draw(moves, p) {
    if (!this.board || !p) return;
    this.shown = { moves, p };
    const live = this.phase === 'solving' && p.status !== 'over';
    const ending = this.ending;
    // Where the attempt went wrong (or was given up), the winning move is marked.
    const hint = this.phase === 'over' && ending && ending.expected && moves.length === ending.at
      ? (p.legal_moves || []).find((m) => m.text === ending.expected) || null
      : null;
    this.board.set({
      position: `${this.puzzle.id}|${this.generation}|${moves.join(' ')}`,
      pieces: p.pieces || [],
      absent: p.absent || [],
      lastMove: p.last_move || null,
      moves: live ? p.legal_moves || [] : [],
      canMove: live,
      orientation: this.orientation(),
      sideNames: this.info.side_names,
      names: hasNumbers(this.info.board) && squareNumbersWanted(),
      highlights: (p.highlights || []).filter((h) => !h.side || h.side === 'front'),
      hint,
      caption: this.caption(p),
      toMove: p.to_move,
      editing: false,
      editPiece: null,
    });
  }

  /** Draws the position on show again (the board flipped). */
  redraw() {
    if (this.shown) this.draw(this.shown.moves, this.shown.p);
  }

  /** The title, the game, the goal and the puzzle's rating (a problem has none). */
  renderText() {
    const p = this.puzzle;
    if (!p) return;
    const game = p.family_title && p.family_title !== p.ruleset_title ? `${p.family_title} · ${p.ruleset_title}` : p.ruleset_title || p.ruleset;
    if (this.isProblem()) {
      const number = p.number ? ` ${p.number}` : '';
      document.title = `Problem${number} · ${game} – Denkmeter`;
      document.getElementById('puzzle-title').textContent = `Problem${number}${p.of ? ` of ${p.of}` : ''} — ${p.family_title || p.ruleset_title}`;
      const rulesLink = document.getElementById('rules-link');
      rulesLink.href = `#/rules/${encodeURIComponent(p.ruleset)}`;
      rulesLink.hidden = false;
      document.getElementById('puzzle-about').innerHTML = `${esc(p.ruleset_title || p.ruleset)} · <a href="${esc(puzzleHref(p.id))}" id="puzzle-link" title="The address of this problem, to share">problem ${esc(p.id)}</a>${p.source ? ` · found in ${esc(p.source)}` : ''}`;
      document.getElementById('puzzle-goal').textContent = p.goal || '';
      document.getElementById('puzzle-rating').textContent = 'Not rated. The win stated is the shortest, proved by the solver.';
      return;
    }
    document.title = `Puzzle · ${game} – Denkmeter`;
    document.getElementById('puzzle-title').textContent = `Puzzle · ${p.family_title || p.ruleset_title}`;
    const rules = document.getElementById('rules-link');
    rules.href = `#/rules/${encodeURIComponent(p.ruleset)}`;
    rules.hidden = false;
    document.getElementById('puzzle-about').innerHTML = `${esc(p.ruleset_title || p.ruleset)} · <a href="${esc(puzzleHref(p.id))}" id="puzzle-link" title="The address of this puzzle, to share">puzzle ${esc(p.id)}</a>${p.source ? ` · found in ${esc(p.source)}` : ''}`;
    document.getElementById('puzzle-goal').textContent = p.goal || '';
    const tried = p.attempts ? ` · tried ${plural(p.attempts, 'time', 'times')}, solved ${p.solved}` : ' · not tried yet';
    document.getElementById('puzzle-rating').innerHTML = `Puzzle rating ${ratingHtml(p.rating.rating, p.rating.provisional)}<span class="muted">${esc(tried)}</span>`;
  }

  /** What is happening: whose move, checking, or how the attempt ended. */
  renderStatus(text = null) {
    const box = document.getElementById('puzzle-status');
    if (!box || !this.puzzle) return;
    box.className = 'status';
    if (this.phase === 'over' && this.ending) {
      const e = this.ending;
      if (e.kind === 'solved') {
        box.classList.add('solved');
        box.innerHTML = '<span id="puzzle-result">Solved!</span>';
      } else if (e.kind === 'wrong') {
        box.classList.add('wrong');
        const yours = e.played && e.played !== e.expected ? ` <span class="small">(you played ${esc(e.played)})</span>` : '';
        box.innerHTML = `<span id="puzzle-result">Wrong: the winning move was <span class="puzzle-move" id="winning-move">${esc(e.expected || '?')}</span></span>${yours}`;
      } else {
        box.innerHTML = `<span id="puzzle-result">The solution: the winning move was <span class="puzzle-move" id="winning-move">${esc(e.expected || '?')}</span></span>`;
      }
      return;
    }
    if (this.phase === 'loading') {
      box.textContent = 'Loading…';
      return;
    }
    if (text) {
      box.textContent = text;
      return;
    }
    box.classList.add('your-turn');
    box.textContent = this.mine.length
      ? `Right! Find ${this.puzzle.side_name}’s next winning move.`
      : `Your move: find the winning move for ${this.puzzle.side_name}.`;
  }

  /** The buttons: "Show solution" while solving, the analysis board once over. */
  renderControls() {
    const p = this.puzzle;
    const over = this.phase === 'over';
    const give = document.getElementById('show-solution');
    give.hidden = over;
    give.disabled = this.phase !== 'solving';
    const signedIn = Boolean(this.player && this.player.signed_in);
    const problem = this.isProblem();
    const warning = document.getElementById('solution-warning');
    warning.hidden = problem || over || !signedIn || !p || Boolean(p.attempted);
    // The first right move begins the attempt: leaving it for another puzzle fails it too.
    warning.textContent = this.mine.length
      ? 'You have begun this puzzle: showing the solution or moving on to the next puzzle counts as a failed attempt for your puzzle rating.'
      : 'Showing the solution counts as a failed attempt for your puzzle rating.';
    const next = document.getElementById('next-puzzle');
    next.textContent = problem ? 'Next problem' : 'Next puzzle';
    next.hidden = problem && !this.hasNextProblem();
    next.disabled = this.phase === 'loading';
    const collection = document.getElementById('problem-collection');
    collection.hidden = !problem;
    if (problem) {
      collection.href = problemsHref(p.family);
      collection.textContent = `All ${p.family_title || p.family} problems`;
    }
    document.getElementById('solution-nav').hidden = !over;
    document.getElementById('board-link').hidden = !over;
    this.renderNav();
  }

  /** The buttons that step through the solution, and the analysis board's link to the position on show. */
  renderNav() {
    if (this.phase !== 'over' || !this.solution) return;
    const n = this.solution.length;
    document.getElementById('nav-ply').textContent = `${this.step} / ${n}`;
    document.getElementById('nav-first').disabled = this.step === 0;
    document.getElementById('nav-prev').disabled = this.step === 0;
    document.getElementById('nav-next').disabled = this.step >= n;
    document.getElementById('nav-last').disabled = this.step >= n;
    const p = this.puzzle;
    const moves = this.solution.join(' ');
    document.getElementById('board-link').href = `#/board/${encodeURIComponent(p.ruleset)}${query({ position: p.position, moves: moves || null, ply: this.step === n ? null : this.step })}`;
  }

  /** The moves: those played so far, or once over the whole solution (each a step to click). */
  renderMoves() {
    const box = document.getElementById('puzzle-moves');
    if (!box || !this.puzzle) return;
    const first = this.puzzle.to_move;
    const over = this.phase === 'over' && this.solution;
    const moves = over ? this.solution : this.plies;
    if (!moves.length) {
      box.innerHTML = '<span class="muted empty">No moves yet: make yours on the board.</span>';
      return;
    }
    const parts = moves.map((move, i) => {
      const ply = i + 1;
      const number = moveNumber(ply, first);
      const label = i === 0 || !number.endsWith('...') ? `<span class="num">${number}</span> ` : '';
      const current = over && ply === this.step ? ' current' : '';
      const mistake = over && this.ending && this.ending.kind !== 'solved' && i === this.ending.at ? ' winning' : '';
      const attrs = over ? ` data-ply="${ply}" title="The position after ${esc(move)}"` : '';
      return `${label}<span class="move${current}${mistake}"${attrs}>${esc(move)}</span>`;
    });
    box.innerHTML = parts.join(' ');
    box.classList.toggle('over', Boolean(over));
  }

  /** What a rated attempt did to the ratings. */
  renderChange() {
    const box = document.getElementById('rating-change');
    const c = this.change;
    box.hidden = !c;
    if (!c) return;
    const arrow = (a, b) => `${ratingHtml(a.rating, a.provisional)} → ${ratingHtml(b.rating, b.provisional)} ${changeHtml(b.rating - a.rating)}`;
    box.innerHTML = `<p class="puzzle-change-line" id="player-change">Your puzzle rating: ${arrow(c.before, c.after)}</p><p class="small muted">The puzzle’s rating: ${arrow(c.puzzle_before, c.puzzle_after)}</p>`;
  }

  /** The player's puzzle rating, and whether this attempt counts for it. */
  renderPlayer() {
    const box = document.getElementById('player-rating');
    const note = document.getElementById('attempt-rated');
    if (!box) return;
    // A problem is not rated: no puzzle rating beside it.
    document.getElementById('rating-card').hidden = this.isProblem();
    if (!this.player) return;
    box.innerHTML = playerHtml(this.player);
    const p = this.puzzle;
    if (!this.player.signed_in || !p || this.isProblem()) {
      note.hidden = true;
    } else if (this.phase === 'over') {
      note.hidden = !this.change;
      note.textContent = this.change ? 'This attempt was rated: later ones at this puzzle are not.' : '';
    } else {
      note.hidden = false;
      note.textContent = p.attempted
        ? 'You have tried this puzzle before: this attempt is not rated.'
        : 'This attempt is rated: your first at this puzzle.';
    }
    this.renderControls();
  }
}
