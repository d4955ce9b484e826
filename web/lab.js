// The lab (#/lab, #/lab/{family}, #/study/{id}): self-play studies of rulesets. A game's Lab page
// lists the studies of its rulesets and starts a small study (played by the server behind every
// game being played); a study's page shows its report and charts, following its progress until
// every game is played. Bigger studies are for `denkmeter lab` (docs/lab.md).

import { api } from './api.js';
import { familyTitle } from './ratings.js';
import { esc } from './text.js';

/** How often an unfinished study's page looks for new games, in milliseconds. */
const FOLLOW_MS = 3000;

const studyHref = (id) => `#/study/${encodeURIComponent(id)}`;
const labHref = (family) => (family ? `#/lab/${encodeURIComponent(family)}` : '#/lab');

const percent = (e) => (e ? `${(100 * e.value).toFixed(1)}%` : '–');
const interval = (e) => (e ? `${(100 * e.low).toFixed(1)}–${(100 * e.high).toFixed(1)}` : '');

function studiesHtml(studies) {
  if (!studies.length) return '<p class="muted" id="no-studies">No studies yet.</p>';
  const rows = studies.map((s) => {
    const rulesets = s.rulesets.map((r) => esc(r.display_name || r.label)).join(', ');
    const done = s.played >= s.total ? 'done' : `${esc(s.played)}/${esc(s.total)}`;
    return `<tr><td><a href="${esc(studyHref(s.id))}">${rulesets}</a></td><td>${esc(s.players.join(', '))}</td><td class="num">${esc(s.games_each)}</td><td class="num">${done}</td><td class="small muted">${esc(s.origin === 'web' ? 'browser' : 'command line')}</td></tr>`;
  });
  return `<div class="table-wrap"><table class="lab-studies"><thead><tr><th>Rulesets</th><th>Players</th><th class="num">Games each</th><th class="num">Played</th><th>Started from</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function formHtml(rulesets) {
  const boxes = rulesets
    .map(
      (r, i) => `<label class="check"><input type="checkbox" name="ruleset" value="${esc(r.name)}"${i < 2 ? ' checked' : ''}> ${esc(r.display_name)}</label>`,
    )
    .join('');
  return `<form id="new-study" class="lab-form">
    <fieldset><legend>Rulesets</legend>${boxes}</fieldset>
    <label>Players, weakest first <input name="players" value="ab:d1,ab:d2" required aria-describedby="players-help"></label>
    <p class="small muted" id="players-help">Each plays itself. random, computer:1–3, ab:d1–ab:d4 (alpha-beta to a depth), mcts:N (up to 2000 iterations) or a time of at most 0.2 s a move (ab:0.1s).</p>
    <label>Games for each ruleset and player <input name="games" type="number" min="1" max="200" value="20" required></label>
    <label>Random plies of each opening <input name="plies" type="number" min="0" max="10" value="4"></label>
    <button type="submit">Start the study</button>
    <p class="error" id="study-error" role="alert" hidden></p>
  </form>`;
}

/** A game's Lab page (`family`), or every game's (no family): its studies and a form. */
export function labPage(app, family) {
  let disposed = false;
  document.title = 'Lab – Denkmeter';
  app.innerHTML = `
    <div class="lab-page">
      <section class="card">
        <h1 id="lab-title">Lab</h1>
        <p class="small muted">What a rule does to a game, measured by self-play: each player plays itself from random openings, and the lab counts who wins, how often games are drawn, how long they last, how they end and how many moves a player has. Every figure has its 95% interval.</p>
        <nav id="lab-families" aria-label="Games"></nav>
      </section>
      <section class="card"><h2>Studies</h2><div id="studies" aria-live="polite"><p class="muted">Loading…</p></div></section>
      <section class="card"><h2>Start a small study</h2><div id="study-form"></div></section>
    </div>`;
  const fail = (box, e) => {
    box.innerHTML = `<p class="error" role="alert">${esc(e.message)}</p>`;
  };
  (async () => {
    let rulesets;
    try {
      rulesets = await api('GET', '/api/rulesets');
    } catch (e) {
      if (!disposed) fail(app.querySelector('#studies'), e);
      return;
    }
    if (disposed) return;
    const families = [...new Set(rulesets.map((r) => r.family))];
    if (family && !families.includes(family)) {
      fail(app.querySelector('#studies'), new Error(`No such game: ${family}.`));
      return;
    }
    const title = family ? `${familyTitle(family, rulesets)} lab` : 'Lab';
    app.querySelector('#lab-title').textContent = title;
    document.title = `${title} – Denkmeter`;
    app.querySelector('#lab-families').innerHTML = `<ul class="category-list"><li><a href="${labHref(null)}"${family ? '' : ' aria-current="page"'}>All games</a></li>${families
      .map((f) => `<li><a href="${esc(labHref(f))}"${f === family ? ' aria-current="page"' : ''}>${esc(familyTitle(f, rulesets))}</a></li>`)
      .join('')}</ul>`;
    const mine = family ? rulesets.filter((r) => r.family === family) : rulesets;
    app.querySelector('#study-form').innerHTML = formHtml(mine);
    const form = app.querySelector('#new-study');
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const error = form.querySelector('#study-error');
      error.hidden = true;
      const chosen = [...form.querySelectorAll('input[name=ruleset]:checked')].map((i) => i.value);
      const body = {
        rulesets: chosen,
        players: form.players.value.split(',').map((p) => p.trim()).filter(Boolean),
        games: Number(form.games.value),
        random_plies: Number(form.plies.value),
      };
      const button = form.querySelector('button');
      button.disabled = true;
      try {
        const study = await api('POST', '/api/lab/studies', body);
        location.hash = studyHref(study.id);
      } catch (e) {
        error.textContent = e.message;
        error.hidden = false;
        button.disabled = false;
      }
    });
    try {
      const data = await api('GET', `/api/lab/studies${family ? `?family=${encodeURIComponent(family)}` : ''}`);
      if (!disposed) app.querySelector('#studies').innerHTML = studiesHtml(data.studies || []);
    } catch (e) {
      if (!disposed) fail(app.querySelector('#studies'), e);
    }
  })();
  return {
    dispose() {
      disposed = true;
    },
  };
}

function reportHtml(data) {
  const { study, report } = data;
  const cells = report.cells.map((c) => {
    const length = c.length ? `${Math.round(c.length.median)} (${Math.round(c.length.lower_quartile)}–${Math.round(c.length.upper_quartile)})` : '–';
    const branching = c.branching.mean ? c.branching.mean.value.toFixed(1) : '–';
    const forced = c.branching.forced_share ? `${Math.round(100 * c.branching.forced_share.value)}%` : '–';
    return `<tr><td>${esc(c.ruleset)}</td><td>${esc(c.player)}</td><td class="num">${esc(c.games)}</td>
      <td class="num first-score">${percent(c.first_score)} <span class="small muted">${interval(c.first_score)}</span></td>
      <td class="num draw-rate">${percent(c.draw_rate)} <span class="small muted">${interval(c.draw_rate)}</span></td>
      <td class="num">${length}</td><td class="num">${branching}</td><td class="num">${forced}</td><td class="num">${esc(c.distinct_games)}</td></tr>`;
  });
  const endings = report.cells
    .map((c) => `<li><strong>${esc(c.ruleset)} ${esc(c.player)}</strong>: ${c.endings.map((e) => `${esc(e.reason)} ${esc(e.first_wins)}/${esc(e.second_wins)}/${esc(e.draws)}`).join(', ') || '–'}</li>`)
    .join('');
  const points = (e) => (e ? `${(100 * e.value).toFixed(1)} (${(100 * e.low).toFixed(1)} to ${(100 * e.high).toFixed(1)})` : '–');
  const trends = report.trends.length
    ? `<h2>From the first player listed to the last</h2><ul class="lab-trends">${report.trends
        .map((t) => `<li>${esc(t.ruleset)}, ${esc(t.from_player)} → ${esc(t.to_player)}: first-player score ${points(t.first_score_change)}, draws ${points(t.draw_rate_change)} percentage points</li>`)
        .join('')}</ul>`
    : '';
  const charts = data.charts
    .map((c) => `<figure class="lab-chart"><img src="${esc(c.href)}?played=${esc(study.played)}" alt="${esc(c.title)}" loading="lazy"><figcaption>${esc(c.title)}</figcaption></figure>`)
    .join('');
  return `<p id="study-progress">${esc(study.played)} of ${esc(study.total)} games played${study.played < study.total ? ' <span class="muted">(following: the page fills in as games end)</span>' : ''}.</p>
    <div class="table-wrap"><table class="lab-report"><caption class="small muted">95% intervals in small print</caption><thead><tr><th>Ruleset</th><th>Player</th><th class="num">Games</th><th class="num">First-player score</th><th class="num">Draws</th><th class="num">Length median (IQR)</th><th class="num">Legal moves</th><th class="num">Forced</th><th class="num">Distinct</th></tr></thead><tbody>${cells.join('')}</tbody></table></div>
    <h2>How games ended</h2><p class="small muted">Reason: first-player wins / second-player wins / draws.</p><ul class="lab-endings">${endings}</ul>
    ${trends}
    <div class="lab-charts">${charts}</div>
    <p class="small"><a href="/api/lab/studies/${esc(encodeURIComponent(study.id))}">Report as JSON</a> · <a href="/api/lab/studies/${esc(encodeURIComponent(study.id))}/table.csv">Table as CSV</a></p>`;
}

/** A study's page: its report and charts, followed until every game is played. */
export function studyPage(app, id) {
  let disposed = false;
  let timer = null;
  document.title = 'Study – Denkmeter';
  app.innerHTML = `
    <div class="lab-page">
      <section class="card">
        <p class="small"><a href="#/lab">← Lab</a></p>
        <h1 id="study-title">Study ${esc(id)}</h1>
        <p class="small muted" id="study-about"></p>
        <div id="study-report" aria-live="polite"><p class="muted">Loading…</p></div>
      </section>
    </div>`;
  const box = app.querySelector('#study-report');
  const load = async () => {
    timer = null;
    try {
      const data = await api('GET', `/api/lab/studies/${encodeURIComponent(id)}`);
      if (disposed) return;
      const s = data.study;
      const names = s.rulesets.map((r) => r.display_name || r.label).join(', ');
      app.querySelector('#study-title').textContent = names;
      document.title = `${names} study – Denkmeter`;
      app.querySelector('#study-about').textContent = `Players ${s.players.join(', ')}, each against itself; ${s.games_each} games each from ${s.openings}; seed ${s.seed}. Study ${s.id}.`;
      box.innerHTML = reportHtml(data);
      if (s.played < s.total) timer = setTimeout(load, FOLLOW_MS);
    } catch (e) {
      if (disposed) return;
      box.innerHTML = `<p class="error" role="alert">${esc(e.status === 404 ? `No such study: ${id}.` : e.message)}</p>`;
    }
  };
  load();
  return {
    dispose() {
      disposed = true;
      if (timer) clearTimeout(timer);
    },
  };
}
