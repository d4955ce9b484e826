// The analysis board (#/board/{ruleset}[?position=P&moves=M&ply=N], #/board/game/{id}[?ply=N],
// #/board/analysis/{id}[?ply=N]): a board on which the player makes the moves of either side,
// kept as a tree of variations, with the engine's view of the position on show. The browser
// holds no rules: every position, its legal moves and the pieces a position may be set up with
// come from the server (POST /api/positions), and the engine's lines from the analysis socket
// (/api/analysis/ws), asked again at every change of position (docs/api.md).
//
// The tree: each node is a move (the root, the start position, has none); its first child is the
// main line, the others are variations, written in parentheses. The "current line" runs from the
// root through the node on show to `lineEnd`: ← and → step along it, ↑ and ↓ go to its ends.
// A game's or an analysis's moves are the main line; their ply, and a line that leaves them, are
// kept in the address (history.replaceState) so that a reload or a shared link shows the same.
//
// "Set up position" turns the board into an editor: a palette of the game's pieces (the server's
// editor tokens), an eraser, the side to move; "Done" has the server check the position and, if
// its rules allow it, makes it the new root.

import { api, getGame, query } from './api.js';
import { createBoard } from './board/board.js';
import { attr, hasNumbers, legendOf, pieceShape } from './board/draw.js';
import { EvalBar } from './board/evalbar.js';
import { squareNumbersWanted } from './game/page.js';
import { showMessage } from './game/view.js';
import { seats } from './seats.js';
import { GameSocket } from './socket.js';
import { capital, copyFromInput, esc, moveNumber, rulesetName, title } from './text.js';

const POSITIONS = '/api/positions';
const SOCKET_PATH = '/api/analysis/ws';
/** How long a change of position waits before the engine is asked (arrow keys held down). */
const ENGINE_DELAY_MS = 120;
/**
 * How long stepping to a position not yet known waits before asking for it: a key held down
 * asks for the last position only (the server counts these requests as moves, ten a second).
 */
const FETCH_DELAY_MS = 80;
/** How often a search refused as `busy` (asked too soon after another) is asked again. */
const BUSY_RETRIES = 3;
/** At most this many games held here are named to the engine (the server reads no more). */
const MAX_PLAYING = 50;
/** What a `done` message's reason says. */
const DONE_WORDS = {
  depth: 'The search is complete.',
  time: 'The search ended after its 20 seconds.',
  nodes: 'The search ended at its limit of positions.',
  stopped: 'The search was stopped.',
  over: 'The game is over here.',
};

let nodeCount = 0;

/** A position of the tree: the move that led to it from `parent` (null for the root). */
class Node {
  constructor(move, parent) {
    nodeCount += 1;
    this.id = nodeCount;
    this.move = move;
    this.parent = parent;
    this.children = [];
    this.ply = parent ? parent.ply + 1 : 0;
    this.data = null; // the server's answer for this position (POST /api/positions)
    this.asked = null; // the promise of that answer
  }

  /** The moves from the root to this node. */
  path() {
    const moves = [];
    for (let n = this; n.parent; n = n.parent) moves.push(n.move);
    return moves.reverse();
  }

  /** The child that plays `move`, or null. */
  child(move) {
    return this.children.find((c) => c.move === move) || null;
  }
}

/** Whether `a` is `b` or one of its ancestors. */
function leadsTo(a, b) {
  for (let n = b; n; n = n.parent) if (n === a) return true;
  return false;
}

/** The end of the main line from `node` on (its first children). */
function mainEnd(node) {
  let n = node;
  while (n.children.length) [n] = n.children;
  return n;
}

/** Whether `node` lies on the main line (it and each node above it a first child). */
function onMainLine(node) {
  for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return false;
  return true;
}

/** Moves written in an address, separated by spaces (URLSearchParams reads a `+` as one). */
function splitMoves(text) {
  return String(text || '').split(/\s+/).filter(Boolean);
}

/** Whether the moves `line` begin the moves `moves` (or are all of them). */
const startsWith = (moves, line) => line.length <= moves.length && line.every((m, i) => moves[i] === m);

/** A count of nodes in words: `1,234,567 nodes`. */
const nodesText = (n) => `${Number(n).toLocaleString('en-US')} nodes`;

export class AnalysisBoardPage {
  /** `route`: the parts of the address after `board`; `params` its query. */
  constructor(app, route, params) {
    this.app = app;
    if (route[0] === 'game' && route[1]) this.source = { game: route[1] };
    else if (route[0] === 'analysis' && route[1]) this.source = { analysis: route[1] };
    else this.source = { ruleset: route[0] || '', position: params.get('position') || '' };
    this.params = params;
    this.info = null; // what the first answer tells of the game: board, names, editor tokens
    this.gameMoves = null; // the moves of the game or analysis opened, which the address refers to
    this.gameId = null; // the game the board's position comes from, if any (for its board file)
    this.root = null;
    this.current = null; // the node on show
    this.lineEnd = null; // where the current line ends
    this.rootKey = 0; // changes with the root: a position's key for the board component
    this.board = null;
    this.bar = null;
    this.flipped = false;
    this.editor = null; // while setting up a position: {grid, toMove, tool}
    this.startAnswer = null; // the ruleset's start position, asked for once (the editor's "Start position")
    this.boardFile = undefined; // a Schada board file the positions are played on ({name, text}), or null
    this.engineOn = true;
    this.refusal = null; // the server's words when it refused the engine (live-game)
    this.engine = null; // the search asked for: {id, node, status, last, message, text}
    this.engineId = 0;
    this.engineTimer = null;
    this.busyRetries = 0; // searches of the position on show refused as busy and asked again
    this.disposed = false;
    this.build();
    const settled = () => this.engine && (this.engine.status === 'done' || this.engine.status === 'error');
    this.socket = new GameSocket(
      () => `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${SOCKET_PATH}`,
      {
        onMessage: (m) => this.engineMessage(m),
        onOpen: () => {
          // A new connection knows of no search: ask again for the position on show, unless
          // its search had ended.
          if (this.engineWanted() && !settled()) this.askEngine(0);
        },
        onClose: () => {
          if (this.engine && this.engineWanted() && !settled()) {
            this.engine.status = 'reconnecting';
            this.renderEngine();
          }
        },
      },
      // The server pings at the WebSocket level; a text `ping` would be a malformed request.
      { heartbeat: false },
    );
    this.start();
  }

  dispose() {
    this.disposed = true;
    clearTimeout(this.engineTimer);
    this.socket.close();
    document.removeEventListener('keydown', this.onKey);
    window.removeEventListener('resize', this.onResize);
    if (this.board) this.board.destroy();
    showMessage('');
  }

  // --- the page

  build() {
    document.title = 'Analysis board – Denkmeter';
    this.app.innerHTML = `
      <div class="error toast" id="message" role="alert" hidden>
        <span id="message-text"></span>
        <button type="button" class="link-button" id="message-close" aria-label="Dismiss">×</button>
      </div>
      <div class="game analysis-page analysis-board" id="analysis-board">
        <div class="board-col">
          <div id="board"><p class="muted">Loading…</p></div>
          <div class="board-under" id="board-under">
            <div class="replay" id="tree-nav">
              <button type="button" id="nav-first" title="The start (↑)" aria-label="First">«</button>
              <button type="button" id="nav-prev" title="One move back (←)" aria-label="Previous">‹</button>
              <span id="nav-ply" class="ply"></span>
              <button type="button" id="nav-next" title="One move on along this line (→)" aria-label="Next">›</button>
              <button type="button" id="nav-last" title="The end of this line (↓)" aria-label="Last">»</button>
            </div>
            <div class="editor" id="editor" role="group" aria-labelledby="editor-title" hidden>
              <p class="editor-title" id="editor-title"><strong>Set up a position:</strong> pick a piece, then click cells.</p>
              <div class="palette" id="palette"></div>
              <div class="editor-row">
                <label class="editor-to-move">To move <select id="editor-to-move"></select></label>
                <button type="button" id="editor-clear">Clear board</button>
                <button type="button" id="editor-start">Start position</button>
              </div>
              <p class="error" id="editor-error" role="alert" hidden></p>
              <div class="editor-row">
                <button type="button" class="primary" id="editor-done">Done</button>
                <button type="button" id="editor-cancel">Cancel</button>
              </div>
            </div>
          </div>
        </div>
        <aside class="analysis-panel">
          <div class="card">
            <div class="game-head">
              <h1 id="board-title">Analysis board</h1>
              <a id="rules-link" class="small" href="#/" hidden>Rules</a>
            </div>
            <p class="small" id="board-about"></p>
            <p class="small notice" id="board-note" hidden></p>
            <p class="error" id="board-error" role="alert" hidden></p>
          </div>
          <div class="card engine-card" id="engine-card">
            <div class="card-head">
              <h2>Engine</h2>
              <label class="engine-switch"><input type="checkbox" id="engine-on" checked> On</label>
            </div>
            <div class="notice engine-refused" id="engine-refused" role="status" hidden></div>
            <p class="engine-state" id="engine-state" aria-live="polite"></p>
            <p class="engine-score" id="engine-score" hidden></p>
            <p class="engine-line" id="engine-line" hidden><span class="muted">Best line:</span> <button type="button" class="link-button pv-move" id="pv-first"></button> <span class="pv-rest" id="pv-rest"></span></p>
          </div>
          <div class="card">
            <div class="card-head">
              <h2>Moves</h2>
              <button type="button" class="link-button" id="flip">Flip board</button>
            </div>
            <div class="move-tree" id="tree"></div>
            <div class="tree-actions">
              <button type="button" id="delete-variation">Delete variation</button>
              <button type="button" id="promote" title="Make the line of the move on show the main line">Make main line</button>
            </div>
          </div>
          <div class="card">
            <h2>Position</h2>
            <div class="copy-row">
              <input id="position-text" type="text" spellcheck="false" autocomplete="off" autocapitalize="off" aria-label="Position string" title="The position on show as a position string; paste another and press Load">
              <button type="button" id="copy-position">Copy position</button>
            </div>
            <p class="error" id="position-error" role="alert" hidden></p>
            <div class="tree-actions">
              <button type="button" id="load-position" title="Start from the position string in the box">Load</button>
              <button type="button" id="setup" title="Put pieces on the board by hand">Set up position</button>
            </div>
          </div>
          <p class="small"><a href="#/">← Lobby</a></p>
        </aside>
      </div>`;
    const on = (id, fn) => document.getElementById(id).addEventListener('click', fn);
    on('message-close', () => showMessage(''));
    on('nav-first', () => this.show(this.root));
    on('nav-prev', () => this.show(this.current && this.current.parent));
    on('nav-next', () => this.show(this.nextOnLine()));
    on('nav-last', () => this.show(this.lineEnd));
    on('tree', (e) => {
      const el = e.target.closest('[data-node]');
      if (el) this.show(this.findNode(Number(el.dataset.node)));
    });
    on('delete-variation', () => this.deleteVariation());
    on('promote', () => this.promote());
    on('flip', () => {
      this.flipped = !this.flipped;
      if (this.editor) this.showEditor();
      else if (this.current && this.current.data) this.showPosition(this.current);
      this.renderBar();
    });
    on('pv-first', (e) => {
      const move = e.currentTarget.dataset.move;
      if (move) this.playMove(move).catch(() => {});
    });
    document.getElementById('engine-on').addEventListener('change', (e) => this.setEngine(e.target.checked));
    on('copy-position', () => this.copyPosition());
    on('load-position', () => this.loadPosition());
    document.getElementById('position-text').addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.loadPosition();
    });
    on('setup', () => this.openEditor());
    on('palette', (e) => {
      const button = e.target.closest('button[data-token]');
      if (!button || !this.editor) return;
      this.editor.tool = button.dataset.token;
      this.showEditor();
    });
    document.getElementById('editor-to-move').addEventListener('change', (e) => {
      if (this.editor) this.editor.toMove = e.target.value;
      this.showEditor();
    });
    on('editor-clear', () => {
      if (!this.editor) return;
      this.editor.grid = {};
      this.showEditor();
    });
    on('editor-start', () => this.editorStart());
    on('editor-done', () => this.editorDone());
    on('editor-cancel', () => this.closeEditor());
    this.onKey = (e) => {
      if (e.target && /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
      // Alt+← and the like are the browser's (back and forward), not ours.
      if (e.altKey || e.ctrlKey || e.metaKey || this.editor || !this.current) return;
      const to = {
        ArrowLeft: () => this.current.parent,
        ArrowRight: () => this.nextOnLine(),
        ArrowUp: () => this.root,
        ArrowDown: () => this.lineEnd,
      }[e.key];
      if (!to) return;
      e.preventDefault();
      this.show(to());
    };
    document.addEventListener('keydown', this.onKey);
    this.onResize = () => this.fitBelow();
    window.addEventListener('resize', this.onResize);
  }

  /** What the page keeps under the board (the buttons, the editor) is kept in view with it. */
  fitBelow() {
    const under = document.getElementById('board-under');
    const page = document.getElementById('analysis-board');
    if (!under || !page) return;
    page.style.setProperty('--board-below', `${Math.ceil(under.offsetHeight) + 10}px`);
    if (this.board) this.board.fit();
  }

  showError(id, message) {
    const box = document.getElementById(id);
    if (!box) return;
    box.textContent = message;
    box.hidden = !message;
  }

  notFound(heading, message, link = '') {
    this.dispose();
    this.app.innerHTML = `<section class="card"><h1>${esc(heading)}</h1><p class="error" role="alert">${esc(message)}</p>${link}<p><a href="#/">Back to the lobby</a></p></section>`;
  }

  // --- loading

  /** The source of the positions, as POST /api/positions and the engine take it. */
  sourceBody() {
    const s = this.source;
    if (s.game) return { game: s.game };
    if (s.analysis) return { analysis: s.analysis };
    const body = { ruleset: s.ruleset };
    if (s.board) body.board = s.board;
    if (s.position) body.position = s.position;
    return body;
  }

  /** Reads the address, builds the tree of the moves it names and shows the position it names. */
  async start() {
    const s = this.source;
    const params = this.params;
    let main = splitMoves(params.get('moves'));
    let line = null;
    try {
      if (s.game) {
        const game = await getGame(s.game);
        if (this.disposed) return;
        if (game.status !== 'over') {
          const link = `<p><a href="#/game/${esc(encodeURIComponent(s.game))}">Back to the game</a></p>`;
          this.notFound('The game is still being played', 'A game is taken onto the analysis board once it is over.', link);
          return;
        }
        this.gameMoves = game.moves || [];
        this.gameId = s.game;
      } else if (s.analysis) {
        const analysis = await api('GET', `/api/analyses/${encodeURIComponent(s.analysis)}`);
        if (this.disposed) return;
        this.gameMoves = analysis.moves || [];
        this.gameId = analysis.game_id || null;
      }
    } catch (e) {
      if (!this.disposed) this.notFound(s.game ? 'Game not found' : 'Analysis not found', e.message);
      return;
    }
    if (this.gameMoves) {
      // The game's moves are the main line; a line of the address that leaves them, a variation.
      line = main.length ? main : null;
      main = this.gameMoves;
    }
    const ply = params.has('ply') ? Number(params.get('ply')) : Infinity;
    let target = this.buildTree(main, line, ply);

    let first;
    try {
      first = await api('POST', POSITIONS, { ...this.sourceBody(), moves: target.path(), with_board: true });
    } catch (e) {
      if (this.disposed) return;
      if (e.status === 404) {
        this.notFound('Nothing to analyse', e.message);
        return;
      }
      if (e.status !== 400 || !target.ply) {
        this.notFound('The position cannot be shown', e.message);
        return;
      }
      // A move of the address cannot be played: the game's moves alone (or the start), and why.
      showMessage(`The moves of the address were not played: ${e.message}`);
      target = this.buildTree(this.gameMoves || [], null, line ? ply : 0);
      try {
        // The node shown is the game's own, at its ply: its moves are the game's.
        first = await api('POST', POSITIONS, { ...this.sourceBody(), moves: target.path(), with_board: true });
      } catch (e2) {
        if (!this.disposed) this.notFound('The position cannot be shown', e2.message);
        return;
      }
    }
    if (this.disposed) return;
    this.info = first;
    target.data = first;
    target.asked = Promise.resolve(first);
    this.normalise(target, first.moves);
    this.setUp();
    this.show(target);
    if (this.engineWanted()) this.socket.open();
  }

  /**
   * A new tree of the moves `main` (the main line) and `line` (from the root, a variation where
   * it leaves them); the current line is `line`'s, else `main`'s. Returns its node at `ply`
   * (clamped to the line; not a number: its end).
   */
  buildTree(main, line, ply) {
    this.root = new Node(null, null);
    this.rootKey += 1;
    let node = this.root;
    for (const move of main) {
      const next = new Node(move, node);
      node.children.push(next);
      node = next;
    }
    this.lineEnd = line ? this.addLine(line) : node;
    const path = [];
    for (let n = this.lineEnd; n; n = n.parent) path.unshift(n);
    const at = Number.isFinite(ply) && Number.isInteger(ply) ? Math.max(0, Math.min(path.length - 1, ply)) : path.length - 1;
    return path[at];
  }

  /** Adds the moves `line` from the root (following the moves already there); returns its last node. */
  addLine(line) {
    let node = this.root;
    for (const move of line) {
      let next = node.child(move);
      if (!next) {
        next = new Node(move, node);
        node.children.push(next);
      }
      node = next;
    }
    return node;
  }

  /** What the first answer sets up: the title, the board and its bar, the editor's palette. */
  setUp() {
    const info = this.info;
    const name = rulesetName(info);
    document.title = `Analysis board · ${name} – Denkmeter`;
    document.getElementById('board-title').textContent = `Analysis board · ${name}`;
    const rules = document.getElementById('rules-link');
    rules.href = `#/rules/${encodeURIComponent(info.ruleset)}`;
    rules.hidden = false;
    const s = this.source;
    const about = document.getElementById('board-about');
    if (s.game) {
      about.innerHTML = `The moves of <a href="#/game/${esc(encodeURIComponent(s.game))}" id="board-source">the game</a> are the main line; play any move of either side to try another.`;
    } else if (s.analysis) {
      about.innerHTML = `The moves of <a href="#/analysis/${esc(encodeURIComponent(s.analysis))}" id="board-source">the game analysed</a> are the main line; play any move of either side to try another.`;
    } else {
      about.textContent = 'Play the moves of either side; the engine says what it thinks of each position.';
    }
    if (info.board_name) about.append(` Board: ${info.board_name}.`);
    const note = document.getElementById('board-note');
    note.hidden = !info.hidden_information;
    note.textContent = info.hidden_information
      ? 'In a game this one hides something from the players; on the analysis board everything is shown, as once a game is over.'
      : '';
    document.getElementById('editor-to-move').innerHTML = ['white', 'black']
      .map((side) => `<option value="${side}">${esc(title(side, info.side_names))}</option>`)
      .join('');
    document.getElementById('setup').disabled = !this.tokens().length;
    this.board = createBoard(document.getElementById('board'), {
      board: info.board,
      orientation: 'white',
      onMove: (text) => this.playMove(text),
      onCell: (cell) => this.editCell(cell),
      // Moves are clicked here and the arrows step through them: Tab to the board for its cursor.
      pageArrows: true,
    });
    this.bar = new EvalBar(document.getElementById('board'), info.board);
    this.renderPalette();
    this.fitBelow();
  }

  /** The server's answer for `node`'s position, asked for once. */
  position(node) {
    if (!node.asked) {
      const asked = api('POST', POSITIONS, { ...this.sourceBody(), moves: node.path() }).then((p) => {
        node.data = p;
        this.normalise(node, p.moves);
        return p;
      });
      // A failure is not kept: the next visit asks again.
      asked.catch(() => {
        if (node.asked === asked) node.asked = null;
      });
      node.asked = asked;
    }
    return node.asked;
  }

  /** Writes the moves up to `node` as the rules write them (an address may write them otherwise). */
  normalise(node, moves) {
    if (!Array.isArray(moves) || moves.length !== node.ply) return;
    let changed = false;
    for (let n = node; n.parent; n = n.parent) {
      const written = moves[n.ply - 1];
      if (written && written !== n.move && !n.parent.child(written)) {
        n.move = written;
        changed = true;
      }
    }
    if (changed) this.renderTree();
  }

  // --- moving through the tree

  findNode(id) {
    const walk = (n) => {
      if (n.id === id) return n;
      for (const c of n.children) {
        const found = walk(c);
        if (found) return found;
      }
      return null;
    };
    return this.root ? walk(this.root) : null;
  }

  /** The next node along the current line, or null at its end. */
  nextOnLine() {
    const node = this.current;
    if (!node || node === this.lineEnd || !leadsTo(node, this.lineEnd)) return node && node.children[0] ? node.children[0] : null;
    let n = this.lineEnd;
    while (n.parent !== node) n = n.parent;
    return n;
  }

  /** Shows `node`, saying why if it cannot be shown. */
  show(node) {
    if (!node || this.editor) return;
    this.goto(node).catch((e) => {
      if (!this.disposed && this.current === node) showMessage(e.message);
    });
  }

  /**
   * Goes to `node`: the tree, the address and the engine at once, the board once its position
   * came (`now`: asked for at once, else after a moment in which the page may have moved on).
   */
  async goto(node, now = false) {
    if (this.disposed || !this.root) return;
    if (node !== this.current) this.busyRetries = 0;
    this.current = node;
    if (!leadsTo(node, this.lineEnd)) this.lineEnd = mainEnd(node);
    this.renderTree();
    this.askEngine();
    this.updateAddress();
    if (!node.asked && !now) {
      await new Promise((resolve) => setTimeout(resolve, FETCH_DELAY_MS));
      if (this.disposed || this.current !== node) return;
    }
    const p = await this.position(node);
    if (this.disposed || this.current !== node || this.editor) return;
    this.showPosition(node);
    document.getElementById('position-text').value = p.position || '';
    this.showError('position-error', '');
  }

  /** The board's move callback: follows the move's node, or makes one; a refusal rejects. */
  async playMove(text) {
    const from = this.current;
    if (!from || this.editor) throw new Error('no position');
    let child = from.child(text);
    const made = !child;
    if (made) {
      child = new Node(text, from);
      from.children.push(child);
    }
    try {
      await this.goto(child, true);
    } catch (e) {
      if (made) from.children = from.children.filter((c) => c !== child);
      showMessage(`Move ${text} was not played: ${e.message}`);
      if (!this.disposed) this.show(from);
      throw e;
    }
    showMessage('');
  }

  /**
   * Deletes the variation the node on show lies in (from where it leaves its parent's main
   * line); on the main line, the move on show and what follows it.
   */
  deleteVariation() {
    const node = this.current;
    if (!node || !node.parent || this.editor) return;
    let start = node;
    for (let n = node; n.parent; n = n.parent) {
      if (n.parent.children[0] !== n) {
        start = n;
        break;
      }
    }
    const parent = start.parent;
    parent.children = parent.children.filter((c) => c !== start);
    if (leadsTo(start, this.lineEnd)) this.lineEnd = mainEnd(parent);
    this.show(parent);
  }

  /** Makes the line of the node on show the main line, at every branch above it. */
  promote() {
    const node = this.current;
    if (!node || this.editor) return;
    for (let n = node; n.parent; n = n.parent) {
      const siblings = n.parent.children;
      siblings.splice(siblings.indexOf(n), 1);
      siblings.unshift(n);
    }
    this.renderTree();
    this.updateAddress();
  }

  /** Keeps the address on the position on show: a reload, or the link shared, shows it again. */
  updateAddress() {
    const s = this.source;
    const line = this.lineEnd.path();
    const ply = this.current.ply;
    let hash;
    if (this.gameMoves && (s.game || s.analysis)) {
      const kind = s.game ? 'game' : 'analysis';
      const off = startsWith(this.gameMoves, line) ? null : line.join(' ');
      hash = `#/board/${kind}/${encodeURIComponent(s.game || s.analysis)}${query({ ply, moves: off })}`;
    } else {
      hash = `#/board/${encodeURIComponent(s.ruleset)}${query({ position: s.position || null, moves: line.join(' ') || null, ply: ply === line.length ? null : ply })}`;
    }
    if (location.hash !== hash) history.replaceState(null, '', hash);
  }

  // --- drawing

  /** The words above the board: who is to move, or how the game ended. */
  caption(p) {
    const names = this.info.side_names;
    if (p.status === 'over') return `<strong class="board-status over">${esc(p.outcome || 'The game is over')}</strong>`;
    return `<span class="board-status">${esc(title(p.to_move, names))} to move</span>`;
  }

  /** Draws `node`'s position (asked for already) on the board. */
  showPosition(node) {
    const p = node.data;
    if (!p || !this.board) return;
    this.board.set({
      position: `${this.rootKey}|${node.path().join(' ')}`,
      pieces: p.pieces || [],
      absent: p.absent || [],
      lastMove: p.last_move || null,
      moves: p.status === 'over' ? [] : p.legal_moves || [],
      canMove: p.status !== 'over',
      orientation: this.flipped ? 'black' : 'white',
      sideNames: this.info.side_names,
      names: hasNumbers(this.info.board) && squareNumbersWanted(),
      highlights: (p.highlights || []).filter((h) => !h.side || h.side === 'front'),
      hint: null,
      caption: this.caption(p),
      toMove: p.to_move,
      editing: false,
      editPiece: null,
    });
  }

  /** A move in the tree, with its number where the first player moves or a line begins. */
  moveHtml(node, numbered) {
    const first = (this.root.data && this.root.data.to_move) || 'white';
    const number = moveNumber(node.ply, first);
    const current = node === this.current ? ' current' : '';
    const label = numbered || !number.endsWith('...') ? `<span class="num">${number}</span> ` : '';
    return `${label}<span class="move${current}" data-node="${node.id}">${esc(node.move)}</span>`;
  }

  /** The moves after `parent`: its main line, each variation in parentheses after the move it replaces. */
  lineHtml(parent, numbered) {
    const parts = [];
    let node = parent;
    let number = numbered;
    while (node.children.length) {
      const [main, ...others] = node.children;
      parts.push(this.moveHtml(main, number));
      number = false;
      for (const other of others) {
        const rest = this.lineHtml(other, false);
        parts.push(`<span class="variation">(${this.moveHtml(other, true)}${rest ? ` ${rest}` : ''})</span>`);
        number = true;
      }
      node = main;
    }
    return parts.join(' ');
  }

  renderTree() {
    if (!this.root || this.disposed) return;
    const tree = document.getElementById('tree');
    const html = this.lineHtml(this.root, true);
    tree.innerHTML = html || '<span class="muted empty">No moves yet: make one on the board.</span>';
    const el = tree.querySelector('.move.current');
    if (el) {
      // Into view within the tree only: the page itself stays where it is.
      const [outer, inner] = [tree.getBoundingClientRect(), el.getBoundingClientRect()];
      if (inner.top < outer.top) tree.scrollTop -= outer.top - inner.top;
      else if (inner.bottom > outer.bottom) tree.scrollTop += inner.bottom - outer.bottom;
    }
    const node = this.current;
    const main = onMainLine(node);
    const remove = document.getElementById('delete-variation');
    remove.disabled = !node.parent || Boolean(this.editor);
    remove.textContent = main ? 'Delete from here' : 'Delete variation';
    remove.title = main ? 'Delete the move on show and the moves after it' : 'Delete the variation of the move on show';
    document.getElementById('promote').disabled = main || Boolean(this.editor);
    // The buttons under the board.
    const editing = Boolean(this.editor);
    document.getElementById('nav-ply').textContent = `${node.ply} / ${this.lineEnd.ply}`;
    document.getElementById('nav-first').disabled = editing || !node.parent;
    document.getElementById('nav-prev').disabled = editing || !node.parent;
    document.getElementById('nav-next').disabled = editing || node === this.lineEnd;
    document.getElementById('nav-last').disabled = editing || node === this.lineEnd;
  }

  // --- the engine

  /** Whether the engine should be asked: switched on, not refused, and no position being set up. */
  engineWanted() {
    return this.engineOn && !this.editor && !this.disposed;
  }

  setEngine(on) {
    this.engineOn = on;
    document.getElementById('engine-on').checked = on;
    if (on) {
      this.refusal = null;
      if (!this.socket.isOpen() && !this.socket.ws) this.socket.open();
      this.askEngine(0);
    } else {
      this.stopEngine();
    }
    this.renderEngine();
    this.renderBar();
  }

  /** Stops the search running, if any; its messages are no longer read. */
  stopEngine() {
    clearTimeout(this.engineTimer);
    this.engineTimer = null;
    if (this.engine) this.send({ type: 'stop' });
    this.engine = null;
    this.engineId += 1;
  }

  send(message) {
    const ws = this.socket.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    try {
      ws.send(JSON.stringify(message));
      return true;
    } catch {
      return false; // closing: the socket asks again once it is open
    }
  }

  /** Asks the engine for the position on show, after `delay` ms (a new id: older answers are dropped). */
  askEngine(delay = ENGINE_DELAY_MS) {
    clearTimeout(this.engineTimer);
    this.engineTimer = null;
    if (!this.engineWanted() || !this.current) {
      this.renderEngine();
      return;
    }
    this.engineId += 1;
    const id = this.engineId;
    const node = this.current;
    this.engine = { id, node, status: 'starting', last: null, message: '', text: '' };
    this.renderEngine();
    this.renderBar();
    this.engineTimer = setTimeout(() => {
      this.engineTimer = null;
      if (this.disposed || !this.engine || this.engine.id !== id) return;
      const message = {
        type: 'analyse',
        id,
        ...this.sourceBody(),
        moves: node.path(),
        playing: seats.heldGames(MAX_PLAYING),
      };
      if (!this.send(message)) {
        // Not connected yet: asked again once the socket is open.
        this.engine.status = 'connecting';
        this.renderEngine();
      }
    }, delay);
  }

  engineMessage(m) {
    if (this.disposed || !m || typeof m !== 'object') return;
    if (m.type === 'error' && (m.id === undefined || m.id === null)) {
      if (this.engine) this.engineError(m);
      return;
    }
    const e = this.engine;
    if (!e || m.id !== e.id) return; // an older search's
    if (m.type === 'queued') {
      e.status = 'queued';
    } else if (m.type === 'depth') {
      // A pause starts the depths again from 1: the line shown is the newest whichever it is.
      e.status = 'running';
      e.last = m;
      e.message = '';
    } else if (m.type === 'paused') {
      e.status = 'paused';
      e.message = m.message || '';
    } else if (m.type === 'done') {
      e.status = 'done';
      e.reason = m.reason;
      e.text = m.text || '';
    } else if (m.type === 'error') {
      this.engineError(m);
      return;
    } else {
      return;
    }
    // The board is not drawn again (to mark the best move, say): a drawing replaced between a
    // press and its release on a cell would lose the click.
    this.renderEngine();
    this.renderBar();
  }

  /** A search refused: the board goes on without the engine, saying why. */
  engineError(m) {
    if (m.code === 'live-game') {
      this.refusal = m.message || '';
      this.engineOn = false;
      document.getElementById('engine-on').checked = false;
      this.engine = null;
      this.engineId += 1;
    } else if (m.code === 'busy' && this.engine && this.busyRetries < BUSY_RETRIES) {
      // Asked too soon after another search, or no turn to be had now: asked again shortly.
      this.busyRetries += 1;
      this.askEngine(400 * this.busyRetries);
      return;
    } else if (this.engine) {
      this.engine.status = 'error';
      this.engine.message = m.message || m.code || 'the engine failed';
    }
    this.renderEngine();
    this.renderBar();
  }

  renderEngine() {
    if (this.disposed) return;
    const refused = document.getElementById('engine-refused');
    refused.hidden = this.refusal === null;
    if (!refused.hidden) {
      const words = this.refusal ? `${capital(this.refusal)}.` : '';
      refused.innerHTML = `<span><strong>Analysis is off while you play a game.</strong> ${esc(words)} Moves and the tree still work.</span>`;
    }
    const state = document.getElementById('engine-state');
    const score = document.getElementById('engine-score');
    const line = document.getElementById('engine-line');
    const e = this.engine;
    const names = this.info ? this.info.side_names : null;
    if (this.editor) {
      state.textContent = 'The engine waits while a position is set up.';
    } else if (!this.engineOn) {
      state.textContent = this.refusal !== null ? '' : 'The engine is off.';
    } else if (!e) {
      state.textContent = '';
    } else {
      const depth = e.last
        ? `<span id="engine-depth" data-depth="${esc(e.last.depth)}">Depth ${esc(e.last.depth)}</span> · ${esc(nodesText(e.last.nodes))} · ${esc((Number(e.last.ms) / 1000).toFixed(1))} s`
        : '';
      const words = {
        starting: 'Asking the engine…',
        connecting: 'Connecting to the engine…',
        reconnecting: 'Connection lost: connecting again…',
        queued: 'Waiting for the engine: other people\'s analyses go first.',
        running: '',
        paused: `Paused: ${e.message} It goes on by itself in a moment.`,
        done: e.reason === 'over' ? e.text || DONE_WORDS.over : DONE_WORDS[e.reason] || 'Search finished.',
        error: `The engine failed: ${e.message}`,
      }[e.status];
      state.innerHTML = [depth, words ? `<span class="engine-status">${esc(words)}</span>` : ''].filter(Boolean).join(' · ');
      state.dataset.status = e.status;
    }
    const last = e && this.engineOn && !this.editor ? e.last : null;
    score.hidden = !last;
    line.hidden = !last || !(last.pv || []).length;
    if (last) {
      const side = title(last.to_move, names);
      // White's score as a number is named White's; in words ("Black wins in 5 plies") it says whose.
      const white = /^[+-]?\d/.test(last.white_text) ? `${title('white', names)} ${last.white_text}` : last.white_text;
      score.innerHTML = `<strong id="engine-score-text">${esc(last.score_text)}</strong> <span class="muted">for ${esc(side)} to move</span> · <span id="engine-words">${esc(white)}</span>`;
      const [first, ...rest] = last.pv || [];
      if (first) {
        // The same button throughout, its words changed in place: a click made while a depth
        // comes in is not lost with a button drawn anew.
        const button = document.getElementById('pv-first');
        if (button.dataset.move !== first) {
          button.dataset.move = first;
          button.textContent = first;
          button.title = `Play ${first}`;
        }
        const others = rest.join(' ');
        const after = document.getElementById('pv-rest');
        if (after.textContent !== others) after.textContent = others;
      }
    }
  }

  /** The evaluation bar: the newest depth of the position on show, faint while it is another's. */
  renderBar() {
    if (!this.bar) return;
    const e = this.engine;
    if (!e || !this.engineWanted() || (!e.last && e.status === 'done')) {
      this.bar.hide();
      return;
    }
    if (!e.last) {
      // Nothing of this position yet: the last score stays, faintly, until the new one comes.
      this.bar.stale(true);
      return;
    }
    this.bar.stale(false);
    this.bar.show({ chances: e.last.white_chances, text: e.last.white_text, flipped: this.flipped, sideNames: this.info.side_names });
  }

  // --- the position as text

  copyPosition() {
    const later = (fn, ms) => setTimeout(() => {
      if (!this.disposed) fn();
    }, ms);
    return copyFromInput(document.getElementById('position-text'), document.getElementById('copy-position'), later);
  }

  /** The Schada board file the positions are played on (null: the ruleset's own board). */
  async boardOf() {
    if (this.boardFile !== undefined) return this.boardFile;
    let file = this.source.board || null;
    if (!file && this.info && this.info.board_name && this.gameId) {
      try {
        const r = await fetch(`/api/games/${encodeURIComponent(this.gameId)}/board.txt`, { credentials: 'same-origin' });
        if (r.ok) file = { name: this.info.board_name, text: await r.text() };
      } catch {
        // Not to be had: the ruleset's own board.
      }
    }
    this.boardFile = file;
    return file;
  }

  /** A body for POST /api/positions on the ruleset of the board (not the game's moves). */
  async rulesetBody(extra) {
    const board = await this.boardOf();
    return { ruleset: this.info.ruleset, ...(board ? { board } : {}), ...extra };
  }

  /** Starts again from the position `p` (an answer of POST /api/positions): a new root, the tree cleared. */
  newRoot(p) {
    this.source = { ruleset: this.info.ruleset, position: p.start_position || p.position };
    if (this.boardFile) this.source.board = this.boardFile;
    this.gameMoves = null;
    this.root = new Node(null, null);
    this.rootKey += 1;
    this.root.data = p;
    this.root.asked = Promise.resolve(p);
    this.lineEnd = this.root;
    const about = document.getElementById('board-about');
    about.textContent = 'A position of your own: play the moves of either side.';
    this.show(this.root);
  }

  /** Loads the position string typed or pasted in the box. */
  async loadPosition() {
    if (!this.info) return;
    const text = document.getElementById('position-text').value.trim();
    if (!text) {
      this.showError('position-error', 'Write or paste a position string first.');
      return;
    }
    try {
      const p = await api('POST', POSITIONS, await this.rulesetBody({ position: text }));
      if (this.disposed) return;
      this.showError('position-error', '');
      if (this.editor) this.closeEditor(false);
      this.newRoot(p);
    } catch (e) {
      if (!this.disposed) this.showError('position-error', `Not loaded: ${e.message}`);
    }
  }

  // --- setting up a position

  /** The pieces a position may be set up with (the server's editor tokens). */
  tokens() {
    return (this.info && this.info.editor && this.info.editor.tokens) || [];
  }

  /** Whether a token marks its cell as out of play (Shakti's `-`, "no tile") rather than a piece on it. */
  marksAbsent(token) {
    if (token.owner) return false;
    return !legendOf(this.info.board).pieces.some((p) => p.kind === token.kind);
  }

  /** A token's picture: its piece as the board draws it, or a cell out of play. */
  tokenIcon(token) {
    const legend = legendOf(this.info.board);
    const palette = legend.palette;
    if (this.marksAbsent(token)) {
      return `<svg class="token-icon" viewBox="0 0 1 1" aria-hidden="true"><rect class="hole" x="0.08" y="0.08" width="0.84" height="0.84"${attr('fill', palette.absent)}${attr('stroke', palette.edge)}/></svg>`;
    }
    const style = legend.pieces.find((p) => p.kind === token.kind);
    const owner = token.owner === 'black' ? 'black' : 'white';
    const letter = String(token.letter || token.text || '?').toUpperCase();
    return `<svg class="token-icon" viewBox="0 0 1 1" aria-hidden="true"><g class="piece">${pieceShape(palette, owner, letter, style, 0.5, 0.5)}</g></svg>`;
  }

  renderPalette() {
    const names = this.info.side_names;
    const buttons = this.tokens().map((t) => {
      const whose = t.owner ? `${title(t.owner, names)} ` : '';
      return `<button type="button" class="token" data-token="${esc(t.text)}" title="${esc(t.kind)}" aria-label="${esc(`${whose}${t.kind}`)}" aria-pressed="false">${this.tokenIcon(t)}</button>`;
    });
    buttons.push('<button type="button" class="token eraser" data-token="" title="eraser: clicked cells are emptied" aria-label="Eraser" aria-pressed="false"><svg class="token-icon" viewBox="0 0 1 1" aria-hidden="true"><path class="eraser-mark" d="M0.25 0.25L0.75 0.75M0.75 0.25L0.25 0.75"/></svg></button>');
    document.getElementById('palette').innerHTML = buttons.join('');
  }

  openEditor() {
    const node = this.current;
    const p = node && node.data;
    if (!p || !this.tokens().length || this.editor) return;
    this.stopEngine();
    this.editor = { grid: { ...(p.grid || {}) }, toMove: p.to_move === 'black' ? 'black' : 'white', tool: this.tokens()[0].text };
    this.showError('editor-error', '');
    document.getElementById('editor').hidden = false;
    document.getElementById('tree-nav').hidden = true;
    document.getElementById('analysis-board').classList.add('editing');
    this.renderTree();
    this.renderEngine();
    this.renderBar();
    this.showEditor();
    this.fitBelow();
    document.getElementById('board').scrollIntoView({ block: 'nearest' });
  }

  /** Leaves the editor; `back`: shows the position on show before it again. */
  closeEditor(back = true) {
    if (!this.editor) return;
    this.editor = null;
    document.getElementById('editor').hidden = true;
    document.getElementById('tree-nav').hidden = false;
    document.getElementById('analysis-board').classList.remove('editing');
    this.fitBelow();
    if (back && this.current) this.show(this.current);
  }

  /** Draws the position being set up, and the palette with the tool chosen. */
  showEditor() {
    const ed = this.editor;
    if (!ed || !this.board) return;
    const byText = new Map(this.tokens().map((t) => [t.text, t]));
    const pieces = [];
    const absent = [];
    for (const [cell, text] of Object.entries(ed.grid)) {
      const token = byText.get(text) || { text, owner: null, kind: text, letter: text };
      if (this.marksAbsent(token) && byText.has(text)) absent.push(Number(cell));
      else pieces.push({ cell: Number(cell), owner: token.owner, kind: token.kind, letter: token.letter });
    }
    const tool = byText.get(ed.tool);
    this.board.set({
      position: `editor/${this.rootKey}`,
      pieces,
      absent,
      lastMove: null,
      moves: [],
      canMove: false,
      hint: null,
      highlights: [],
      orientation: this.flipped ? 'black' : 'white',
      caption: `<span class="board-status">Setting up: ${esc(title(ed.toMove, this.info.side_names))} to move</span>`,
      toMove: ed.toMove,
      editing: true,
      editPiece: tool && !this.marksAbsent(tool) ? { owner: tool.owner, kind: tool.kind, letter: tool.letter } : null,
    });
    for (const b of document.querySelectorAll('#palette button[data-token]')) {
      b.setAttribute('aria-pressed', String(b.dataset.token === ed.tool));
    }
    document.getElementById('editor-to-move').value = ed.toMove;
  }

  /** A click on a cell while setting up: puts the chosen token there (the same again takes it off). */
  editCell(cell) {
    const ed = this.editor;
    if (!ed) return;
    const key = String(cell);
    if (!ed.tool || ed.grid[key] === ed.tool) delete ed.grid[key];
    else ed.grid[key] = ed.tool;
    this.showError('editor-error', '');
    this.showEditor();
  }

  /** The ruleset's start position in the editor. */
  async editorStart() {
    if (!this.editor) return;
    try {
      if (!this.startAnswer) this.startAnswer = await api('POST', POSITIONS, await this.rulesetBody({}));
      if (!this.editor || this.disposed) return;
      this.editor.grid = { ...(this.startAnswer.grid || {}) };
      this.editor.toMove = this.startAnswer.to_move === 'black' ? 'black' : 'white';
      this.showError('editor-error', '');
      this.showEditor();
    } catch (e) {
      if (!this.disposed) this.showError('editor-error', e.message);
    }
  }

  /** Has the server check the position set up: accepted, it is the new root; refused, the rules say why. */
  async editorDone() {
    const ed = this.editor;
    if (!ed) return;
    const button = document.getElementById('editor-done');
    button.disabled = true;
    try {
      const p = await api('POST', POSITIONS, await this.rulesetBody({ grid: ed.grid, to_move: ed.toMove }));
      if (this.disposed || this.editor !== ed) return;
      this.closeEditor(false);
      this.newRoot(p);
    } catch (e) {
      if (!this.disposed) this.showError('editor-error', e.message);
    } finally {
      button.disabled = false;
    }
  }
}
