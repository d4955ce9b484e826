// A player's page (#/player/{name}): per category the rating (`1523?` while provisional) and its
// history as a chart, the wins, draws and losses per game family, and the recent games.

import { api, rulesets } from './api.js';
import { dateText, ratingChart } from './chart.js';
import { changeHtml, playerLink, ratingHtml } from './ratings.js';
import { session } from './session.js';
import { esc, relativeTime, rulesetName, title } from './text.js';

/** What `opponent` says: a player's name (a link), the computer, or a seat without an account. */
function opponentHtml(opponent) {
  if (opponent === null || opponent === undefined) return '<span class="muted">Anonymous</span>';
  // A name has no spaces: "Computer, level 3" is never one.
  return /^[A-Za-z][A-Za-z0-9_-]*$/.test(opponent) ? playerLink(opponent) : esc(opponent);
}

const RESULTS = { win: 'Won', draw: 'Drawn', loss: 'Lost', ongoing: 'Playing' };

function ratingsHtml(p) {
  if (!p.ratings || !p.ratings.length) return '<p class="muted">No rated games yet.</p>';
  return `<div class="ratings">${p.ratings
    .map((r, i) => {
      const games = `${r.games} rated game${r.games === 1 ? '' : 's'}`;
      return `<section class="rating-card" data-category="${esc(r.category)}" aria-labelledby="cat-${i}">
        <h3 id="cat-${i}">${esc(r.title || r.category)}</h3>
        <p class="rating-line">${ratingHtml(r.rating, r.provisional)} <span class="small muted">${esc(games)} · deviation ${esc(Math.round(r.deviation))}${r.provisional ? ' · provisional' : ''}</span></p>
        ${ratingChart(r.history, { title: `${r.title || r.category} rating of ${p.name}`, id: `chart-${i}` })}
      </section>`;
    })
    .join('')}</div>`;
}

function recordsHtml(p) {
  if (!p.records || !p.records.length) return '<p class="muted">No finished games yet.</p>';
  const rows = p.records.map(
    (r) => `<tr data-family="${esc(r.family)}"><td>${esc(r.title || r.family)}</td><td class="num wins">${esc(r.wins)}</td><td class="num draws">${esc(r.draws)}</td><td class="num losses">${esc(r.losses)}</td></tr>`,
  );
  return `<div class="table-wrap"><table class="records">
    <thead><tr><th>Game</th><th class="num">Won</th><th class="num">Drawn</th><th class="num">Lost</th></tr></thead>
    <tbody>${rows.join('')}</tbody></table></div>`;
}

function recentHtml(p, list) {
  if (!p.recent || !p.recent.length) return '<p class="muted">No games yet.</p>';
  const rows = p.recent.map((g) => {
    const ruleset = list.find((r) => r.name === g.ruleset);
    const change = g.rated && g.rating_change !== null && g.rating_change !== undefined ? changeHtml(g.rating_change) : '';
    return `<tr data-game="${esc(g.id)}">
      <td><a href="#/game/${encodeURIComponent(g.id)}">${esc(rulesetName(g))}</a>${g.rated ? ' <span class="tag">rated</span>' : ''}</td>
      <td class="colour">${esc(title(g.colour, ruleset && ruleset.side_names))}</td>
      <td>${opponentHtml(g.opponent)}</td>
      <td class="result-${esc(g.result)}">${esc(RESULTS[g.result] || g.result)}</td>
      <td class="num change">${change}</td>
      <td class="when">${esc(relativeTime(g.updated_at))}</td>
    </tr>`;
  });
  return `<div class="table-wrap"><table class="recent-games">
    <thead><tr><th>Game</th><th class="colour">Played</th><th>Opponent</th><th>Result</th><th class="num">Rating</th><th class="when">When</th></tr></thead>
    <tbody>${rows.join('')}</tbody></table></div>`;
}

/** Shows the page of the player `name` in `app`; returns the page ({dispose}). */
export function playerPage(app, name) {
  let disposed = false;
  document.title = `${name} – Denkmeter`;
  app.innerHTML = '<div class="player-page" id="player-page"><section class="card"><p class="muted">Loading…</p></section></div>';
  const root = app.querySelector('#player-page');
  const path = `/api/players/${encodeURIComponent(name)}`;
  Promise.all([api('GET', path), rulesets().catch(() => []), session()])
    .then(([p, list, me]) => {
      if (disposed) return;
      document.title = `${p.name} – Denkmeter`;
      const since = p.created_at ? `Playing here since ${dateText(p.created_at)}.` : '';
      const own = me === p.name ? ' <a href="#/account">Your account</a>' : '';
      root.innerHTML = `
        <section class="card">
          <h1 id="player-name">${esc(p.name)}</h1>
          <p class="small muted">${esc(since)}${own}</p>
        </section>
        <section class="card" aria-labelledby="ratings-title">
          <h2 id="ratings-title">Ratings</h2>
          ${ratingsHtml(p)}
        </section>
        <section class="card" aria-labelledby="records-title">
          <h2 id="records-title">Results</h2>
          ${recordsHtml(p)}
        </section>
        <section class="card" aria-labelledby="recent-title">
          <h2 id="recent-title">Recent games</h2>
          ${recentHtml(p, Array.isArray(list) ? list : [])}
        </section>`;
    })
    .catch((e) => {
      if (disposed) return;
      root.innerHTML =
        e.status === 404
          ? `<section class="card"><h1>No such player</h1><p>Nobody here is called ${esc(name)}: the name may be misspelt, or the account deleted.</p><p><a href="#/leaderboard">Leaderboard</a> · <a href="#/">Lobby</a></p></section>`
          : `<section class="card"><h1>${esc(name)}</h1><p class="error" role="alert">${esc(e.message)}</p></section>`;
    });
  return {
    dispose() {
      disposed = true;
    },
  };
}
