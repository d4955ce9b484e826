// A rating history as a small inline SVG chart: the ratings over time as a line of points, the
// lowest and highest rating written on the left, the first and last dates beneath. It is an
// image with a title and a description in words; each point says its rating and date on hover.

import { esc } from './text.js';

const W = 360;
const H = 150;
const LEFT = 44; // room for the ratings
const RIGHT = 12;
const TOP = 12;
const BOTTOM = 30; // room for the dates
/** The least span of ratings drawn, so that a flat history is not stretched to the full height. */
const MIN_SPAN = 40;

/** A day as `28 Nov 2026` (in the browser's language). */
export const dateText = (ms) => new Date(ms).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
const date = dateText;
const r1 = (n) => Math.round(n * 10) / 10;

/**
 * The chart of `history` ([{at, rating, game}], any order) as SVG markup; `title` names it
 * ("Chad blitz rating"), `id` makes its title's and description's ids unique on the page.
 */
export function ratingChart(history, { title, id }) {
  const points = [...(history || [])].filter((p) => Number.isFinite(Number(p.rating)) && Number.isFinite(Number(p.at))).sort((a, b) => a.at - b.at);
  const ratings = points.map((p) => Math.round(Number(p.rating)));
  const low = Math.min(...ratings);
  const high = Math.max(...ratings);
  let [from, to] = [low, high];
  if (to - from < MIN_SPAN) {
    const middle = (from + to) / 2;
    [from, to] = [middle - MIN_SPAN / 2, middle + MIN_SPAN / 2];
  }
  const first = points.length ? points[0].at : 0;
  const last = points.length ? points[points.length - 1].at : 0;
  const plotW = W - LEFT - RIGHT;
  const plotH = H - TOP - BOTTOM;
  const x = (at) => r1(last === first ? LEFT + plotW / 2 : LEFT + ((at - first) / (last - first)) * plotW);
  const y = (rating) => r1(TOP + plotH - ((rating - from) / (to - from)) * plotH);

  const words = !points.length
    ? 'No rated games yet.'
    : points.length === 1
      ? `1 rated game, on ${date(first)}: rating ${ratings[0]}.`
      : `${points.length} rated games from ${date(first)} to ${date(last)}: lowest ${low}, highest ${high}, now ${ratings[ratings.length - 1]}.`;
  const parts = [];
  // The axes, and a line across at the lowest and highest rating, each written on the left.
  parts.push(`<line class="axis" x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${TOP + plotH}"/>`);
  parts.push(`<line class="axis" x1="${LEFT}" y1="${TOP + plotH}" x2="${W - RIGHT}" y2="${TOP + plotH}"/>`);
  for (const value of points.length ? [...new Set([low, high])] : []) {
    parts.push(`<line class="grid" x1="${LEFT}" y1="${y(value)}" x2="${W - RIGHT}" y2="${y(value)}"/>`);
    parts.push(`<text class="y-label" x="${LEFT - 6}" y="${y(value)}">${esc(value)}</text>`);
  }
  if (points.length) {
    const dates = last === first || date(first) === date(last)
      ? [`<text class="x-label" x="${r1(LEFT + plotW / 2)}" y="${H - 8}" text-anchor="middle">${esc(date(first))}</text>`]
      : [
          `<text class="x-label" x="${LEFT}" y="${H - 8}" text-anchor="start">${esc(date(first))}</text>`,
          `<text class="x-label" x="${W - RIGHT}" y="${H - 8}" text-anchor="end">${esc(date(last))}</text>`,
        ];
    parts.push(...dates);
  }
  if (points.length > 1) {
    parts.push(`<polyline class="line" points="${points.map((p, i) => `${x(p.at)},${y(ratings[i])}`).join(' ')}"/>`);
  }
  points.forEach((p, i) => {
    parts.push(`<circle class="point" cx="${x(p.at)}" cy="${y(ratings[i])}" r="3"><title>${esc(`${ratings[i]} on ${date(p.at)}`)}</title></circle>`);
  });
  return `<svg class="rating-chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${esc(id)}-title ${esc(id)}-desc">
    <title id="${esc(id)}-title">${esc(title)}</title>
    <desc id="${esc(id)}-desc">${esc(words)}</desc>
    ${parts.join('\n    ')}
  </svg>`;
}
