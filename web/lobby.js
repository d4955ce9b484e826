// The lobby: a form to start a game (against the computer, a friend on this screen or a friend
// by link) or, signed in, to post a challenge (to anyone, or to a named player); the open
// challenges (challenges.js); and the list of recent games.

import { api, rulesets } from './api.js';
import { startChallenges } from './challenges.js';
import { familyTitle } from './ratings.js';
import { seats } from './seats.js';
import { noticeRefusal, onSession, session, signedInName } from './session.js';
import { capital, commonName, esc, other, relativeTime, rulesetName, title } from './text.js';

const LEVELS = [1, 2, 3, 4, 5, 6, 7, 8];
/** Board files uploaded in this browser, to choose again: at most this many, each this long. */
const SAVED_BOARDS_KEY = 'denkmeter.boards';
const MAX_SAVED_BOARDS = 10;
const MAX_BOARD_BYTES = 12 * 1024;

function savedBoards() {
  try {
    const list = JSON.parse(localStorage.getItem(SAVED_BOARDS_KEY) || '[]');
    return Array.isArray(list) ? list.filter((b) => b && typeof b.name === 'string' && typeof b.text === 'string') : [];
  } catch {
    return [];
  }
}

function saveBoard(board) {
  const list = savedBoards().filter((b) => b.name !== board.name);
  list.unshift(board);
  try {
    localStorage.setItem(SAVED_BOARDS_KEY, JSON.stringify(list.slice(0, MAX_SAVED_BOARDS)));
  } catch {
    // Storage full or disabled: the board is still used for this game.
  }
}

/**
 * The time class of a clock choice (`main:300:3`, `move:30`), by its expected length as the
 * server reckons it (docs/api.md, "Rated games"): the main time plus 40 increments, or 40 times a
 * time per move.
 */
function timeClass(choice) {
  const [kind, first, second] = choice.split(':');
  const seconds = kind === 'move' ? 40 * Number(first) : Number(first) + 40 * Number(second || 0);
  if (seconds < 180) return 'bullet';
  if (seconds < 480) return 'blitz';
  if (seconds < 1500) return 'rapid';
  return 'classical';
}

/** The clock of a choice (`main:300:3`, `move:30`, or `` for none) as the API takes it, or null. */
function clockBody(choice) {
  const [kind, first, second] = choice.split(':');
  if (kind === 'move') return { move_seconds: Number(first) };
  if (kind === 'main') return { main_seconds: Number(first), increment_seconds: Number(second) };
  return null;
}

/** Whether an opponent choice posts a challenge rather than starting a game. */
const posts = (opponent) => opponent === 'challenge' || opponent === 'named';

function seatText(seat) {
  if (!seat) return '?';
  return seat.kind === 'computer' ? `Computer ${seat.level ?? ''}`.trim() : 'Human';
}

/** Shows the lobby in `app`; returns the page ({dispose}). */
export function lobbyPage(app) {
  document.title = 'Denkmeter';
  let disposed = false;
  app.innerHTML = `
  <div class="lobby">
    <section class="card new-game" aria-labelledby="new-game-title">
      <h1 id="new-game-title">New game</h1>
      <form id="new-game" autocomplete="off">
        <label class="field">
          <span>Game</span>
          <select id="ruleset" name="ruleset" required><option value="">Loading…</option></select>
        </label>
        <p id="ruleset-desc" class="desc"></p>
        <div class="field" id="board-field" hidden>
          <label class="field">
            <span>Board</span>
            <select id="board" name="board"></select>
          </label>
          <input type="file" id="board-upload" accept=".txt,text/plain" hidden>
          <p class="hint" id="board-hint"></p>
        </div>
        <fieldset class="field opponents">
          <legend>Opponent</legend>
          <label class="choice"><input type="radio" name="opponent" value="computer" checked> The computer</label>
          <label class="choice"><input type="radio" name="opponent" value="local"> A friend on this screen</label>
          <label class="choice"><input type="radio" name="opponent" value="link"> A friend by link</label>
          <label class="choice challenge-choice" hidden><input type="radio" name="opponent" value="challenge"> Anyone (post a challenge)</label>
          <label class="choice challenge-choice" hidden><input type="radio" name="opponent" value="named"> A named player</label>
        </fieldset>
        <label class="field" id="to-field" hidden>
          <span>The player's name</span>
          <input id="challenge-to" name="to" type="text" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="20">
        </label>
        <div class="row">
          <label class="field" id="level-field">
            <span>Level</span>
            <select id="level" name="level">${LEVELS.map((l) => `<option value="${l}"${l === 2 ? ' selected' : ''}>${l}</option>`).join('')}</select>
          </label>
          <label class="field" id="colour-field">
            <span>You play</span>
            <select id="colour" name="colour">
              <option value="white" selected>White</option>
              <option value="black">Black</option>
              <option value="random">Either, at random</option>
            </select>
          </label>
          <label class="field" id="clock-field">
            <span>Clock</span>
            <select id="clock" name="clock">
              <option value="" selected>None</option>
              <option value="move:30">30 s a move</option>
              <option value="main:180:2">3 min + 2 s</option>
              <option value="main:300:3">5 min + 3 s</option>
              <option value="main:900:10">15 min + 10 s</option>
              <option value="move:86400">A day a move</option>
            </select>
          </label>
        </div>
        <div class="field rated-field">
          <label class="choice" id="rated-label"><input type="checkbox" id="rated" name="rated" aria-describedby="rated-why"> Rated</label>
          <span class="hint small" id="rated-why"></span>
        </div>
        <details class="field" id="position-field">
          <summary>Start from a position</summary>
          <label class="field">
            <span>Position string (empty: the start)</span>
            <input id="position" name="position" type="text" autocomplete="off" spellcheck="false">
          </label>
          <p class="hint small">As the rules page and <code>denkmeter</code> write positions; the start is shown as an example.</p>
          <button type="button" id="analyse-position" title="The engine's evaluation and best line for this position (the start if empty)">Analyse this position</button>
          <p class="small" id="position-analysis" aria-live="polite"></p>
        </details>
        <details class="field" id="pdn-field" hidden>
          <summary>Bring in a game (PDN)</summary>
          <label class="field">
            <span>A draughts game from another program or site, to go on with or to analyse</span>
            <textarea id="pdn" name="pdn" rows="5" spellcheck="false" placeholder="[GameType &quot;20&quot;]&#10;1. 32-28 19-23 2. 28x19 14x23 *"></textarea>
          </label>
          <label class="small">Or a file: <input type="file" id="pdn-upload" accept=".pdn,.txt,text/plain"></label>
          <p class="hint small">Its GameType tag sets the rules and its FEN tag the start; a game without a GameType is played by the rules chosen above.</p>
          <button type="button" id="analyse-pdn" title="The engine's evaluation and best line for the position the game reached">Analyse its last position</button>
          <button type="button" id="analyse-pdn-game" title="The engine looks at every position of the game and marks its inaccuracies, mistakes and blunders">Analyse the whole game</button>
          <p class="small" id="pdn-analysis" aria-live="polite"></p>
        </details>
        <p class="hint" id="opponent-hint"></p>
        <div class="error" id="lobby-error" role="alert" hidden></div>
        <button type="submit" class="primary" id="start">Start game</button>
        <div class="notice waiting" id="challenge-waiting" role="status" hidden></div>
      </form>
    </section>
    <div class="lobby-side">
      <section class="card challenges" aria-labelledby="challenges-title">
        <h2 id="challenges-title">Open challenges</h2>
        <div class="error" id="challenges-error" role="alert" hidden></div>
        <div id="challenges"><p class="muted">Loading…</p></div>
      </section>
      <section class="card recent" aria-labelledby="recent-title">
        <div class="card-head">
          <h2 id="recent-title">Recent games</h2>
          <button type="button" class="link-button" id="refresh-games">Refresh</button>
        </div>
        <div id="games"><p class="muted">Loading…</p></div>
      </section>
    </div>
  </div>`;

  const form = document.getElementById('new-game');
  const select = document.getElementById('ruleset');
  const desc = document.getElementById('ruleset-desc');
  const error = document.getElementById('lobby-error');
  const hint = document.getElementById('opponent-hint');
  let list = [];

  const showError = (message) => {
    error.textContent = message;
    error.hidden = !message;
  };

  const boardField = document.getElementById('board-field');
  const boardSelect = document.getElementById('board');
  const boardUpload = document.getElementById('board-upload');
  const boardHint = document.getElementById('board-hint');
  let pendingBoard = null;
  // Rulesets whose board is data (Schada) offer their default board, the boards uploaded in
  // this browser before, and an upload.
  const showBoards = (r, chosen) => {
    boardField.hidden = !(r && r.board_name);
    boardUpload.hidden = true;
    if (!r || !r.board_name) return;
    const note = r.board_name === 'reconstruction' ? 'a reconstruction: the original markings are lost' : 'default';
    boardSelect.innerHTML =
      `<option value="">${esc(r.board_name)} (${esc(note)})</option>` +
      (pendingBoard ? `<option value="pending">${esc(pendingBoard.name)} (new upload)</option>` : '') +
      savedBoards()
        .map((b, i) => `<option value="saved:${i}">${esc(b.name)} (uploaded before)</option>`)
        .join('') +
      '<option value="upload">Upload a board file…</option>';
    if (chosen !== undefined) boardSelect.value = chosen;
    boardHint.textContent = 'A board file lists each square\'s paths; see the rules page for the format.';
  };
  boardSelect.addEventListener('change', () => {
    boardUpload.hidden = boardSelect.value !== 'upload';
    if (boardSelect.value === 'upload') boardUpload.click();
  });
  boardUpload.addEventListener('change', async () => {
    const file = boardUpload.files && boardUpload.files[0];
    // Cleared, so that choosing the same file again is noticed.
    boardUpload.value = '';
    if (!file) return;
    if (file.size > MAX_BOARD_BYTES) {
      showError(`The board file is ${file.size} bytes; the limit is ${MAX_BOARD_BYTES}.`);
      return;
    }
    const text = await file.text();
    const name = file.name.replace(/\.[^.]*$/, '').slice(0, 64) || 'board';
    // Kept for this game only until the server has accepted it; then saved for next time.
    pendingBoard = { name, text };
    showError('');
    showBoards(list.find((x) => x.name === select.value), 'pending');
  });

  // The analysis board of the ruleset chosen, from the position typed below if there is one.
  const boardHref = () => {
    const position = document.getElementById('position').value.trim();
    return `#/board/${encodeURIComponent(select.value)}${position ? `?position=${encodeURIComponent(position)}` : ''}`;
  };
  document.getElementById('position').addEventListener('input', () => {
    const link = document.getElementById('board-link');
    if (link) link.href = boardHref();
  });

  const describe = () => {
    const r = list.find((x) => x.name === select.value);
    desc.innerHTML = r
      ? `${esc(r.description)} <a href="#/rules/${encodeURIComponent(r.name)}">Rules</a> · <a href="${esc(boardHref())}" id="board-link" title="Play the moves of either side from the start or the position below, with the engine">Analysis board</a>`
      : '';
    showBoards(r);
    // The seats as the game's tradition names them (in English checkers Black moves first).
    for (const seat of ['white', 'black']) {
      document.querySelector(`#colour option[value=${seat}]`).textContent = title(seat, r && r.side_names);
    }
    // The ruleset's start position, as an example of its position strings.
    document.getElementById('pdn-field').hidden = !(r && r.pdn);
    const position = document.getElementById('position');
    position.placeholder = '';
    document.getElementById('position-analysis').textContent = '';
    if (r) {
      api('GET', `/api/rulesets/${encodeURIComponent(r.name)}`)
        .then((detail) => {
          if (!disposed && select.value === r.name) position.placeholder = detail.start_position || '';
        })
        .catch(() => {});
    }
  };

  const opponent = () => form.querySelector('input[name=opponent]:checked').value;
  // A rated game needs a session, the computer or a challenge as the opponent (a rated game
  // between people starts from a challenge) and a clock; the box says which is missing, else
  // which rating the game counts for.
  const rated = document.getElementById('rated');
  const ratedWhy = document.getElementById('rated-why');
  const ratedMissing = () => {
    if (!signedInName()) return 'sign in';
    if (opponent() !== 'computer' && !posts(opponent())) {
      return 'Rated games are played against the computer, or from a challenge (anyone, or a named player).';
    }
    if (!document.getElementById('clock').value) return 'A rated game needs a clock.';
    return '';
  };
  const showRated = () => {
    const missing = ratedMissing();
    rated.disabled = Boolean(missing);
    if (missing) rated.checked = false;
    document.getElementById('rated-label').classList.toggle('muted', Boolean(missing));
    if (missing === 'sign in') {
      ratedWhy.innerHTML = '<a href="#/account?form=signin">Sign in</a> to play rated games.';
    } else if (missing) {
      ratedWhy.textContent = missing;
    } else {
      const r = list.find((x) => x.name === select.value);
      const category = `${r ? familyTitle(r.family, list) : ''} ${timeClass(document.getElementById('clock').value)}`.trim();
      ratedWhy.textContent = `Counts for your ${category} rating.`;
    }
  };
  const showOptions = () => {
    const o = opponent();
    document.getElementById('level-field').hidden = o !== 'computer';
    document.getElementById('colour-field').hidden = o === 'local';
    document.getElementById('to-field').hidden = o !== 'named';
    // A challenge starts from the start, on the ruleset's own board.
    form.classList.toggle('posting', posts(o));
    document.getElementById('start').textContent = posts(o) ? 'Post challenge' : 'Start game';
    hint.textContent = {
      local: 'Both sides are played on this screen, by whoever is to move.',
      link: 'After starting you get a link to send to your friend.',
      challenge: 'Your challenge is listed in the lobby until someone accepts it (30 minutes at most); then the game starts.',
      named: 'Only that player can accept it: it shows in the lobby as a challenge to him.',
    }[o] || '';
  };
  // Challenges are posted by a signed-in player, on a server that has them.
  let challengesServed = true;
  const offerChallenges = () => {
    if (disposed) return;
    const offered = Boolean(signedInName()) && challengesServed;
    for (const label of form.querySelectorAll('.challenge-choice')) label.hidden = !offered;
    if (!offered && posts(opponent())) form.querySelector('input[name=opponent][value=computer]').checked = true;
    showOptions();
    showRated();
  };
  const stopSession = onSession(offerChallenges);
  session().then(offerChallenges);
  form.addEventListener('change', (e) => {
    if (e.target.name === 'opponent') showOptions();
    if (e.target === select) describe();
    if (e.target !== rated) showRated();
  });
  showOptions();
  showRated();

  const challenges = startChallenges({
    box: document.getElementById('challenges'),
    waiting: document.getElementById('challenge-waiting'),
    error: document.getElementById('challenges-error'),
    rulesetList: () => list,
    onAvailable: (served) => {
      if (served === challengesServed) return;
      challengesServed = served;
      offerChallenges();
    },
  });

  rulesets()
    .then((data) => {
      if (disposed) return;
      list = Array.isArray(data) ? data : [];
      // One entry per ruleset, those of one game grouped under its name.
      const option = (r) => `<option value="${esc(r.name)}">${esc(rulesetName(r))}</option>`;
      const families = [];
      for (const r of list) {
        const family = families.find((f) => f.name === r.family);
        if (family) family.rulesets.push(r);
        else families.push({ name: r.family, rulesets: [r] });
      }
      select.innerHTML = families
        .map((f) =>
          f.rulesets.length === 1
            ? option(f.rulesets[0])
            : `<optgroup label="${esc(commonName(f.rulesets.map(rulesetName)) || capital(f.name))}">${f.rulesets.map(option).join('')}</optgroup>`,
        )
        .join('');
      describe();
      showRated();
      challenges.render();
    })
    .catch((e) => {
      if (!disposed) showError(`Could not load the games: ${e.message}`);
    });

  // A PDN file is read into the box, to be seen (and corrected) before the game starts.
  document.getElementById('pdn-upload').addEventListener('change', async (event) => {
    const file = event.target.files && event.target.files[0];
    if (!file) return;
    if (file.size > 32 * 1024) {
      showError(`${file.name} is larger than the 32 KiB a game may have here; use denkmeter record import for collections.`);
      return;
    }
    document.getElementById('pdn').value = await file.text();
    showError('');
  });

  // The engine's view of the position the pasted game reached, without starting a game.
  document.getElementById('analyse-pdn').addEventListener('click', async () => {
    const button = document.getElementById('analyse-pdn');
    const out = document.getElementById('pdn-analysis');
    const pdn = document.getElementById('pdn').value.trim();
    if (!select.value || !pdn || button.disabled) return;
    const r = list.find((x) => x.name === select.value);
    button.disabled = true;
    out.textContent = 'Analysing…';
    try {
      const a = await api('POST', '/api/analysis', { ruleset: select.value, pdn });
      if (disposed) return;
      // The game's own GameType may name other rules than the ones chosen.
      const played = list.find((x) => x.name === a.ruleset) || r;
      const side = title(a.to_move, played && played.side_names);
      out.textContent = a.pv.length
        ? `Where the game stands, for ${side} to move: ${a.score_text} (depth ${a.depth}). Best line: ${a.pv.join(' ')}`
        : `${a.score_text}.`;
    } catch (e) {
      if (!disposed) out.textContent = `Not analysed: ${e.message}`;
    } finally {
      button.disabled = false;
    }
  });

  // The analysis of the whole pasted game, on a page of its own.
  document.getElementById('analyse-pdn-game').addEventListener('click', async () => {
    const button = document.getElementById('analyse-pdn-game');
    const out = document.getElementById('pdn-analysis');
    const pdn = document.getElementById('pdn').value.trim();
    if (!select.value || !pdn || button.disabled) return;
    button.disabled = true;
    out.textContent = 'Asking for the analysis…';
    try {
      const a = await api('POST', '/api/analyses', { ruleset: select.value, pdn });
      if (!disposed) location.hash = `#/analysis/${encodeURIComponent(a.id)}`;
    } catch (e) {
      if (!disposed) out.textContent = `Not analysed: ${e.message}`;
    } finally {
      button.disabled = false;
    }
  });

  // The engine's view of the position typed (or the start), without starting a game.
  const analysed = document.getElementById('position-analysis');
  document.getElementById('analyse-position').addEventListener('click', async () => {
    const button = document.getElementById('analyse-position');
    const ruleset = select.value;
    if (!ruleset || button.disabled) return;
    const r = list.find((x) => x.name === ruleset);
    button.disabled = true;
    analysed.textContent = 'Analysing…';
    try {
      const a = await api('POST', '/api/analysis', { ruleset, position: document.getElementById('position').value.trim() });
      if (disposed) return;
      const side = title(a.to_move, r && r.side_names);
      analysed.textContent = a.pv.length
        ? `For ${side} to move: ${a.score_text} (depth ${a.depth}). Best line: ${a.pv.join(' ')}`
        : `${a.score_text}.`;
    } catch (e) {
      if (!disposed) analysed.textContent = `Not analysed: ${e.message}`;
    } finally {
      button.disabled = false;
    }
  });

  let busy = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (busy) return;
    showError('');
    const ruleset = select.value;
    if (!ruleset) {
      showError('Choose a game first.');
      return;
    }
    const o = opponent();
    const colour = document.getElementById('colour').value;
    if (posts(o)) {
      postChallenge(ruleset, o, colour);
      return;
    }
    const chosen = colour === 'random' ? (crypto.getRandomValues(new Uint8Array(1))[0] & 1 ? 'black' : 'white') : colour;
    const you = o === 'local' ? 'white' : chosen;
    const human = { kind: 'human' };
    const body = { ruleset, white: human, black: human };
    if (o === 'computer') {
      body[other(you)] = { kind: 'computer', level: Number(document.getElementById('level').value) };
    }
    // A signed-in creator's account takes the seat he plays (on a shared screen he plays
    // both, so neither is his alone).
    if (signedInName() && o !== 'local') body.me = you;
    if (rated.checked && !ratedMissing()) body.rated = true;
    const position = document.getElementById('position').value.trim();
    if (position) body.position = position;
    const pdn = document.getElementById('pdn').value.trim();
    if (pdn && !document.getElementById('pdn-field').hidden) body.pdn = pdn;
    // The people's clocks (the computer answers within its level's limit).
    const clock = clockBody(document.getElementById('clock').value);
    if (clock) body.clock = clock;
    if (!boardField.hidden && boardSelect.value === 'pending' && pendingBoard) {
      body.board = pendingBoard;
    } else if (!boardField.hidden && boardSelect.value.startsWith('saved:')) {
      const board = savedBoards()[Number(boardSelect.value.slice(6))];
      if (board) body.board = board;
    } else if (!boardField.hidden && boardSelect.value === 'upload') {
      showError('Choose a board file to upload, or another board.');
      return;
    }
    busy = true;
    const button = document.getElementById('start');
    button.disabled = true;
    try {
      const created = await api('POST', '/api/games', body);
      if (body.board) saveBoard(body.board);
      const tokens = created.tokens || {};
      if (o === 'local') {
        seats.set(created.id, { white: tokens.white, black: tokens.black, mode: 'local' });
      } else if (o === 'link') {
        seats.set(created.id, { [you]: tokens[you], mode: 'link', invite: tokens[other(you)], inviteSeat: other(you) });
      } else {
        seats.set(created.id, { [you]: tokens[you], mode: 'computer' });
      }
      location.hash = `#/game/${encodeURIComponent(created.id)}`;
    } catch (e) {
      showError(`The game could not be created: ${e.message}`);
    } finally {
      busy = false;
      button.disabled = false;
    }
  });

  // A challenge: listed in the lobby (and under the form while it waits) until someone accepts
  // it; the game then opens on both pages.
  const postChallenge = async (ruleset, o, colour) => {
    const to = o === 'named' ? document.getElementById('challenge-to').value.trim() : null;
    if (o === 'named' && !to) {
      showError('Write the name of the player to challenge.');
      document.getElementById('challenge-to').focus();
      return;
    }
    const body = {
      ruleset,
      clock: clockBody(document.getElementById('clock').value),
      rated: rated.checked && !ratedMissing(),
      colour,
      to,
    };
    busy = true;
    const button = document.getElementById('start');
    button.disabled = true;
    try {
      const challenge = await api('POST', '/api/challenges', body);
      if (!disposed) challenges.posted(challenge);
    } catch (e) {
      noticeRefusal(e);
      if (!disposed) showError(`The challenge could not be posted: ${e.message}`);
    } finally {
      busy = false;
      button.disabled = false;
    }
  };

  const gamesBox = document.getElementById('games');
  const loadGames = async () => {
    try {
      const games = await api('GET', '/api/games?limit=30');
      if (disposed) return;
      if (!games.length) {
        gamesBox.innerHTML = '<p class="muted">No games yet.</p>';
        return;
      }
      const rows = games.map((g) => {
        const mine = seats.get(g.id);
        const held = mine.white || mine.black || mine.mode === 'session';
        const action = g.status === 'over' ? 'Replay' : held ? 'Resume' : 'Watch';
        const players = `${seatText(g.white)} – ${seatText(g.black)}`;
        const state = g.status === 'over' ? esc(g.result) : g.moves ? 'playing' : 'new';
        return `<tr>
          <td><a href="#/game/${encodeURIComponent(g.id)}" class="game-link" data-game="${esc(g.id)}">${action}</a></td>
          <td>${esc(rulesetName(g))}</td>
          <td>${esc(players)}${held ? ' <span class="tag">yours</span>' : ''}</td>
          <td>${state}</td>
          <td class="num">${Number(g.moves) || 0}</td>
          <td class="when">${esc(relativeTime(g.updated_at))}</td>
        </tr>`;
      });
      gamesBox.innerHTML = `<div class="table-wrap"><table class="games">
        <thead><tr><th></th><th>Game</th><th>White – Black</th><th>State</th><th class="num">Moves</th><th class="when">Updated</th></tr></thead>
        <tbody>${rows.join('')}</tbody></table></div>`;
    } catch (e) {
      if (!disposed) gamesBox.innerHTML = `<p class="error">Could not load the games: ${esc(e.message)}</p>`;
    }
  };
  document.getElementById('refresh-games').addEventListener('click', loadGames);
  loadGames();

  return {
    dispose() {
      disposed = true;
      stopSession();
      challenges.dispose();
    },
  };
}
