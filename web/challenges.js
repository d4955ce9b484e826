// The lobby's open challenges (docs/api.md, "Challenges: finding an opponent"): the list, asked
// for once at load (`GET /api/challenges`) and then kept live over the lobby's WebSocket
// (`GET /api/lobby/ws`, whose every `challenges` message replaces it; reconnected after any
// close like a game's socket, socket.js). Accept on others' challenges (a link to sign in for a
// visitor), Cancel on one's own, "to you" on those named to the player; the challenger's own
// open challenges also show under the new-game form as "Waiting for an opponent…". When his
// challenge is accepted, the challenger's page opens the game (an `accepted` message): he plays
// it by his session, without a token.

import { api } from './api.js';
import { categoryTitle, playerLink, ratingHtml } from './ratings.js';
import { seats } from './seats.js';
import { noticeRefusal, onSession, session, signedInName } from './session.js';
import { GameSocket } from './socket.js';
import { esc, other, rulesetName, title } from './text.js';

/** Names compared as the server keys them, case aside. */
const sameName = (a, b) => Boolean(a) && Boolean(b) && String(a).toLowerCase() === String(b).toLowerCase();

/** `30 s`, `5 min`, `an hour`, `a day`, `2 days`. */
function span(seconds) {
  const s = Number(seconds);
  const unit = (n, one, many) => (n === 1 ? one : `${n} ${many}`);
  if (s >= 86400 && s % 86400 === 0) return unit(s / 86400, 'a day', 'days');
  if (s >= 3600 && s % 3600 === 0) return unit(s / 3600, 'an hour', 'h');
  if (s >= 60 && s % 60 === 0) return `${s / 60} min`;
  return `${s} s`;
}

/** A clock as the lobby writes it: `5+3` (minutes plus seconds), `30 s a move`, or `no clock`. */
export function clockText(clock) {
  if (!clock) return 'no clock';
  if (clock.move_seconds !== undefined && clock.move_seconds !== null) return `${span(clock.move_seconds)} a move`;
  const main = Number(clock.main_seconds);
  const minutes = main % 60 === 0 ? String(main / 60) : `${main} s`;
  return `${minutes}+${Number(clock.increment_seconds) || 0}`;
}

/** What a challenge offers: `Chad · 5+3 · rated`. */
export function challengeText(c) {
  return `${rulesetName(c)} · ${clockText(c.clock)} · ${c.rated ? 'rated' : 'casual'}`;
}

/**
 * Keeps the open challenges in `box` and the player's own in `waiting`, with `error` for a
 * refused accept or cancel. `rulesetList()` gives the rulesets (their side names);
 * `onAvailable(bool)` hears whether the server has challenges at all (an older one answers 404).
 * Returns {posted(challenge), dispose()}.
 */
export function startChallenges({ box, waiting, error, rulesetList = () => [], onAvailable = () => {} }) {
  let disposed = false;
  let list = []; // the open challenges, newest first
  let loaded = false; // whether a list has come (from the request or the socket)
  let heard = 0; // socket lists so far: a request's answer older than one of them is dropped
  let acting = null; // the id of the challenge being accepted or cancelled
  let connectedAs; // the name the socket was opened for (it lists what that player may see)

  const showError = (message) => {
    error.textContent = message;
    error.hidden = !message;
  };

  const ruleset = (name) => (rulesetList() || []).find((r) => r.name === name) || null;

  const row = (c, me) => {
    const own = sameName(c.by && c.by.name, me);
    const toYou = !own && sameName(c.to, me);
    const sides = (ruleset(c.ruleset) || {}).side_names;
    const by = c.by && c.by.name
      ? ` · ${playerLink(c.by.name)}${c.by.rating !== null && c.by.rating !== undefined ? ` ${ratingHtml(c.by.rating, c.by.provisional)}` : ''}`
      : '';
    const category = c.rated && c.category ? ` title="Counts for the ${esc(categoryTitle(c.category, rulesetList()))} ratings"` : '';
    const rated = c.rated ? `<span class="challenge-rated"${category}>rated</span>` : 'casual';
    const what = `${esc(rulesetName(c))} · ${esc(clockText(c.clock))} · ${rated}`;
    let colour;
    if (c.colour !== 'white' && c.colour !== 'black') colour = 'colours drawn at random';
    else colour = `you play ${title(own ? c.colour : other(c.colour), sides)}`;
    const tags = [];
    if (toYou) tags.push('<span class="tag to-you">to you</span>');
    else if (c.to) tags.push(`<span class="tag">to ${esc(c.to)}</span>`);
    if (own) tags.push('<span class="tag">yours</span>');
    // While one is being answered the others wait (the buttons stay focusable: aria-disabled).
    const disabled = acting ? ' aria-disabled="true"' : '';
    let action = '';
    if (own) {
      action = `<button type="button" class="cancel" data-cancel="${esc(c.id)}"${disabled}>${acting === c.id ? 'Cancelling…' : 'Cancel'}</button>`;
    } else if (!me) {
      action = '<a class="sign-in-to-accept" href="#/account?form=signin">Sign in to accept</a>';
    } else if (!c.to || toYou) {
      action = `<button type="button" class="primary accept" data-accept="${esc(c.id)}"${disabled}>${acting === c.id ? 'Accepting…' : 'Accept'}</button>`;
    }
    return `<li class="challenge${toYou ? ' to-you' : ''}${own ? ' own' : ''}" data-challenge="${esc(c.id)}">
      <span class="challenge-text">${what}${by}</span>${tags.length ? ` ${tags.join(' ')}` : ''}
      <span class="small muted challenge-colour">${esc(colour)}</span>
      <span class="challenge-action">${action}</span>
    </li>`;
  };

  const render = () => {
    if (disposed) return;
    const me = signedInName();
    // The list is drawn anew on every change: the button in focus keeps it.
    const focused = document.activeElement;
    const refocus = focused && (box.contains(focused) || waiting.contains(focused)) && focused.dataset
      ? (focused.dataset.accept && `[data-accept="${CSS.escape(focused.dataset.accept)}"]`) || (focused.dataset.cancel && `[data-cancel="${CSS.escape(focused.dataset.cancel)}"]`)
      : null;
    const inWaiting = Boolean(refocus) && waiting.contains(focused);
    if (!loaded) {
      // Still loading, or the error said so already.
    } else if (!list.length) {
      box.innerHTML = `<p class="muted" id="no-challenges">No open challenges.${me ? ' Post one: choose “Anyone” as the opponent.' : ''}</p>`;
    } else {
      box.innerHTML = `<ul class="challenge-list">${list.map((c) => row(c, me)).join('')}</ul>`;
    }
    const own = list.filter((c) => sameName(c.by && c.by.name, me));
    waiting.hidden = !own.length;
    waiting.innerHTML = own
      .map(
        (c) => `<div class="waiting-item" data-challenge="${esc(c.id)}">
          <span><strong>Waiting for an opponent…</strong><br><span class="small">${esc(challengeText(c))}${c.to ? ` · for ${esc(c.to)}` : ''}</span></span>
          <button type="button" class="cancel" data-cancel="${esc(c.id)}"${acting ? ' aria-disabled="true"' : ''}>Cancel</button>
        </div>`,
      )
      .join('');
    if (refocus) {
      const again = (inWaiting ? waiting : box).querySelector(refocus);
      if (again) again.focus();
    }
  };

  /** To a game of ours that a challenge became, played by the session. */
  const openGame = (game) => {
    // No token here; kept as this browser's game for the list of recent games.
    if (!seats.get(game).mode) seats.set(game, { mode: 'session' });
    location.hash = `#/game/${encodeURIComponent(game)}`;
  };

  let ownOpen = new Set(); // our challenges open in the last list
  const show = (challenges) => {
    list = (Array.isArray(challenges) ? challenges : []).filter((c) => c && c.id && (!c.status || c.status === 'open'));
    loaded = true;
    // One of ours left the list: if it was accepted while the socket was away, its game is ours.
    const me = signedInName();
    const now = new Set(list.filter((c) => sameName(c.by && c.by.name, me)).map((c) => c.id));
    for (const id of ownOpen) {
      if (now.has(id)) continue;
      api('GET', `/api/challenges/${encodeURIComponent(id)}`)
        .then((c) => { if (!disposed && c && c.status === 'accepted' && c.game) openGame(c.game); })
        .catch(() => {});
    }
    ownOpen = now;
    render();
  };

  /** Asks for the list; resolves to whether the server has challenges (false for a 404). */
  const load = async () => {
    const before = heard;
    try {
      const data = await api('GET', '/api/challenges');
      if (disposed) return false;
      if (heard === before) show(data && data.challenges);
      onAvailable(true);
      return true;
    } catch (e) {
      if (disposed) return false;
      if (e.status === 404) {
        loaded = true;
        list = [];
        box.innerHTML = '<p class="muted" id="no-challenges">This server has no challenges yet.</p>';
        waiting.hidden = true;
        onAvailable(false);
        return false;
      }
      if (heard === before && !loaded) box.innerHTML = `<p class="error">Could not load the challenges: ${esc(e.message)}</p>`;
      return true;
    }
  };

  const socket = new GameSocket(
    () => `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/api/lobby/ws`,
    {
      onMessage: (message) => {
        if (disposed) return;
        if (message.type === 'challenges') {
          heard += 1;
          show(message.challenges);
        } else if (message.type === 'accepted' && message.game) {
          // Our challenge was taken: to the game, played by the session.
          openGame(message.game);
        }
      },
    },
  );

  const accept = async (id) => {
    if (acting || disposed) return;
    acting = id;
    showError('');
    render();
    try {
      const got = await api('POST', `/api/challenges/${encodeURIComponent(id)}/accept`);
      if (disposed) return;
      // Kept like a created game's seat; the session would do too.
      if (got.token && got.seat) seats.set(got.game, { [got.seat]: got.token, mode: 'challenge' });
      location.hash = `#/game/${encodeURIComponent(got.game)}`;
    } catch (e) {
      noticeRefusal(e);
      if (disposed) return;
      // Taken, cancelled or expired meanwhile: the server's words, and the list as it is now.
      showError(`Not accepted: ${e.message}`);
      load();
    } finally {
      acting = null;
      render();
    }
  };

  const cancel = async (id) => {
    if (acting || disposed) return;
    acting = id;
    showError('');
    render();
    try {
      await api('DELETE', `/api/challenges/${encodeURIComponent(id)}`);
      list = list.filter((c) => c.id !== id);
    } catch (e) {
      noticeRefusal(e);
      if (disposed) return;
      showError(`Not cancelled: ${e.message}`);
      load();
    } finally {
      acting = null;
      render();
    }
  };

  const onClick = (e) => {
    const accepting = e.target.closest('button[data-accept]');
    if (accepting) accept(accepting.dataset.accept);
    const cancelling = e.target.closest('button[data-cancel]');
    if (cancelling) cancel(cancelling.dataset.cancel);
  };
  box.addEventListener('click', onClick);
  waiting.addEventListener('click', onClick);

  // The socket lists what its session may see: another player signed in, it is opened again.
  const stopSession = onSession((name) => {
    if (disposed || connectedAs === undefined) return;
    render();
    if (name === connectedAs) return;
    connectedAs = name;
    socket.close();
    load().then((ok) => {
      if (ok && !disposed && connectedAs === name) socket.open();
    });
  });
  session().then(async (name) => {
    if (disposed) return;
    connectedAs = name;
    render();
    if ((await load()) && !disposed && connectedAs === name) socket.open();
  });

  return {
    /** A challenge this page has just posted, shown before the socket tells of it. */
    posted(c) {
      if (!c || !c.id || list.some((x) => x.id === c.id)) return;
      list = [c, ...list];
      loaded = true;
      render();
    },
    /** Draws the list again (the rulesets' names for the seats have come). */
    render,
    dispose() {
      disposed = true;
      stopSession();
      socket.close();
    },
  };
}
