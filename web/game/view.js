// The game page's markup and its panel: title, players, status, result, invite link, actions,
// move list, replay controls and downloads. Everything here is drawn from the controller's state
// (game/page.js); the board draws itself (board/board.js).

import { gamePath, query } from '../api.js';
import { attr, legendOf, pieceColours } from '../board/draw.js';
import { categoryTitle, changeHtml, playerLink, ratingHtml } from '../ratings.js';
import { esc, other, rulesetName, title } from '../text.js';

/** The computer's level whose move a hint suggests (the server's `HINT_LEVEL`). */
const HINT_LEVEL = 6;

/** The page's frame; the board component goes into #board. */
export function gamePageHtml() {
  return `
    <div class="error toast" id="message" role="alert" hidden>
      <span id="message-text"></span>
      <button type="button" class="link-button" id="message-close" aria-label="Dismiss">×</button>
    </div>
    <div class="game">
      <div class="pass-screen" id="pass-screen" hidden>
        <p id="pass-text"></p>
        <button type="button" id="pass-ready">Show my board</button>
      </div>
      <div class="board-col">
        <div class="board-side" id="board-side" hidden>
          <strong id="side-label">Front</strong>
          <button type="button" id="turn-over" aria-pressed="false" title="See the other side of the board, mirrored as when it is turned over">Turn the frame over</button>
        </div>
        <div id="board"></div>
        <ul class="highlight-list" id="highlight-list" hidden></ul>
      </div>
      <aside class="panel">
        <div class="card">
          <div class="game-head">
            <h1 id="game-title">Game</h1>
            <a id="rules-link" class="small" href="#/">Rules</a>
          </div>
          <p id="game-rated" class="game-rated small" hidden></p>
          <p id="game-desc" class="desc small"></p>
          <ul class="players" id="players"></ul>
          <p id="watching" class="watching" hidden>You are watching this game.</p>
          <div id="status" class="status" aria-live="polite"></div>
          <div id="secret-choice" class="secret-choice" role="group" aria-labelledby="secret-choice-text" hidden>
            <p id="secret-choice-text"></p>
            <div id="choice-confirm-box" hidden>
              <p id="choice-question"></p>
              <button type="button" class="primary" id="choice-confirm">Confirm</button>
              <button type="button" id="choice-cancel">Choose another</button>
            </div>
          </div>
          <p id="secret-note" class="secret-note small" hidden></p>
          <div id="result" class="result" hidden></div>
          <div id="invite" class="invite" hidden>
            <label for="invite-link">Send this link to your friend:</label>
            <div class="copy-row">
              <input id="invite-link" type="text" readonly>
              <button type="button" id="copy-invite">Copy</button>
            </div>
            <p id="invite-local" class="small muted" hidden>This link works on this computer only: for a friend elsewhere, start the server with <code>--host 0.0.0.0 --public-url http://ADDRESS:PORT</code> (see the README).</p>
          </div>
          <div class="actions" id="actions"></div>
        </div>
        <div class="card">
          <div class="card-head">
            <h2>Moves</h2>
            <span class="small muted" id="connection"></span>
          </div>
          <ol class="moves" id="moves"></ol>
          <form class="move-entry" id="move-entry" autocomplete="off" hidden>
            <label for="move-text">Your move</label>
            <input id="move-text" type="text" spellcheck="false" autocapitalize="off" maxlength="200" aria-describedby="move-entry-help">
            <button type="submit">Play</button>
            <span id="move-entry-help" class="small muted"></span>
          </form>
          <div class="replay" id="replay" hidden>
            <button type="button" id="replay-first" title="Start position" aria-label="First">«</button>
            <button type="button" id="replay-prev" title="Previous move" aria-label="Previous">‹</button>
            <span id="replay-ply" class="ply"></span>
            <button type="button" id="replay-next" title="Next move" aria-label="Next">›</button>
            <button type="button" id="replay-last" title="Final position" aria-label="Last">»</button>
          </div>
          <div class="analysis" id="analysis-box" hidden>
            <button type="button" id="analyse" title="The engine's evaluation and best line for the position shown">Analyse this position</button>
            <p id="analysis" class="small" aria-live="polite"></p>
            <p class="review-request" id="review-request">
              <button type="button" id="request-analysis" title="The engine looks at every position of the game and marks its inaccuracies, mistakes and blunders">Request computer analysis</button>
              <a id="review-link" href="#/" hidden>Computer analysis</a>
              <span id="review-status" class="small muted"></span>
              <a id="board-link" href="#/" title="Play on from the position shown, with the engine, in moves of your own">Analysis board</a>
            </p>
          </div>
          <div class="downloads">
            <span class="muted">Download</span>
            <a id="download-pgn" href="#" download title="The game record">record</a>
            <a id="download-pdn" href="#" download title="The game record as PDN, for draughts programs" hidden>PDN</a>
            <a id="download-svg" href="#" download title="A diagram of the position shown">diagram</a>
            <button type="button" class="link-button flip" id="flip">Flip board</button>
            <button type="button" class="link-button" id="cell-names" aria-pressed="false" title="Write each cell's or point's name on the board">Cell names</button>
          </div>
        </div>
        <p class="small"><a href="#/">← Lobby</a></p>
      </aside>
    </div>`;
}

export function notFoundHtml(message) {
  return `<section class="card"><h1>Game not found</h1><p class="error" role="alert">${esc(message)}</p><p><a href="#/">Back to the lobby</a></p></section>`;
}

/** Shows an error in the toast; an empty message hides it. */
let noticeTimer = null;

/**
 * Shows a message at the foot of the screen ('' hides it): an `error` (something failed) stays
 * until dismissed; a `notice` (a normal event, such as a declined draw offer) is styled as news
 * and goes after a few seconds.
 */
export function showMessage(message, kind = 'error') {
  const box = document.getElementById('message');
  if (!box) return;
  clearTimeout(noticeTimer);
  document.getElementById('message-text').textContent = message;
  box.classList.toggle('error', kind === 'error');
  box.classList.toggle('notice', kind !== 'error');
  box.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  box.hidden = !message;
  if (message && kind !== 'error') {
    noticeTimer = setTimeout(() => {
      if (document.getElementById('message-text').textContent === message) box.hidden = true;
    }, 5000);
  }
}

export function showConnection(up) {
  const el = document.getElementById('connection');
  if (el) el.textContent = up ? '' : 'reconnecting…';
}

/** A player's disc in the board's own colours. */
function swatch(palette, player) {
  const { fill } = pieceColours(palette, player);
  return `<svg class="swatch" viewBox="0 0 16 16" aria-hidden="true"><circle cx="8" cy="8" r="7"${attr('fill', fill)}${attr('stroke', palette.piece_edge)} stroke-width="1.5"/></svg>`;
}

/** A seat's time left now, in milliseconds (null when the game is untimed). */
export function timeLeft(page, player) {
  const clock = page.live && page.live.clock;
  const ms = clock ? clock[`${player}_ms`] : null;
  if (typeof ms !== 'number') return null;
  const running = clock.running === player ? Date.now() - (page.liveAt || Date.now()) : 0;
  return Math.max(0, ms - running);
}

/** `1:02:03`, `4:05`, or `9.8` under ten seconds. */
export function clockText(ms) {
  if (ms < 10_000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const s = Math.floor(ms / 1000);
  const two = (n) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

/** The time left for the first move awaited now, in milliseconds, or null (see the API's `first_move_ms`). */
export function firstMoveLeft(page) {
  const clock = page.live && page.live.clock;
  if (!clock || typeof clock.first_move_ms !== 'number' || page.live.status !== 'ongoing') return null;
  return Math.max(0, clock.first_move_ms - (Date.now() - (page.liveAt || Date.now())));
}

/** The words under the players while the first moves are awaited: the clocks wait for them. */
function firstMoveHtml(page) {
  const ms = firstMoveLeft(page);
  if (ms === null) return '';
  const v = page.live;
  return ` · <span class="first-move">The clocks start after each side's first move: ${esc(title(v.to_move, v.side_names))} has <span id="first-move-left">${clockText(ms)}</span> to make it</span>`;
}

/** A seat's clock in the players list, the computer's as anyone's; nothing in an untimed game. */
function clockHtml(page, player) {
  const ms = timeLeft(page, player);
  if (ms === null) return '';
  const running = page.live.clock.running === player;
  return `<span class="clock${running ? ' running' : ''}${ms < 10_000 ? ' low' : ''}" data-seat="${player}" aria-label="time left">${clockText(ms)}</span>`;
}

/** Updates the running clock's text between views (see the page's tick). */
export function tickClock(page) {
  const v = page.live;
  const first = document.getElementById('first-move-left');
  const firstMs = firstMoveLeft(page);
  if (first && firstMs !== null) first.textContent = clockText(firstMs);
  if (!v || !v.clock || !v.clock.running) return;
  const ms = timeLeft(page, v.clock.running);
  for (const el of document.querySelectorAll(`.clock[data-seat="${v.clock.running}"]`)) {
    el.textContent = clockText(ms);
    el.classList.toggle('low', ms < 10_000);
  }
}

/**
 * Who holds a seat: a player with an account by name (a link to the player's page) and rating,
 * and once a rated game is over the rating's change; else `who` in words.
 */
function whoHtml(seat, who, v, player) {
  const account = seat && seat.player;
  if (!account) return `<span class="muted">${esc(who)}</span>`;
  const change = v.status === 'over' && v.rating_changes && v.rating_changes[player];
  const delta = change && Number.isFinite(change.after - change.before) ? ` ${changeHtml(change.after - change.before)}` : '';
  const known = account.rating !== null && account.rating !== undefined && Number.isFinite(Number(account.rating));
  const rating = known ? ` ${ratingHtml(account.rating, account.provisional)}` : '';
  const you = who === 'you' ? ' <span class="muted">(you)</span>' : '';
  return `<span class="who" data-seat="${player}">${playerLink(account.name)}${rating}${delta}${you}</span>`;
}

/** Draws the panel from the controller `page`. */
export function renderPanel(page) {
  const v = page.live;
  const over = v.status === 'over';
  const both = Boolean(page.mine.white && page.mine.black);

  const name = rulesetName(v);
  document.title = `${name} – Denkmeter`;
  document.getElementById('game-title').textContent = name;
  const board = v.board_name
    ? ` Board: ${v.board_name}${v.board_name === 'reconstruction' ? ' (a reconstruction: the original markings are lost)' : ' (from a board file)'}.`
    : '';
  document.getElementById('game-desc').textContent = `${v.description || ''}${board}`;
  document.getElementById('rules-link').href = `#/rules/${encodeURIComponent(v.ruleset)}`;
  const rated = document.getElementById('game-rated');
  rated.hidden = !v.rated;
  rated.textContent = v.rated ? `Rated · ${categoryTitle(v.category, page.rulesetList)}` : '';

  // Players.
  const palette = legendOf(v.board).palette;
  const seatLabel = (player) => {
    const seat = v[player];
    let who = seat && seat.kind === 'computer' ? `Computer, level ${seat.level}` : 'Human';
    if (seat && seat.kind === 'human') {
      if (both) who = 'on this screen';
      else if (v.you === player) who = 'you';
      else if (v.you) who = 'your friend';
      else who = 'human';
    }
    const turn = !over && v.to_move === player;
    return `<li class="player ${player}${turn ? ' to-move' : ''}">${swatch(palette, player)}<strong>${title(player, v.side_names)}</strong> ${whoHtml(seat, who, v, player)}${clockHtml(page, player)}${turn ? '<span class="turn-dot" aria-label="to move"></span>' : ''}</li>`;
  };
  const order = page.flip() ? ['white', 'black'] : ['black', 'white'];
  document.getElementById('players').innerHTML = order.map(seatLabel).join('');
  // A spectator (no seat in this browser) is told so, in the words lichess uses.
  document.getElementById('watching').hidden = Boolean(v.you || page.mine.white || page.mine.black);

  renderSide(page);
  renderStatus(page, both);
  renderSecret(page);
  renderResult(v);
  renderInvite(page, over);
  renderActions(page, over);
  renderMoves(page, over);
  renderAnalysis(page, over);
  renderDownloads(page);
}

/**
 * The side of a two-sided board on show (Straat's transparent frame: the front, or the back seen
 * mirrored), the control that turns it over, and the regions pointed out on that side.
 */
function renderSide(page) {
  const shown = page.replay || page.live;
  const box = document.getElementById('board-side');
  const hasBack = Array.isArray(shown.back);
  box.hidden = !hasBack;
  const back = page.showsBack();
  const label = document.getElementById('side-label');
  label.textContent = back ? 'Back (mirrored)' : 'Front';
  label.dataset.side = back ? 'back' : 'front';
  document.getElementById('turn-over').setAttribute('aria-pressed', String(back));
  const list = document.getElementById('highlight-list');
  const lit = page.shownHighlights();
  const palette = legendOf(shown.board).palette;
  list.innerHTML = lit
    .map((h) => {
      const owner = h.owner === 'black' ? 'black' : 'white';
      const colour = palette[`${owner}_highlight`];
      const mark = `<svg class="swatch" viewBox="0 0 1 1" aria-hidden="true"><rect width="1" height="1" rx="0.15"${attr('fill', colour)}/></svg>`;
      return `<li class="${owner}">${mark}${esc(h.label)}${h.value > 1 ? ` (counts ${esc(h.value)})` : ''}</li>`;
    })
    .join('');
  list.hidden = !lit.length;
}

function renderStatus(page, both) {
  const v = page.live;
  const status = document.getElementById('status');
  let text;
  let klass = 'status';
  if (v.status === 'over') {
    text = 'Game over';
  } else if (v.thinking) {
    text = `${title(v.to_move, v.side_names)}: the computer is thinking<span class="dots"><span>.</span><span>.</span><span>.</span></span>`;
    klass += ' thinking';
  } else if (page.holds(v.to_move)) {
    text = both ? `${title(v.to_move, v.side_names)} to move` : 'Your move';
    klass += ' your-turn';
  } else {
    text = `${title(v.to_move, v.side_names)} to move`;
  }
  if (v.status !== 'over' && v.draw_offer) {
    text += ` · ${title(v.draw_offer, v.side_names)} offers a draw`;
  }
  // The running clock in the status too: on a phone the status is what shows beside the board.
  if (v.status !== 'over' && v.clock && v.clock.running) text += ` ${clockHtml(page, v.clock.running)}`;
  text += firstMoveHtml(page);
  if (v.status !== 'over' && v.takeback_offer) {
    text += ` · ${title(v.takeback_offer, v.side_names)} asks to take back a move`;
  }
  status.className = klass;
  status.innerHTML = text;
}

/**
 * A secret, final choice (Trangalla's king): the words asking for it while it is this player's
 * to make, and the confirm step once a piece is clicked; afterwards, what only this player knows
 * (from his own view: nothing of it reaches the others).
 */
function renderSecret(page) {
  const v = page.live;
  const covered = page.covered();
  const asking = Boolean(v.secret_choice) && v.status === 'ongoing' && page.holds(v.to_move) && !covered;
  const box = document.getElementById('secret-choice');
  box.hidden = !asking;
  if (!asking && page.choosing) page.settleChoice(false);
  if (asking) {
    document.getElementById('secret-choice-text').textContent = v.secret_choice;
    const confirm = document.getElementById('choice-confirm-box');
    confirm.hidden = !page.choosing;
    if (page.choosing) {
      document.getElementById('choice-question').textContent =
        `You chose the piece on ${page.choosing.cell}. Confirm? It cannot be taken back.`;
      document.getElementById('choice-confirm').textContent = `Confirm ${page.choosing.cell}`;
    }
  }
  const note = document.getElementById('secret-note');
  note.hidden = !v.secret_note || covered;
  note.textContent = covered ? '' : v.secret_note || '';
}

function renderResult(v) {
  const result = document.getElementById('result');
  if (v.status === 'over' && v.result) {
    const r = v.result;
    const reason = r.reason ? String(r.reason).replace(/[-_]/g, ' ') : '';
    let html = `<div class="result-text">${esc(r.text || r.token)}</div><div class="small muted">${esc(r.token || '')}${reason ? ` · ${esc(reason)}` : ''}</div>`;
    if (r.score) {
      html += `<div class="score">Score: White ${esc(r.score.white)} – Black ${esc(r.score.black)}</div>`;
      if (r.score.breakdown) html += `<div class="small breakdown">${esc(r.score.breakdown)}</div>`;
    }
    result.innerHTML = html;
    result.hidden = false;
  } else {
    result.hidden = true;
  }
}

function renderInvite(page, over) {
  const invite = document.getElementById('invite');
  if (page.mine.invite && !over) {
    // The public address if the server was given one; else the one this browser used,
    // which reaches only this machine when it is a loopback address.
    const origin = page.publicUrl || location.origin;
    const link = `${origin}/#/game/${encodeURIComponent(page.id)}?token=${encodeURIComponent(page.mine.invite)}`;
    const input = document.getElementById('invite-link');
    if (input.value !== link) input.value = link;
    const loopback = /^(127\.|localhost$|\[::1\]$)/.test(location.hostname);
    document.getElementById('invite-local').hidden = Boolean(page.publicUrl) || !loopback;
    invite.hidden = false;
  } else {
    invite.hidden = true;
  }
}

function renderActions(page, over) {
  const v = page.live;
  const actions = [];
  const acting = page.actingSeat();
  if (!over && acting) {
    const offer = v.draw_offer;
    const opponentSeat = v[other(acting)];
    if (offer && offer !== acting && page.holds(other(offer))) {
      actions.push('<button type="button" class="primary" data-action="accept">Accept draw</button>');
      actions.push('<button type="button" data-action="decline">Decline draw</button>');
    } else if (!offer && opponentSeat) {
      actions.push('<button type="button" data-action="offer">Offer draw</button>');
    } else if (offer === acting) {
      actions.push('<span class="small muted">Draw offered</span>');
    }
    const takeback = v.takeback_offer;
    const shared = page.mine.white && page.mine.black;
    // Whether the seat has a move to take back (on a shared screen, whether any move was made).
    const moved = shared ? v.ply > 0 : v.ply >= 2 || (v.ply === 1 && v.first_to_move === acting);
    if (takeback && takeback !== acting && page.holds(other(takeback))) {
      actions.push('<button type="button" class="primary" data-action="takeback-accept">Accept takeback</button>');
      actions.push('<button type="button" data-action="takeback-decline">Decline takeback</button>');
    } else if (takeback === acting) {
      actions.push('<span class="small muted">Takeback asked</span>');
    } else if (moved && !page.covered() && !(v.hidden_information && opponentSeat && opponentSeat.kind === 'computer')) {
      // (Against the computer a game that hides something has no takebacks: trying a jump and
      // taking it back would show whether the piece jumped is the king.)
      const what = opponentSeat && opponentSeat.kind === 'computer' ? 'Take back your last move and the reply' : shared ? 'Take back the last move' : 'Ask to take back your last move';
      actions.push(`<button type="button" data-action="takeback" title="${what}">Take back</button>`);
    }
    if (page.holds(v.to_move) && !page.replay && !page.covered()) {
      actions.push(`<button type="button" data-action="hint" title="The move the computer (level ${HINT_LEVEL}) would play">${page.hinting ? 'Thinking…' : 'Hint'}</button>`);
    }
    actions.push(`<button type="button" class="danger" data-action="resign">${page.resignArmed ? 'Really resign?' : 'Resign'}</button>`);
  }
  const box = document.getElementById('actions');
  box.innerHTML = actions.join(' ');
  for (const b of box.querySelectorAll('button')) b.disabled = page.busy || (b.dataset.action === 'hint' && page.hinting);
}

/**
 * A finished game's analysis panel: the engine's view of the position shown, on request; and the
 * analysis of the whole game, asked for here and looked at on its own page.
 */
function renderAnalysis(page, over) {
  const box = document.getElementById('analysis-box');
  box.hidden = !over;
  if (!over) return;
  const text = document.getElementById('analysis');
  const a = page.analysis;
  const button = document.getElementById('analyse');
  button.disabled = page.analysing;
  button.textContent = page.analysing ? 'Analysing…' : 'Analyse this position';
  if (!a || a.ply !== page.shownPly()) {
    text.textContent = '';
  } else if (!a.pv.length) {
    text.textContent = `After move ${a.ply}: ${a.score_text}.`;
  } else {
    const side = title(a.to_move, page.live && page.live.side_names);
    text.textContent = `After move ${a.ply}, for ${side} to move: ${a.score_text} (depth ${a.depth}). Best line: ${a.pv.join(' ')}`;
  }
  const review = page.review;
  const request = document.getElementById('request-analysis');
  request.hidden = Boolean(review);
  request.disabled = page.reviewAsking;
  request.textContent = page.reviewAsking ? 'Requesting…' : 'Request computer analysis';
  const link = document.getElementById('review-link');
  link.hidden = !review;
  document.getElementById('review-status').textContent = review ? reviewStatus(review) : '';
  if (review) link.href = `#/analysis/${encodeURIComponent(review.id)}`;
  document.getElementById('board-link').href = `#/board/game/${encodeURIComponent(page.id)}?ply=${page.shownPly()}`;
}

/** Where a whole game's analysis stands: `done: 1 blunder, 4 mistakes`, `analysing 12/30`. */
function reviewStatus(a) {
  if (a.status === 'failed') return 'failed';
  if (a.status !== 'done' || !a.review) return `${a.status === 'waiting' ? 'waiting' : 'analysing'} ${a.done}/${a.total}`;
  const count = (key) => a.review.white[key] + a.review.black[key];
  const marks = [['blunders', 'blunder'], ['mistakes', 'mistake'], ['inaccuracies', 'inaccuracy']]
    .map(([key, one]) => [count(key), key, one])
    .filter(([n]) => n > 0)
    .map(([n, many, one]) => `${n} ${n === 1 ? one : many}`);
  return `done: ${marks.join(', ') || 'no move marked'}`;
}

/** The move list in numbered pairs, and the controls that step through the game's positions. */
function renderMoves(page, over) {
  const v = page.live;
  const list = document.getElementById('moves');
  const moves = v.moves || [];
  const shownPly = page.shownPly();
  const items = [];
  // A game started with Black to move opens with `1. ...`.
  const offset = v.first_to_move === 'black' ? 1 : 0;
  for (let i = -offset; i < moves.length; i += 2) {
    const cell = (j) => {
      if (j < 0) return '<span class="move">...</span>';
      if (j >= moves.length) return '';
      const current = j + 1 === shownPly ? ' current' : '';
      return `<span class="move${current}" data-ply="${j + 1}">${esc(moves[j])}</span>`;
    };
    items.push(`<li><span class="num">${(i + offset) / 2 + 1}.</span>${cell(i)}${cell(i + 1)}</li>`);
  }
  list.innerHTML = items.join('') || '<li class="muted empty">No moves yet</li>';
  list.classList.toggle('clickable', !page.covered());
  if (!page.replay) list.scrollTop = list.scrollHeight;

  // In a game still going on too: earlier positions are looked at without leaving it.
  const replay = document.getElementById('replay');
  replay.hidden = !v.ply || page.covered();
  if (!replay.hidden) {
    document.getElementById('replay-last').title = over ? 'Final position' : 'Back to the game';
    document.getElementById('replay-ply').textContent = `${shownPly} / ${v.ply}`;
    document.getElementById('replay-first').disabled = shownPly <= 0;
    document.getElementById('replay-prev').disabled = shownPly <= 0;
    document.getElementById('replay-next').disabled = shownPly >= v.ply;
    document.getElementById('replay-last').disabled = shownPly >= v.ply;
  }
}

function renderDownloads(page) {
  const v = page.live;
  const shownPly = page.shownPly();
  // Without a token the links are the session's (a seat held by the account) or a spectator's.
  const token = page.mine.white || page.mine.black || null;
  const pgn = document.getElementById('download-pgn');
  pgn.href = `${gamePath(page.id, 'record.pgn')}${query({ token })}`;
  pgn.setAttribute('download', `denkmeter-${v.ruleset}-${page.id}.pgn`);
  const pdn = document.getElementById('download-pdn');
  pdn.hidden = !v.pdn;
  pdn.href = `${gamePath(page.id, 'record.pdn')}${query({ token })}`;
  pdn.setAttribute('download', `denkmeter-${v.ruleset}-${page.id}.pdn`);
  const svg = document.getElementById('download-svg');
  const side = page.showsBack() ? 'back' : null;
  svg.href = `${gamePath(page.id, 'diagram.svg')}${query({ ply: shownPly, token, side })}`;
  svg.setAttribute('download', `denkmeter-${v.ruleset}-${page.id}-${shownPly}${side ? '-back' : ''}.svg`);
}
