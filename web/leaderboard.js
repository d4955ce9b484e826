// The leaderboard (#/leaderboard[?category=chad/blitz]): the categories that have established
// ratings, and the best players of the one chosen (the first, unless the address names one).
// Provisional ratings are not listed (the server leaves them out).

import { api, query } from './api.js';
import { playerLink } from './ratings.js';
import { esc } from './text.js';

const href = (category) => `#/leaderboard?category=${encodeURIComponent(category)}`;

function tableHtml(board) {
  if (!board.players || !board.players.length) return '<p class="muted">Nobody is listed in this category yet.</p>';
  const rows = board.players.map(
    (p) => `<tr><td class="num rank">${esc(p.rank)}</td><td>${playerLink(p.name)}</td><td class="num">${esc(Math.round(p.rating))}</td><td class="num">${esc(p.games)}</td></tr>`,
  );
  return `<div class="table-wrap"><table class="leaderboard" aria-labelledby="board-title">
    <thead><tr><th class="num">Rank</th><th>Player</th><th class="num">Rating</th><th class="num">Games</th></tr></thead>
    <tbody>${rows.join('')}</tbody></table></div>`;
}

/** Shows the leaderboard in `app` (`params`: the route's query); returns the page ({dispose}). */
export function leaderboardPage(app, params) {
  let disposed = false;
  document.title = 'Leaderboard – Denkmeter';
  app.innerHTML = `
    <div class="leaderboard-page">
      <section class="card">
        <h1>Leaderboard</h1>
        <p class="small muted">Ratings from rated games (Glicko-2), per game and time class. A rating is listed once it is established: a new player's is provisional (shown with a ?) for the first games.</p>
        <nav id="categories" aria-label="Categories"><p class="muted">Loading…</p></nav>
      </section>
      <section class="card" id="board" aria-live="polite" hidden></section>
    </div>`;
  const nav = app.querySelector('#categories');
  const boardBox = app.querySelector('#board');
  const fail = (box, e) => {
    box.innerHTML = `<p class="error" role="alert">${esc(e.message)}</p>`;
  };

  api('GET', '/api/leaderboard')
    .then(async (data) => {
      if (disposed) return;
      const categories = (data && data.categories) || [];
      const chosen = params.get('category') || (categories[0] && categories[0].category) || null;
      nav.innerHTML = categories.length
        ? `<ul class="category-list">${categories
            .map((c) => `<li><a href="${esc(href(c.category))}"${c.category === chosen ? ' aria-current="page"' : ''}>${esc(c.title || c.category)}</a> <span class="small muted">${esc(c.players)} player${c.players === 1 ? '' : 's'}</span></li>`)
            .join('')}</ul>`
        : '<p class="muted" id="no-categories">Nobody has an established rating yet: play rated games against the computer (sign in, choose a clock and tick Rated in the lobby).</p>';
      if (!chosen) return;
      boardBox.hidden = false;
      boardBox.innerHTML = '<p class="muted">Loading…</p>';
      try {
        const board = await api('GET', `/api/leaderboard${query({ category: chosen })}`);
        if (disposed) return;
        document.title = `${board.title || board.category} leaderboard – Denkmeter`;
        boardBox.innerHTML = `<h2 id="board-title">${esc(board.title || board.category)}</h2>${tableHtml(board)}`;
      } catch (e) {
        if (disposed) return;
        if (e.status === 404) boardBox.innerHTML = `<p class="error" role="alert">No such category: ${esc(chosen)}.</p>`;
        else fail(boardBox, e);
      }
    })
    .catch((e) => {
      if (!disposed) fail(nav, e);
    });
  return {
    dispose() {
      disposed = true;
    },
  };
}
