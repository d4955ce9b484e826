// The game page's controller: which seats this browser holds, the newest view of the game (from
// the API, the socket, or the answer to our own action), replay, and the actions. It hands the
// position to the board component and the rest to the view (game/view.js).

import { ApiError, api, gamePath, getGame, query, rulesets, serverInfo } from '../api.js';
import { createBoard } from '../board/board.js';
import { hasNumbers } from '../board/draw.js';
import { seats } from '../seats.js';
import { onSession, session } from '../session.js';
import { GameSocket } from '../socket.js';
import { copyFromInput, other, title } from '../text.js';
import { gamePageHtml, notFoundHtml, renderPanel, showConnection, showMessage, tickClock } from './view.js';

/**
 * Where this browser keeps whether square numbers are written on numbered boards (draughts):
 * `on` (the default, as the draughts world names squares in moves) or `off` (letters only).
 */
const SQUARE_NUMBERS_KEY = 'denkmeter:square-numbers';

/** Whether square numbers are wanted on numbered boards (the analysis page asks too). */
export function squareNumbersWanted() {
  try {
    return localStorage.getItem(SQUARE_NUMBERS_KEY) !== 'off';
  } catch {
    return true;
  }
}

/**
 * Whether `now`'s moves no longer begin with `before`'s: a takeback and other moves since.
 * Moves hidden from one of the two viewers (`K@?`) are not compared.
 */
function rewritten(now = [], before = []) {
  return before.some((m, i) => now[i] !== undefined && now[i] !== m && !/\?/.test(now[i] + m));
}

/**
 * A request's body for a seat: with its token, or without one when the seat is the session's
 * (the server then acts for the seat the signed-in account holds; an empty token would be a
 * wrong one).
 */
function forSeat(token, body = {}) {
  return token ? { token, ...body } : { ...body };
}

export class GamePage {
  constructor(app, id, inviteToken) {
    this.app = app;
    this.id = id;
    this.mine = seats.get(id);
    this.live = null; // the latest view of the game as it is
    this.replay = null; // a view of an earlier ply, or null
    this.board = null; // the board component, made with the first view
    this.manualFlip = false;
    this.cellNames = false; // every cell's name written on the board, on request
    this.hint = null; // {move, ply, level, after}: the last hint asked for, shown while its position is
    this.hinting = false; // a hint is being searched
    this.analysis = null; // the last analysis asked for (a finished game's position), or null
    this.analysing = false;
    this.review = undefined; // the whole game's analysis once the game is over (null: none asked for)
    this.reviewAsking = false;
    this.passedTo = null; // on a shared screen in a game that hides something: who said he has the device
    this.side = 'front'; // the side of a two-sided board on show (see showsBack)
    this.busy = false;
    this.disposed = false;
    this.timers = new Set();
    this.resignArmed = false;
    this.choosing = null; // a secret, final choice awaiting confirmation: {text, cell, resolve}
    this.publicUrl = null; // where other machines reach the server (--public-url), if given
    serverInfo().then((info) => {
      this.publicUrl = info.public_url || null;
      if (this.live && !this.disposed) renderPanel(this);
    });
    this.rulesetList = []; // the rulesets, for a rated game's category title ("Chad blitz")
    rulesets()
      .then((list) => {
        this.rulesetList = Array.isArray(list) ? list : [];
        if (this.live && this.live.rated && !this.disposed) renderPanel(this);
      })
      .catch(() => {});
    this.socket = new GameSocket(() => this.socketUrl(), {
      onView: (view) => this.accept(view),
      // The game moved on without us hearing of it: ask for it.
      onHeartbeat: (version) => {
        if (this.live && version > (this.live.version ?? -1)) this.refresh();
      },
      onOpen: () => showConnection(true),
      onClose: () => {
        showConnection(false);
        this.poll();
      },
    });
    // Signed in or out since (the header, another tab): the seats the session holds change, and
    // the game is asked for again. (The first answer of who is in changes nothing: the requests
    // carried the cookie already.)
    this.sessionName = undefined;
    session().then((name) => {
      if (this.sessionName === undefined) this.sessionName = name;
    });
    this.stopSession = onSession((name) => {
      const known = this.sessionName !== undefined;
      if (name === this.sessionName) return;
      this.sessionName = name;
      if (!known || this.disposed || !this.listening) return;
      this.refresh();
      this.socket.close();
      this.socket.open();
    });
    this.build();
    this.start(inviteToken);
  }

  // --- seats and tokens

  /** The token that plays for `player` in this browser, if any. */
  tokenOf(player) {
    return (player && this.mine[player]) || null;
  }

  /**
   * The seat the signed-in player's account holds, played by the session without a token (a game
   * from a challenge, or one begun on another device): the view's `you` when this browser holds
   * no token of the game, which it then asks for without one.
   */
  sessionSeat() {
    if (this.mine.white || this.mine.black) return null;
    const you = this.live && this.live.you;
    return you === 'white' || you === 'black' ? you : null;
  }

  /** Whether this browser plays `player`: by its token, or by the session. */
  holds(player) {
    return Boolean(player) && (Boolean(this.tokenOf(player)) || this.sessionSeat() === player);
  }

  /** The token to look at the game with: the side to move's on a shared screen. */
  viewToken() {
    const toMove = this.live && this.live.to_move;
    return this.tokenOf(toMove) || this.mine.white || this.mine.black || null;
  }

  /** The seat the buttons act for: the side to move on a shared screen, else our own. */
  actingSeat() {
    if (this.mine.white && this.mine.black) {
      const v = this.live;
      if (v && v.draw_offer) return other(v.draw_offer);
      return (v && v.to_move) || 'white';
    }
    if (this.mine.white) return 'white';
    if (this.mine.black) return 'black';
    return this.sessionSeat();
  }

  /**
   * Whether both players share this screen in a game that hides something (Trangalla's kings):
   * then each sees the board only after the device has been passed to him.
   */
  sharedSecret(view = this.live) {
    return Boolean(view && view.hidden_information && view.status === 'ongoing' && this.mine.white && this.mine.black);
  }

  /** Whether the game is covered by the "pass the device" screen. */
  covered() {
    const v = this.live;
    return this.sharedSecret() && (this.passedTo !== v.to_move || v.you !== v.to_move);
  }

  socketUrl() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const token = this.mine.white || this.mine.black || null;
    return `${scheme}//${location.host}${gamePath(this.id, 'ws')}${query({ token })}`;
  }

  // --- life cycle

  later(fn, ms) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.disposed) fn();
    }, ms);
    this.timers.add(t);
    return t;
  }

  /** Keeps the running clock's text current, four times a second. */
  tick() {
    tickClock(this);
    this.later(() => this.tick(), 250);
  }

  dispose() {
    this.disposed = true;
    if (this.choosing) this.choosing.resolve(false);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.stopSession();
    this.socket.close();
    if (this.board) this.board.destroy();
    document.removeEventListener('keydown', this.onKey);
  }

  async start(inviteToken) {
    if (inviteToken) {
      // An invite link: claim its seat for a token of our own (the link is then used up).
      try {
        const claimed = await api('POST', gamePath(this.id, 'claim'), { token: inviteToken });
        this.mine = { ...seats.get(this.id) };
        this.mine[claimed.seat] = claimed.token;
        this.mine.mode = this.mine.white && this.mine.black ? 'local' : 'joined';
        seats.set(this.id, this.mine);
        this.accept(claimed.view);
      } catch (e) {
        if (e.status === 404) {
          this.notFound(e.message);
          return;
        }
        const holder = this.mine.white || this.mine.black;
        if (e.status === 401 && !holder) showMessage('This invite link has been used: the seat is taken by the friend who opened it first. You are watching the game.', 'notice');
        else if (e.status === 403) showMessage('This invite link holds no seat in this game (it may be mistyped): you are watching.', 'notice');
        else if (e.status !== 401) showMessage(e.message);
      }
      history.replaceState(null, '', `#/game/${encodeURIComponent(this.id)}`);
    }
    await this.refresh();
    if (!this.disposed) {
      this.socket.open();
      this.listening = true;
    }
    this.tick();
  }

  /** Loads the game again (after own actions, when the socket is down, on errors). */
  async refresh() {
    try {
      this.accept(await getGame(this.id, { token: this.viewToken() }));
    } catch (e) {
      if (e.status === 404) {
        this.notFound(e.message);
        return;
      }
      if (!this.disposed) showMessage(e.message);
    }
  }

  notFound(message) {
    this.dispose();
    this.app.innerHTML = notFoundHtml(message);
  }

  /** While the socket is down, keeps the game fresh by asking. */
  poll() {
    if (this.polling) return;
    this.polling = true;
    const tick = async () => {
      if (this.disposed || this.socket.isOpen()) {
        this.polling = false;
        return;
      }
      await this.refresh();
      if (this.live && this.live.status === 'over') {
        this.polling = false;
        return;
      }
      this.later(tick, 2000);
    };
    this.later(tick, 1500);
  }

  /** Takes in a view from any source, newest wins. */
  accept(view) {
    if (this.disposed || !view || view.id !== this.id) return;
    const live = this.live;
    if (live) {
      // The server's version grows with every change: an older view (a late answer) is stale.
      // Without versions, a view with fewer moves is; with them, it is a takeback.
      const versioned = typeof view.version === 'number' && typeof live.version === 'number';
      if (versioned ? view.version < live.version : view.ply < live.ply) return;
      if (view.ply < live.ply || rewritten(view.moves, live.moves)) {
        // Moves were taken back: the earlier position browsed may be gone.
        this.replay = null;
        this.replayWanted = null;
      }
      if (live.status === 'over' && view.status !== 'over') return;
      // Every stored change moves the version on (a takeback and the moves after it too).
      const same = versioned
        ? view.version === live.version
        : view.ply === live.ply && view.status === live.status && view.to_move === live.to_move && view.draw_offer === live.draw_offer;
      // A view through the eyes of the seat not to move shows that seat's secrets: on a shared
      // screen of a hidden game only the mover's own view is shown.
      if (same && this.sharedSecret(view) && view.you !== view.to_move) return;
      // On a shared screen a view for the other seat carries no moves: keep the ones we have.
      if (same && view.you !== view.to_move && live.you === live.to_move && (live.legal_moves || []).length) {
        view = { ...view, you: live.you, legal_moves: live.legal_moves };
      }
    }
    this.live = view;
    this.mine = seats.forgetUsedInvite(this.id, this.mine, view);
    // A clock counts down from the moment its view arrived.
    this.liveAt = Date.now();
    // On a shared screen, ask for the side to move's own view to get its moves.
    if (view.status === 'ongoing' && view.you !== view.to_move && this.tokenOf(view.to_move) && !(view.legal_moves || []).length) {
      this.fetchFor(view.to_move, view.ply);
    }
    this.render();
  }

  async fetchFor(player, ply) {
    const key = `${player}:${ply}`;
    if (this.fetching === key) return;
    this.fetching = key;
    try {
      this.accept(await getGame(this.id, { token: this.tokenOf(player) }));
    } catch (e) {
      showMessage(e.message);
    } finally {
      if (this.fetching === key) this.fetching = null;
    }
  }

  // --- the page

  build() {
    document.title = 'Game – Denkmeter';
    this.app.innerHTML = gamePageHtml();
    const on = (id, fn) => document.getElementById(id).addEventListener('click', fn);
    on('message-close', () => showMessage(''));
    on('copy-invite', () => this.copyInvite());
    on('flip', () => {
      this.manualFlip = !this.manualFlip;
      this.render();
    });
    document.getElementById('move-entry').addEventListener('submit', async (event) => {
      event.preventDefault();
      const input = document.getElementById('move-text');
      const text = input.value.trim();
      if (!text) return;
      try {
        await this.play(text);
        input.value = '';
      } catch {
        // play() has said why; the text stays to be corrected.
      }
    });
    on('cell-names', () => {
      this.cellNames = !this.cellNames;
      document.getElementById('cell-names').setAttribute('aria-pressed', String(this.cellNames));
      // On a numbered board the choice is kept for the next games.
      if (this.live && hasNumbers(this.live.board)) {
        try {
          localStorage.setItem(SQUARE_NUMBERS_KEY, this.cellNames ? 'on' : 'off');
        } catch {
          // Not kept: the default comes back next time.
        }
      }
      this.render();
    });
    on('pass-ready', () => {
      if (!this.live) return;
      // The other person takes the device: nothing the last one looked at stays on show.
      this.replay = null;
      this.replayWanted = null;
      this.passedTo = this.live.to_move;
      this.refresh();
      this.render();
    });
    on('turn-over', () => {
      this.side = this.side === 'back' ? 'front' : 'back';
      this.render();
    });
    on('choice-confirm', () => this.settleChoice(true));
    on('choice-cancel', () => this.settleChoice(false));
    on('analyse', () => this.analyse());
    on('request-analysis', () => this.requestReview());
    on('replay-first', () => this.goto(0));
    on('replay-prev', () => this.goto(this.shownPly() - 1));
    on('replay-next', () => this.goto(this.shownPly() + 1));
    on('replay-last', () => this.goto(null));
    on('moves', (e) => {
      const li = e.target.closest('[data-ply]');
      if (li && this.live) this.goto(Number(li.dataset.ply));
    });
    on('actions', (e) => {
      const button = e.target.closest('button[data-action]');
      if (button) this.action(button.dataset.action);
    });
    this.onKey = (e) => {
      if (e.target && /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
      if (this.live && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
        this.goto(this.shownPly() + (e.key === 'ArrowLeft' ? -1 : 1));
      }
    };
    document.addEventListener('keydown', this.onKey);
  }

  shownPly() {
    return this.replay ? this.replay.ply : this.live ? this.live.ply : 0;
  }

  /** Replay: shows the position after `ply` moves (null: the final one). */
  async goto(ply) {
    // Behind a "pass the device" screen nothing is shown, earlier positions included.
    if (!this.live || this.covered()) return;
    const total = this.live.ply;
    if (ply === null || ply >= total) {
      this.replayWanted = null;
      this.replay = null;
      this.render();
      return;
    }
    ply = Math.max(0, ply);
    this.replayWanted = ply;
    // An answer for another viewer than the one now at the screen (on a shared screen the
    // game moved on to the other player, whose eyes it is not for) is dropped.
    const token = this.viewToken();
    try {
      const view = await getGame(this.id, { token, ply });
      if (this.disposed || this.replayWanted !== ply || this.covered() || this.viewToken() !== token) return;
      this.replay = view;
      this.render();
    } catch (e) {
      showMessage(e.message);
    }
  }

  /** Asks the server for the engine's view of the finished game's position on show. */
  async analyse() {
    if (!this.live || this.live.status !== 'over' || this.analysing) return;
    const ply = this.shownPly();
    this.analysing = true;
    this.render();
    try {
      this.analysis = await api('GET', `${gamePath(this.id, 'analysis')}${query({ ply })}`);
    } catch (e) {
      showMessage(e.message);
    } finally {
      this.analysing = false;
      this.render();
    }
  }

  /** Whether the finished game's whole analysis was asked for (by anyone): looked up once. */
  async lookUpReview() {
    this.review = null;
    try {
      this.review = await api('GET', gamePath(this.id, 'analyses'));
    } catch {
      // Not known: the button to ask for it stays.
    }
    if (!this.disposed) this.render();
  }

  /** Asks for the analysis of the whole game, and goes to its page. */
  async requestReview() {
    if (this.reviewAsking) return;
    this.reviewAsking = true;
    this.render();
    try {
      const a = await api('POST', gamePath(this.id, 'analyses'));
      if (!this.disposed) location.hash = `#/analysis/${encodeURIComponent(a.id)}`;
    } catch (e) {
      showMessage(e.message);
    } finally {
      this.reviewAsking = false;
      if (!this.disposed) this.render();
    }
  }

  /** Asks the server for the move the computer would play here, and shows it on the board. */
  async askHint() {
    const v = this.live;
    if (!v || !this.holds(v.to_move) || this.hinting) return;
    const token = this.tokenOf(v.to_move);
    this.hinting = true;
    this.render();
    try {
      // Kept with the moves it follows: shown only while the game is at that position.
      this.hint = { ...(await api('POST', gamePath(this.id, 'hint'), forSeat(token))), after: (v.moves || []).join(' ') };
      showMessage('');
    } catch (e) {
      showMessage(e.message);
    } finally {
      this.hinting = false;
      this.render();
    }
  }

  /** The hinted move while its position is on show and still to play, else null. */
  shownHint() {
    const v = this.live;
    if (!this.hint || this.replay || !v || v.status !== 'ongoing') return null;
    if (v.ply !== this.hint.ply || (v.moves || []).join(' ') !== this.hint.after) return null;
    return (v.legal_moves || []).find((m) => m.text === this.hint.move) || null;
  }

  /**
   * Asks the player to confirm a secret, final choice (the view's `secret_choice`: Trangalla's
   * king) before it is sent; resolves to whether he did.
   */
  confirmChoice(text) {
    if (this.choosing) this.choosing.resolve(false);
    const move = (this.live.legal_moves || []).find((m) => m.text === text);
    const cell = move && move.to !== null && move.to !== undefined ? this.live.board.cells[move.to] : null;
    return new Promise((resolve) => {
      this.choosing = { text, cell: cell ? cell.name : text, resolve };
      this.render();
      const button = document.getElementById('choice-confirm');
      if (button) button.focus();
    });
  }

  settleChoice(confirmed) {
    const choosing = this.choosing;
    if (!choosing) return;
    this.choosing = null;
    choosing.resolve(confirmed);
    this.render();
  }

  /** The board's move callback: sends the move; a refusal rejects, and the board takes it back. */
  async play(text) {
    let v = this.live;
    if (v && v.secret_choice && !this.busy && this.holds(v.to_move)) {
      if (!(await this.confirmChoice(text))) throw new ApiError('not confirmed', 0);
      v = this.live;
    }
    if (!v || !this.holds(v.to_move) || this.busy) throw new ApiError('not your move', 0);
    const token = this.tokenOf(v.to_move);
    this.busy = true;
    this.render();
    try {
      const view = await api('POST', gamePath(this.id, 'moves'), forSeat(token, { move: text }));
      showMessage('');
      this.accept(view);
    } catch (e) {
      showMessage(`Move ${text} was not accepted: ${e.message}`);
      throw e;
    } finally {
      this.busy = false;
      this.render();
      this.refresh();
    }
  }

  async action(name) {
    const v = this.live;
    if (!v || this.busy) return;
    if (name === 'hint') {
      this.askHint();
      return;
    }
    if (name === 'resign' && !this.resignArmed) {
      this.resignArmed = true;
      this.render();
      this.later(() => {
        this.resignArmed = false;
        this.render();
      }, 4000);
      return;
    }
    const seat = name === 'resign' && this.holds(v.to_move) ? v.to_move : this.actingSeat();
    if (!this.holds(seat)) return;
    const token = this.tokenOf(seat);
    this.resignArmed = false;
    this.busy = true;
    this.render();
    try {
      let view;
      if (name === 'resign') {
        view = await api('POST', gamePath(this.id, 'resign'), forSeat(token));
      } else if (name === 'takeback' && this.mine.white && this.mine.black) {
        // On a shared screen the last move is taken back: its player asks, the other agrees.
        const mover = other(v.to_move);
        await api('POST', gamePath(this.id, 'takeback'), { token: this.tokenOf(mover), action: 'offer' });
        view = await api('POST', gamePath(this.id, 'takeback'), { token: this.tokenOf(v.to_move), action: 'accept' });
      } else if (name.startsWith('takeback')) {
        const action = name === 'takeback' ? 'offer' : name.slice('takeback-'.length);
        view = await api('POST', gamePath(this.id, 'takeback'), forSeat(token, { action }));
      } else {
        view = await api('POST', gamePath(this.id, 'draw'), forSeat(token, { action: name }));
      }
      showMessage(name === 'offer' && view.draw_offer === null && view.status === 'ongoing' ? 'The draw offer was declined.' : '', 'notice');
      this.accept(view);
    } catch (e) {
      showMessage(e.message);
    } finally {
      this.busy = false;
      this.render();
    }
    this.refresh();
  }

  copyInvite() {
    const later = (fn, ms) => this.later(fn, ms);
    return copyFromInput(document.getElementById('invite-link'), document.getElementById('copy-invite'), later);
  }

  /** Whether Black is at the bottom: for the player of Black alone, or flipped by hand. */
  flip() {
    const v = this.live;
    const both = this.mine.white && this.mine.black;
    const black = v && v.you === 'black' && !both;
    return black !== this.manualFlip;
  }

  /** Whether the back of a two-sided board is on show (Straat's frame turned over). */
  showsBack() {
    const shown = this.replay || this.live;
    return this.side === 'back' && Boolean(shown) && Array.isArray(shown.back);
  }

  /** The regions pointed out on the side on show (the streets of a finished Straat game). */
  shownHighlights() {
    const shown = this.replay || this.live;
    const side = this.showsBack() ? 'back' : 'front';
    return ((shown && shown.highlights) || []).filter((h) => h.side === side);
  }

  render() {
    const v = this.live;
    if (!v || this.disposed) return;
    if (v.status === 'over' && this.review === undefined) this.lookUpReview();
    // Behind a pass-the-device screen no earlier position stays on show.
    if (this.replay && this.covered()) this.replay = null;
    const shown = this.replay || v;
    const back = this.showsBack();
    const mayMove = !this.replay && !this.busy && v.status === 'ongoing' && this.holds(v.to_move);
    if (!this.board) {
      this.board = createBoard(document.getElementById('board'), {
        board: v.board,
        orientation: this.flip() ? 'black' : 'white',
        onMove: (text) => this.play(text),
      });
      if (hasNumbers(v.board)) {
        // Moves, hints and records name the squares by number: shown unless turned off, which
        // leaves the letters and figures along the edges.
        const names = document.getElementById('cell-names');
        names.textContent = 'Square numbers';
        names.title = 'Write each square\'s number on the board (off: only the letters and figures along the edges)';
        this.cellNames = squareNumbersWanted();
        names.setAttribute('aria-pressed', String(this.cellNames));
      }
    }
    // Moves can be typed too, in the game's notation (numbers or names in draughts).
    const entry = document.getElementById('move-entry');
    entry.hidden = v.status !== 'ongoing' || !this.holds(v.to_move) || this.covered() || Boolean(this.replay);
    entry.querySelector('button').disabled = this.busy;
    const example = (v.legal_moves || [])[0];
    document.getElementById('move-entry-help').textContent = example ? `e.g. ${example.text}` : '';
    const covered = this.covered();
    const screen = document.getElementById('pass-screen');
    screen.hidden = !covered;
    document.querySelector('.game').classList.toggle('covered', covered);
    if (covered) {
      const name = title(v.to_move, v.side_names);
      document.getElementById('pass-text').textContent =
        `Pass the device to ${name}. ${name}: show your board when nobody else is looking.`;
      document.getElementById('pass-ready').textContent = `I am ${name}: show my board`;
    }
    this.board.set({
      // The moves, not their number: after a takeback as many moves may make another position.
      position: `${shown.ply}/${(shown.moves || []).join(' ')}/${shown.status}${this.replay ? '/replay' : ''}${covered ? '/covered' : ''}`,
      pieces: covered ? [] : (back ? shown.back : shown.pieces) || [],
      absent: shown.absent || [],
      lastMove: covered ? null : shown.last_move || null,
      moves: this.replay || covered ? [] : v.legal_moves || [],
      // Pieces are placed on the front: turned over, the board only shows.
      canMove: !covered && mayMove && !back,
      orientation: this.flip() ? 'black' : 'white',
      sideNames: v.side_names,
      names: this.cellNames,
      hint: covered ? null : this.shownHint(),
      mirror: back,
      highlights: covered ? [] : this.shownHighlights(),
      caption: this.replay && v.status === 'ongoing'
        ? `An earlier position (after move ${shown.ply} of ${v.ply}): » returns to the game.`
        : back && mayMove ? 'Turn the frame over again to make your move.'
          : mayMove && !covered && v.secret_choice ? v.secret_choice : '',
      toMove: v.to_move,
    });
    renderPanel(this);
  }
}
