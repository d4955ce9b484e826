// Small text helpers shared by the pages.

/** Text made safe for HTML, attribute values included. */
export function esc(text) {
  return String(text ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export const other = (player) => (player === 'white' ? 'black' : 'white');
/** A seat's name as the game's tradition says it (`names`: a view's or ruleset's `side_names`). */
export const title = (player, names = null) => (names && names[player]) || (player === 'black' ? 'Black' : 'White');
export const capital = (text) => String(text).charAt(0).toUpperCase() + String(text).slice(1);

/** A ruleset's name for people (`display_name` of a ruleset, view or listed game), else its key. */
export const rulesetName = (item) => (item && (item.display_name || item.ruleset || item.name)) || '';

/**
 * The number a move list writes before move `ply` (the first is 1) of a game whose first move
 * was `firstToMove`'s: `9.` for White's move, `9...` for Black's.
 */
export function moveNumber(ply, firstToMove = 'white') {
  const i = ply - 1 + (firstToMove === 'black' ? 1 : 0);
  return `${Math.floor(i / 2) + 1}${i % 2 ? '...' : '.'}`;
}

/**
 * The name of a game whose rulesets are `names` (their display names): the words they all begin
 * with ("Fort Chitral" for "Fort Chitral" and "Fort Chitral, orthogonal captures").
 */
export function commonName(names) {
  // Words compared without the punctuation that follows them ("Chitral," and "Chitral").
  const words = names.map((n) => String(n).split(' ').map((w) => w.replace(/[,:;]$/, '')));
  const common = [];
  for (let i = 0; words.every((w) => i < w.length && w[i] === words[0][i]); i += 1) common.push(words[0][i]);
  return common.join(' ');
}

/** `just now`, `5 min ago`, `3 h ago`, or the date. */
export function relativeTime(ms) {
  const seconds = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return new Date(ms).toLocaleDateString();
}

/**
 * Copies the text of `input` to the clipboard (or leaves it selected for copying by hand where
 * the clipboard is refused), and says "Copied" on `button` for a moment. `later(fn, ms)` runs
 * `fn` after `ms` unless the page has gone.
 */
export async function copyFromInput(input, button, later) {
  button.dataset.label ||= button.textContent;
  const label = button.dataset.label;
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    try {
      document.execCommand('copy');
    } catch {
      // The text stays selected for copying by hand.
    }
  }
  button.textContent = 'Copied';
  later(() => {
    button.textContent = label;
  }, 1500);
}
