// Denkmeter in the browser: the lobby, a game, a rules page. Everything comes from the HTTP API
// (docs/api.md); the browser holds no rules. Hash routes: #/ (lobby), #/game/{id}[?token=T],
// #/rules/{name}.

import { MoveInput, createBoardElement, renderBoard } from './board.js';

const app = document.getElementById('app');
const LEVELS = [1, 2, 3, 4, 5, 6];
/** How often an open game socket asks for a heartbeat, and how long a silent one is trusted. */
const HEARTBEAT_EVERY_MS = 20000;
const HEARTBEAT_SILENCE_MS = 45000;

// ---------------------------------------------------------------------------------------------
// Small helpers

function esc(text) {
  return String(text ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const other = (player) => (player === 'white' ? 'black' : 'white');
const title = (player) => (player === 'black' ? 'Black' : 'White');

class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/** One request to the API; rejects with the server's `error` message. */
async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError('The server cannot be reached. Check the connection and try again.', 0);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = (data && data.error) || `${response.status} ${response.statusText}`.trim();
    throw new ApiError(message, response.status);
  }
  return data;
}

const query = (params) => {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return parts.length ? `?${parts.join('&')}` : '';
};

// Seats held in this browser, per game: {white, black, mode, invite}. mode: computer | local |
// link | joined.
const seats = {
  key: (id) => `denkmeter.game.${id}`,
  get(id) {
    try {
      const data = JSON.parse(localStorage.getItem(this.key(id)) || 'null');
      return data && typeof data === 'object' ? data : {};
    } catch {
      return {};
    }
  },
  set(id, data) {
    try {
      localStorage.setItem(this.key(id), JSON.stringify(data));
    } catch {
      // Private mode or a full store: the game still works until the page is closed.
    }
  },
};

function relativeTime(ms) {
  const seconds = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return new Date(ms).toLocaleDateString();
}

function seatText(seat) {
  if (!seat) return '?';
  return seat.kind === 'computer' ? `Computer ${seat.level ?? ''}`.trim() : 'Human';
}

let rulesetCache = null;
async function rulesets() {
  if (!rulesetCache) {
    rulesetCache = api('GET', '/api/rulesets').catch((e) => {
      rulesetCache = null;
      throw e;
    });
  }
  return rulesetCache;
}

// ---------------------------------------------------------------------------------------------
// Markdown: headings, paragraphs, lists, bold, italics, inline code, code blocks, tables.

function inline(text) {
  let out = '';
  const parts = String(text).split(/(`[^`]*`)/);
  for (const part of parts) {
    if (part.length > 1 && part.startsWith('`') && part.endsWith('`')) {
      out += `<code>${esc(part.slice(1, -1))}</code>`;
      continue;
    }
    let s = esc(part);
    s = s.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (all, label, href) => {
      const url = href.replace(/&amp;/g, '&');
      if (/^(https?:\/\/|#)/.test(url)) {
        return `<a href="${esc(url)}" rel="noopener">${label}</a>`;
      }
      return label;
    });
    s = s.replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>');
    s = s.replace(/__(.+?)__/g, '<strong>$1</strong>');
    s = s.replace(/(^|[^*\w])\*(?!\s)(.+?)\*(?!\w)/g, '$1<em>$2</em>');
    s = s.replace(/(^|[^_\w])_(?!\s)(.+?)_(?!\w)/g, '$1<em>$2</em>');
    out += s;
  }
  return out;
}

function slug(text) {
  return String(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function renderMarkdown(md) {
  const lines = String(md || '').replace(/\r\n?/g, '\n').split('\n');
  const html = [];
  let i = 0;
  const isBlank = (l) => /^\s*$/.test(l);
  const listItem = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;
  const startsBlock = (l) =>
    /^#{1,6}\s/.test(l) || /^```/.test(l) || listItem.test(l) || /^\s*\|/.test(l) || /^>\s?/.test(l);

  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) {
      i += 1;
      continue;
    }
    let m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (m) {
      const level = m[1].length;
      html.push(`<h${level} id="${slug(m[2])}">${inline(m[2])}</h${level}>`);
      i += 1;
      continue;
    }
    if (/^```/.test(line)) {
      const body = [];
      i += 1;
      while (i < lines.length && !/^```/.test(lines[i])) body.push(lines[i++]);
      i += 1;
      html.push(`<pre><code>${esc(body.join('\n'))}</code></pre>`);
      continue;
    }
    if (/^( {4}|\t)/.test(line)) {
      const body = [];
      while (i < lines.length && (/^( {4}|\t)/.test(lines[i]) || isBlank(lines[i]))) {
        body.push(lines[i].replace(/^( {4}|\t)/, ''));
        i += 1;
      }
      while (body.length && isBlank(body[body.length - 1])) body.pop();
      html.push(`<pre><code>${esc(body.join('\n'))}</code></pre>`);
      continue;
    }
    if (/^\s*\|/.test(line)) {
      const rows = [];
      while (i < lines.length && /^\s*\|/.test(lines[i])) rows.push(lines[i++].trim());
      const cellsOf = (row) =>
        row
          .replace(/^\|/, '')
          .replace(/\|$/, '')
          .split('|')
          .map((c) => c.trim());
      const isRule = (row) => /^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$/.test(row);
      if (rows.length >= 2 && isRule(rows[1])) {
        const head = cellsOf(rows[0]).map((c) => `<th>${inline(c)}</th>`).join('');
        const body = rows
          .slice(2)
          .map((r) => `<tr>${cellsOf(r).map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`)
          .join('');
        html.push(`<div class="table-wrap"><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`);
      } else {
        html.push(`<pre>${esc(rows.join('\n'))}</pre>`);
      }
      continue;
    }
    if (/^>\s?/.test(line)) {
      const body = [];
      while (i < lines.length && /^>\s?/.test(lines[i])) body.push(lines[i++].replace(/^>\s?/, ''));
      html.push(`<blockquote>${renderMarkdown(body.join('\n'))}</blockquote>`);
      continue;
    }
    m = listItem.exec(line);
    if (m) {
      const ordered = /\d/.test(m[2]);
      const baseIndent = m[1].length;
      const items = [];
      while (i < lines.length) {
        const item = listItem.exec(lines[i]);
        if (item && item[1].length <= baseIndent + 1 && /\d/.test(item[2]) === ordered) {
          items.push([item[3]]);
          i += 1;
        } else if (items.length && !isBlank(lines[i]) && /^\s+/.test(lines[i])) {
          items[items.length - 1].push(lines[i]);
          i += 1;
        } else if (items.length && !isBlank(lines[i]) && !startsBlock(lines[i])) {
          // A lazy continuation line.
          items[items.length - 1].push(lines[i]);
          i += 1;
        } else if (isBlank(lines[i]) && i + 1 < lines.length && listItem.test(lines[i + 1])) {
          i += 1;
        } else {
          break;
        }
      }
      const tag = ordered ? 'ol' : 'ul';
      const body = items
        .map((parts) => {
          const [first, ...rest] = parts;
          const nested = rest.some((l) => listItem.test(l));
          if (nested) {
            const indent = Math.min(...rest.filter((l) => !isBlank(l)).map((l) => /^\s*/.exec(l)[0].length));
            return `<li>${inline(first)}${renderMarkdown(rest.map((l) => l.slice(indent)).join('\n'))}</li>`;
          }
          return `<li>${inline([first, ...rest.map((l) => l.trim())].join(' '))}</li>`;
        })
        .join('');
      html.push(`<${tag}>${body}</${tag}>`);
      continue;
    }
    const para = [];
    while (i < lines.length && !isBlank(lines[i]) && !(para.length && startsBlock(lines[i]))) {
      para.push(lines[i].trim());
      i += 1;
    }
    html.push(`<p>${inline(para.join(' '))}</p>`);
  }
  return html.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Routing

let page = null; // the current page: {dispose()}

function parseHash() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path, search = ''] = raw.split('?');
  const params = new URLSearchParams(search);
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  return { parts, params };
}

function route() {
  if (page && page.dispose) page.dispose();
  page = null;
  window.scrollTo(0, 0);
  const { parts, params } = parseHash();
  if (parts[0] === 'game' && parts[1]) {
    page = new GamePage(parts[1], params.get('token'));
  } else if (parts[0] === 'rules' && parts[1]) {
    page = rulesPage(parts[1]);
  } else {
    page = lobbyPage();
  }
}

window.addEventListener('hashchange', route);

// ---------------------------------------------------------------------------------------------
// Lobby

function lobbyPage() {
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
        <fieldset class="field opponents">
          <legend>Opponent</legend>
          <label class="choice"><input type="radio" name="opponent" value="computer" checked> The computer</label>
          <label class="choice"><input type="radio" name="opponent" value="local"> A friend on this screen</label>
          <label class="choice"><input type="radio" name="opponent" value="link"> A friend by link</label>
        </fieldset>
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
            </select>
          </label>
        </div>
        <p class="hint" id="opponent-hint"></p>
        <div class="error" id="lobby-error" role="alert" hidden></div>
        <button type="submit" class="primary" id="start">Start game</button>
      </form>
    </section>
    <section class="card recent" aria-labelledby="recent-title">
      <div class="card-head">
        <h2 id="recent-title">Recent games</h2>
        <button type="button" class="link-button" id="refresh-games">Refresh</button>
      </div>
      <div id="games"><p class="muted">Loading…</p></div>
    </section>
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

  const describe = () => {
    const r = list.find((x) => x.name === select.value);
    desc.innerHTML = r
      ? `${esc(r.description)} <a href="#/rules/${encodeURIComponent(r.name)}">Rules</a>`
      : '';
  };

  const opponent = () => form.querySelector('input[name=opponent]:checked').value;
  const showOptions = () => {
    const o = opponent();
    document.getElementById('level-field').hidden = o !== 'computer';
    document.getElementById('colour-field').hidden = o === 'local';
    hint.textContent =
      o === 'local'
        ? 'Both sides are played on this screen, by whoever is to move.'
        : o === 'link'
          ? 'After starting you get a link to send to your friend.'
          : '';
  };
  form.addEventListener('change', (e) => {
    if (e.target.name === 'opponent') showOptions();
    if (e.target === select) describe();
  });
  showOptions();

  rulesets()
    .then((data) => {
      if (disposed) return;
      list = Array.isArray(data) ? data : [];
      // One entry per ruleset, those of one game grouped under its name.
      const capital = (t) => t.charAt(0).toUpperCase() + t.slice(1);
      const option = (r) => `<option value="${esc(r.name)}">${esc(capital(r.name))}</option>`;
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
            : `<optgroup label="${esc(capital(f.name))}">${f.rulesets.map(option).join('')}</optgroup>`,
        )
        .join('');
      describe();
    })
    .catch((e) => {
      if (!disposed) showError(`Could not load the games: ${e.message}`);
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
    const you = o === 'local' ? 'white' : document.getElementById('colour').value;
    const human = { kind: 'human' };
    const body = { ruleset, white: human, black: human };
    if (o === 'computer') {
      body[other(you)] = { kind: 'computer', level: Number(document.getElementById('level').value) };
    }
    busy = true;
    const button = document.getElementById('start');
    button.disabled = true;
    try {
      const created = await api('POST', '/api/games', body);
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
        const held = mine.white || mine.black;
        const action = g.status === 'over' ? 'Replay' : held ? 'Resume' : 'Watch';
        const players = `${seatText(g.white)} – ${seatText(g.black)}`;
        const state = g.status === 'over' ? esc(g.result) : g.moves ? 'playing' : 'new';
        return `<tr>
          <td><a href="#/game/${encodeURIComponent(g.id)}" class="game-link" data-game="${esc(g.id)}">${action}</a></td>
          <td>${esc(g.ruleset)}</td>
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
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Rules page

function rulesPage(name) {
  let disposed = false;
  document.title = `${name} rules – Denkmeter`;
  app.innerHTML = `<article class="card rules"><p class="muted">Loading…</p></article>`;
  const box = app.querySelector('.rules');
  api('GET', `/api/rulesets/${encodeURIComponent(name)}`)
    .then((r) => {
      if (disposed) return;
      box.innerHTML = `<p class="crumbs"><a href="#/">← Lobby</a></p>${renderMarkdown(r.rules)}`;
    })
    .catch((e) => {
      if (disposed) return;
      box.innerHTML = `<p class="crumbs"><a href="#/">← Lobby</a></p><p class="error" role="alert">${esc(e.message)}</p>`;
    });
  return {
    dispose() {
      disposed = true;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// A game

class GamePage {
  constructor(id, inviteToken) {
    this.id = id;
    this.mine = seats.get(id);
    this.live = null; // the latest view of the game as it is
    this.replay = null; // a view of an earlier ply, or null
    this.input = new MoveInput([]);
    this.manualFlip = false;
    this.busy = false;
    this.disposed = false;
    this.ws = null;
    this.wsDelay = 500;
    this.timers = new Set();
    this.resignArmed = false;
    this.build();
    this.start(inviteToken);
  }

  // --- seats and tokens

  /** The token that plays for `player` in this browser, if any. */
  tokenOf(player) {
    return (player && this.mine[player]) || null;
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
    return null;
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

  dispose() {
    this.disposed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
      this.ws = null;
    }
    document.removeEventListener('keydown', this.onKey);
  }

  async start(inviteToken) {
    if (inviteToken) {
      // An invite link: find out which seat the token holds and keep it.
      try {
        const view = await api('GET', `/api/games/${encodeURIComponent(this.id)}${query({ token: inviteToken })}`);
        if (view.you) {
          this.mine = { ...seats.get(this.id) };
          this.mine[view.you] = inviteToken;
          this.mine.mode = this.mine.white && this.mine.black ? 'local' : 'joined';
          seats.set(this.id, this.mine);
        } else {
          this.showMessage('This link holds no seat in this game: you are watching.');
        }
        this.accept(view);
      } catch (e) {
        if (e.status === 404) {
          this.notFound(e.message);
          return;
        }
        this.showMessage(
          e.status === 403 ? 'This invite link holds no seat in this game (it may be mistyped): you are watching.' : e.message,
        );
      }
      history.replaceState(null, '', `#/game/${encodeURIComponent(this.id)}`);
    }
    await this.refresh();
    this.connect();
  }

  /** Loads the game again (after own actions, when the socket is down, on errors). */
  async refresh() {
    try {
      const view = await api('GET', `/api/games/${encodeURIComponent(this.id)}${query({ token: this.viewToken() })}`);
      this.accept(view);
    } catch (e) {
      if (e.status === 404) {
        this.notFound(e.message);
        return;
      }
      this.showMessage(e.message);
    }
  }

  notFound(message) {
    this.dispose();
    app.innerHTML = `<section class="card"><h1>Game not found</h1><p class="error" role="alert">${esc(message)}</p><p><a href="#/">Back to the lobby</a></p></section>`;
  }

  connect() {
    if (this.disposed) return;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const token = this.mine.white || this.mine.black || null;
    const url = `${scheme}//${location.host}/api/games/${encodeURIComponent(this.id)}/ws${query({ token })}`;
    let ws;
    try {
      ws = new WebSocket(url);
    } catch {
      this.later(() => this.connect(), this.wsDelay);
      return;
    }
    this.ws = ws;
    this.heard = Date.now();
    ws.onopen = () => {
      this.wsDelay = 500;
      this.heard = Date.now();
      this.setConnection(true);
      this.watchdog(ws);
    };
    ws.onmessage = (event) => {
      this.heard = Date.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return; // not JSON: ignore it
      }
      if (message.type === 'view') {
        this.accept(message.view);
      } else if (message.type === 'heartbeat') {
        // The game moved on without us hearing of it: ask for it.
        if (this.live && typeof message.version === 'number' && message.version > (this.live.version ?? -1)) {
          this.refresh();
        }
      }
    };
    ws.onclose = () => {
      if (this.ws === ws) this.ws = null;
      this.setConnection(false);
      if (this.disposed) return;
      this.later(() => this.connect(), this.wsDelay);
      this.wsDelay = Math.min(this.wsDelay * 2, 8000);
      this.poll();
    };
  }

  /**
   * Keeps an open socket honest: asks for a heartbeat every 20 s (the answer carries the
   * game's version), and a socket silent for 45 s is closed, which reconnects and reloads.
   */
  watchdog(ws) {
    const check = () => {
      if (this.disposed || this.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
      if (Date.now() - this.heard > HEARTBEAT_SILENCE_MS) {
        ws.close();
        return;
      }
      try {
        ws.send('ping');
      } catch {
        // closing: onclose reconnects
      }
      this.later(check, HEARTBEAT_EVERY_MS);
    };
    this.later(check, HEARTBEAT_EVERY_MS);
  }

  /** While the socket is down, keeps the game fresh by asking. */
  poll() {
    if (this.polling) return;
    this.polling = true;
    const tick = async () => {
      if (this.disposed || (this.ws && this.ws.readyState === WebSocket.OPEN)) {
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
      if (view.ply < live.ply) return;
      // The server's version grows with every change: an older view (a late answer) is stale.
      if (typeof view.version === 'number' && typeof live.version === 'number' && view.version < live.version) return;
      if (live.status === 'over' && view.status !== 'over') return;
      const same =
        view.ply === live.ply && view.status === live.status && view.to_move === live.to_move && view.draw_offer === live.draw_offer;
      // On a shared screen a view for the other seat carries no moves: keep the ones we have.
      if (same && view.you !== view.to_move && live.you === live.to_move && (live.legal_moves || []).length) {
        view = { ...view, you: live.you, legal_moves: live.legal_moves };
      }
      if (view.ply !== live.ply) this.input.reset();
    }
    const newPosition = !live || view.ply !== live.ply || view.status !== live.status;
    this.live = view;
    const moves = view.legal_moves || [];
    const path = this.input.path;
    this.input = new MoveInput(moves);
    if (!newPosition) this.input.path = path.filter(() => true);
    if (this.input.path.length && !this.input.matching(this.input.path).length) this.input.reset();
    // On a shared screen, ask for the side to move's own view to get its moves.
    if (
      view.status === 'ongoing' &&
      view.you !== view.to_move &&
      this.tokenOf(view.to_move) &&
      !moves.length
    ) {
      this.fetchFor(view.to_move, view.ply);
    }
    this.render();
  }

  async fetchFor(player, ply) {
    const key = `${player}:${ply}`;
    if (this.fetching === key) return;
    this.fetching = key;
    try {
      const view = await api('GET', `/api/games/${encodeURIComponent(this.id)}${query({ token: this.tokenOf(player) })}`);
      this.accept(view);
    } catch (e) {
      this.showMessage(e.message);
    } finally {
      if (this.fetching === key) this.fetching = null;
    }
  }

  // --- the page

  build() {
    document.title = 'Game – Denkmeter';
    app.innerHTML = `
    <div class="error toast" id="message" role="alert" hidden>
      <span id="message-text"></span>
      <button type="button" class="link-button" id="message-close" aria-label="Dismiss">×</button>
    </div>
    <div class="game">
      <div class="board-col">
        <div class="board-wrap" id="board-wrap"></div>
        <div class="choices" id="choices" hidden></div>
      </div>
      <aside class="panel">
        <div class="card">
          <div class="game-head">
            <h1 id="game-title">Game</h1>
            <a id="rules-link" class="small" href="#/">Rules</a>
          </div>
          <p id="game-desc" class="desc small"></p>
          <ul class="players" id="players"></ul>
          <div id="status" class="status" aria-live="polite"></div>
          <div id="result" class="result" hidden></div>
          <div id="invite" class="invite" hidden>
            <label for="invite-link">Send this link to your friend:</label>
            <div class="copy-row">
              <input id="invite-link" type="text" readonly>
              <button type="button" id="copy-invite">Copy</button>
            </div>
          </div>
          <div class="actions" id="actions"></div>
        </div>
        <div class="card">
          <div class="card-head">
            <h2>Moves</h2>
            <span class="small muted" id="connection"></span>
          </div>
          <ol class="moves" id="moves"></ol>
          <div class="replay" id="replay" hidden>
            <button type="button" id="replay-first" title="Start position" aria-label="First">«</button>
            <button type="button" id="replay-prev" title="Previous move" aria-label="Previous">‹</button>
            <span id="replay-ply" class="ply"></span>
            <button type="button" id="replay-next" title="Next move" aria-label="Next">›</button>
            <button type="button" id="replay-last" title="Final position" aria-label="Last">»</button>
          </div>
          <div class="downloads">
            <span class="muted">Download</span>
            <a id="download-pgn" href="#" download title="The game record">record</a>
            <a id="download-svg" href="#" download title="A diagram of the position shown">diagram</a>
            <button type="button" class="link-button flip" id="flip">Flip board</button>
          </div>
        </div>
        <p class="small"><a href="#/">← Lobby</a></p>
      </aside>
    </div>`;
    this.svg = createBoardElement((cell) => this.clickCell(cell));
    document.getElementById('board-wrap').appendChild(this.svg);
    document.getElementById('message-close').addEventListener('click', () => this.showMessage(''));
    document.getElementById('copy-invite').addEventListener('click', () => this.copyInvite());
    document.getElementById('flip').addEventListener('click', () => {
      this.manualFlip = !this.manualFlip;
      this.render();
    });
    document.getElementById('replay-first').addEventListener('click', () => this.goto(0));
    document.getElementById('replay-prev').addEventListener('click', () => this.goto(this.shownPly() - 1));
    document.getElementById('replay-next').addEventListener('click', () => this.goto(this.shownPly() + 1));
    document.getElementById('replay-last').addEventListener('click', () => this.goto(null));
    document.getElementById('moves').addEventListener('click', (e) => {
      const li = e.target.closest('[data-ply]');
      if (li && this.live && this.live.status === 'over') this.goto(Number(li.dataset.ply));
    });
    document.getElementById('actions').addEventListener('click', (e) => {
      const button = e.target.closest('button[data-action]');
      if (button) this.action(button.dataset.action);
    });
    document.getElementById('choices').addEventListener('click', (e) => {
      const button = e.target.closest('button[data-move]');
      if (button) {
        const move = (this.live.legal_moves || []).find((m) => m.text === button.dataset.move);
        if (move) this.play(move);
      } else if (e.target.closest('button[data-cancel]')) {
        this.input.reset();
        this.render();
      }
    });
    this.onKey = (e) => {
      if (e.target && /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
      if (e.key === 'Escape') {
        this.input.reset();
        this.render();
      } else if (this.live && this.live.status === 'over' && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
        this.goto(this.shownPly() + (e.key === 'ArrowLeft' ? -1 : 1));
      }
    };
    document.addEventListener('keydown', this.onKey);
  }

  showMessage(message) {
    const box = document.getElementById('message');
    if (!box) return;
    document.getElementById('message-text').textContent = message;
    box.hidden = !message;
  }

  setConnection(up) {
    const el = document.getElementById('connection');
    if (el) el.textContent = up ? '' : 'reconnecting…';
  }

  shownPly() {
    return this.replay ? this.replay.ply : this.live ? this.live.ply : 0;
  }

  /** Replay: shows the position after `ply` moves (null: the final one). */
  async goto(ply) {
    if (!this.live) return;
    const total = this.live.ply;
    if (ply === null || ply >= total) {
      this.replay = null;
      this.render();
      return;
    }
    ply = Math.max(0, ply);
    this.replayWanted = ply;
    try {
      const view = await api('GET', `/api/games/${encodeURIComponent(this.id)}${query({ token: this.viewToken(), ply })}`);
      if (this.disposed || this.replayWanted !== ply) return;
      this.replay = view;
      this.render();
    } catch (e) {
      this.showMessage(e.message);
    }
  }

  clickCell(cell) {
    if (this.replay || this.busy || !this.live || typeof cell !== 'number') return;
    const move = this.input.click(cell);
    if (move) this.play(move);
    else this.render();
  }

  async play(move) {
    const v = this.live;
    if (!v || this.busy) return;
    const token = this.tokenOf(v.to_move);
    if (!token) return;
    this.busy = true;
    this.input.reset();
    // Show the move at once; the server's answer replaces this.
    this.pending = move;
    this.render();
    try {
      const view = await api('POST', `/api/games/${encodeURIComponent(this.id)}/moves`, { token, move: move.text });
      this.showMessage('');
      this.pending = null;
      this.accept(view);
    } catch (e) {
      this.pending = null;
      this.showMessage(`Move ${move.text} was not accepted: ${e.message}`);
    } finally {
      this.busy = false;
      this.render();
    }
    this.refresh();
  }

  async action(name) {
    const v = this.live;
    if (!v || this.busy) return;
    if (name === 'resign' && !this.resignArmed) {
      this.resignArmed = true;
      this.render();
      this.later(() => {
        this.resignArmed = false;
        this.render();
      }, 4000);
      return;
    }
    const seat = name === 'resign' ? this.tokenOf(v.to_move) ? v.to_move : this.actingSeat() : this.actingSeat();
    const token = this.tokenOf(seat);
    if (!token) return;
    this.resignArmed = false;
    this.busy = true;
    this.render();
    try {
      let view;
      if (name === 'resign') {
        view = await api('POST', `/api/games/${encodeURIComponent(this.id)}/resign`, { token });
      } else {
        view = await api('POST', `/api/games/${encodeURIComponent(this.id)}/draw`, { token, action: name });
      }
      this.showMessage(name === 'offer' && view.draw_offer === null && view.status === 'ongoing' ? 'The draw offer was declined.' : '');
      this.accept(view);
    } catch (e) {
      this.showMessage(e.message);
    } finally {
      this.busy = false;
      this.render();
    }
    this.refresh();
  }

  async copyInvite() {
    const input = document.getElementById('invite-link');
    const button = document.getElementById('copy-invite');
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select();
      try {
        document.execCommand('copy');
      } catch {
        // The link stays selected for copying by hand.
      }
    }
    button.textContent = 'Copied';
    this.later(() => {
      button.textContent = 'Copy';
    }, 1500);
  }

  flip() {
    const v = this.live;
    const both = this.mine.white && this.mine.black;
    const black = v && v.you === 'black' && !both;
    return black !== this.manualFlip;
  }

  render() {
    const v = this.live;
    if (!v || this.disposed) return;
    const shown = this.replay || v;
    const over = v.status === 'over';
    const both = Boolean(this.mine.white && this.mine.black);

    const name = v.ruleset.charAt(0).toUpperCase() + v.ruleset.slice(1);
    document.title = `${name} – Denkmeter`;
    document.getElementById('game-title').textContent = name;
    document.getElementById('game-desc').textContent = v.description || '';
    const rulesLink = document.getElementById('rules-link');
    rulesLink.href = `#/rules/${encodeURIComponent(v.ruleset)}`;

    // Board.
    let pieces = shown.pieces || [];
    let lastMove = shown.last_move;
    if (this.pending && !this.replay && this.pending.from !== null && this.pending.to !== null) {
      const mv = this.pending;
      pieces = pieces
        .filter((p) => p.cell !== mv.to && !(mv.captured || []).includes(p.cell))
        .map((p) => (p.cell === mv.from ? { ...p, cell: mv.to } : p));
      lastMove = mv;
    }
    const interactive = !this.replay && !this.busy && v.status === 'ongoing';
    renderBoard(this.svg, {
      board: v.board,
      pieces,
      absent: shown.absent,
      flip: this.flip(),
      lastMove,
      selected: interactive ? this.input.path : [],
      targets: interactive ? this.input.targets() : [],
      movable: interactive && !this.input.path.length ? this.input.startCells() : [],
    });
    this.svg.classList.toggle('interactive', interactive && (v.legal_moves || []).length > 0);

    // Buttons for moves without cells (pass) and for choices between complete moves.
    const choices = document.getElementById('choices');
    const buttons = [];
    if (interactive) {
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
    choices.innerHTML = buttons.join(' ');
    choices.hidden = !buttons.length;

    // Players.
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
      return `<li class="player ${player}${turn ? ' to-move' : ''}"><span class="swatch ${player}"></span><strong>${title(player)}</strong> <span class="muted">${esc(who)}</span>${turn ? '<span class="turn-dot" aria-label="to move"></span>' : ''}</li>`;
    };
    const order = this.flip() ? ['white', 'black'] : ['black', 'white'];
    document.getElementById('players').innerHTML = order.map(seatLabel).join('');

    // Status.
    const status = document.getElementById('status');
    let text;
    let klass = 'status';
    if (over) {
      text = 'Game over';
    } else if (v.thinking) {
      text = `${title(v.to_move)}: the computer is thinking<span class="dots"><span>.</span><span>.</span><span>.</span></span>`;
      klass += ' thinking';
    } else if (this.tokenOf(v.to_move)) {
      text = both ? `${title(v.to_move)} to move` : 'Your move';
      klass += ' your-turn';
    } else {
      text = `${title(v.to_move)} to move`;
    }
    if (!over && v.draw_offer) {
      text += ` · ${title(v.draw_offer)} offers a draw`;
    }
    status.className = klass;
    status.innerHTML = text;

    const result = document.getElementById('result');
    if (over && v.result) {
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

    // Invite link.
    const invite = document.getElementById('invite');
    if (this.mine.invite && !over) {
      const link = `${location.origin}/#/game/${encodeURIComponent(this.id)}?token=${encodeURIComponent(this.mine.invite)}`;
      const input = document.getElementById('invite-link');
      if (input.value !== link) input.value = link;
      invite.hidden = false;
    } else {
      invite.hidden = true;
    }

    // Actions.
    const actions = [];
    const acting = this.actingSeat();
    if (!over && acting) {
      const offer = v.draw_offer;
      const opponentSeat = v[other(acting)];
      if (offer && offer !== acting && this.tokenOf(other(offer))) {
        actions.push('<button type="button" class="primary" data-action="accept">Accept draw</button>');
        actions.push('<button type="button" data-action="decline">Decline draw</button>');
      } else if (!offer && opponentSeat) {
        actions.push('<button type="button" data-action="offer">Offer draw</button>');
      } else if (offer === acting) {
        actions.push('<span class="small muted">Draw offered</span>');
      }
      actions.push(
        `<button type="button" class="danger" data-action="resign">${this.resignArmed ? 'Really resign?' : 'Resign'}</button>`,
      );
    }
    const actionBox = document.getElementById('actions');
    actionBox.innerHTML = actions.join(' ');
    for (const b of actionBox.querySelectorAll('button')) b.disabled = this.busy;

    // Move list, numbered pairs.
    const list = document.getElementById('moves');
    const moves = v.moves || [];
    const shownPly = this.shownPly();
    const items = [];
    // A game started with Black to move opens with `1. ...`.
    const offset = v.first_to_move === 'black' ? 1 : 0;
    for (let i = -offset; i < moves.length; i += 2) {
      const cell = (j) => {
        if (j < 0) return '<span class="move">...</span>';
        if (j >= moves.length) return '';
        const current = j + 1 === shownPly && (this.replay || over) ? ' current' : '';
        return `<span class="move${current}" data-ply="${j + 1}">${esc(moves[j])}</span>`;
      };
      items.push(`<li><span class="num">${(i + offset) / 2 + 1}.</span>${cell(i)}${cell(i + 1)}</li>`);
    }
    list.innerHTML = items.join('') || '<li class="muted empty">No moves yet</li>';
    list.classList.toggle('clickable', over);
    if (!this.replay) list.scrollTop = list.scrollHeight;

    // Replay controls.
    const replay = document.getElementById('replay');
    replay.hidden = !over;
    if (over) {
      document.getElementById('replay-ply').textContent = `${shownPly} / ${v.ply}`;
      document.getElementById('replay-first').disabled = shownPly <= 0;
      document.getElementById('replay-prev').disabled = shownPly <= 0;
      document.getElementById('replay-next').disabled = shownPly >= v.ply;
      document.getElementById('replay-last').disabled = shownPly >= v.ply;
    }

    // Downloads.
    const token = this.mine.white || this.mine.black || null;
    const base = `/api/games/${encodeURIComponent(this.id)}`;
    const pgn = document.getElementById('download-pgn');
    pgn.href = `${base}/record.pgn${query({ token })}`;
    pgn.setAttribute('download', `denkmeter-${v.ruleset}-${this.id}.pgn`);
    const svg = document.getElementById('download-svg');
    svg.href = `${base}/diagram.svg${query({ ply: shownPly, token })}`;
    svg.setAttribute('download', `denkmeter-${v.ruleset}-${this.id}-${shownPly}.svg`);
  }
}

route();
