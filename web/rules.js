// A ruleset's rules page: the HTML the server rendered from the page's Markdown (`rules_html`).

import { api } from './api.js';
import { esc, rulesetName } from './text.js';

const crumbs = '<p class="crumbs"><a href="#/">← Lobby</a></p>';

/** Shows the rules of `name` in `app`; returns the page ({dispose}). */
export function rulesPage(app, name) {
  let disposed = false;
  document.title = `${name} rules – Denkmeter`;
  app.innerHTML = `<article class="card rules"><p class="muted">Loading…</p></article>`;
  const box = app.querySelector('.rules');
  api('GET', `/api/rulesets/${encodeURIComponent(name)}`)
    .then((r) => {
      if (disposed) return;
      document.title = `${rulesetName(r)} rules – Denkmeter`;
      // The server renders the Markdown and shows any raw HTML in it as text.
      box.innerHTML = `${crumbs}${r.rules_html}`;
    })
    .catch((e) => {
      if (disposed) return;
      box.innerHTML = `${crumbs}<p class="error" role="alert">${esc(e.message)}</p>`;
    });
  return {
    dispose() {
      disposed = true;
    },
  };
}
