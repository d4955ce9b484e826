// How ratings read on the pages: `1523` or `1523?` while provisional (as lichess shows them),
// changes as `+12` or `-8`, players' names as links to their pages, and categories' titles.

import { capital, commonName, esc, rulesetName } from './text.js';

/** The path of a player's page. */
export const playerHref = (name) => `#/player/${encodeURIComponent(name)}`;

/** A player's name as a link to the player's page. */
export const playerLink = (name, klass = 'player-link') => `<a class="${klass}" href="${esc(playerHref(name))}">${esc(name)}</a>`;

/** `1523`, or `1523?` while provisional (the `?` explained on hover). */
export function ratingHtml(rating, provisional) {
  const mark = provisional ? '<abbr title="provisional: not yet established by enough games">?</abbr>' : '';
  return `<span class="rating">${esc(Math.round(Number(rating)))}${mark}</span>`;
}

/** `+12`, `-8`, or `±0`: a change rounded to whole points. */
export function changeText(delta) {
  const n = Math.round(Number(delta));
  if (n > 0) return `+${n}`;
  if (n < 0) return `-${-n}`;
  return '±0';
}

export function changeHtml(delta) {
  const n = Math.round(Number(delta));
  const klass = n > 0 ? 'up' : n < 0 ? 'down' : 'same';
  return `<span class="rating-change ${klass}">${esc(changeText(delta))}</span>`;
}

/** The name of a game family: the words its rulesets' names begin with ("Scandinavian checkers"). */
export function familyTitle(family, rulesetList) {
  const names = (rulesetList || []).filter((r) => r.family === family).map(rulesetName);
  return (names.length && commonName(names)) || capital(String(family || '').replace(/-/g, ' '));
}

/**
 * A category's title ("Chad blitz") for a key `family/class` when the server gave none (a
 * game's view names only the key).
 */
export function categoryTitle(category, rulesetList) {
  const [family, timeClass = ''] = String(category || '').split('/');
  return `${familyTitle(family, rulesetList)} ${timeClass}`.trim();
}
