// Seats held in this browser, per game: {white, black, mode, invite, inviteSeat}, where white and
// black are tokens and mode is computer | local | link | joined | challenge (a challenge accepted
// here) | session (a challenge of ours accepted: no token, the seat is played by the session).
// Kept in localStorage.

const key = (id) => `denkmeter.game.${id}`;

export const seats = {
  get(id) {
    try {
      const data = JSON.parse(localStorage.getItem(key(id)) || 'null');
      return data && typeof data === 'object' ? data : {};
    } catch {
      return {};
    }
  },
  set(id, data) {
    try {
      // When the seats were last stored, so that the newest games are listed first.
      localStorage.setItem(key(id), JSON.stringify({ ...data, at: Date.now() }));
    } catch {
      // Private mode or a full store: the game still works until the page is closed.
    }
  },
  /**
   * The games this browser holds a seat in (a token, or the session's seat), at most `limit`:
   * the analysis board names them to the server, which keeps its engine from them while they
   * are played.
   */
  heldGames(limit = 50) {
    const held = [];
    try {
      for (let i = 0; i < localStorage.length; i += 1) {
        const name = localStorage.key(i);
        if (!name || !name.startsWith('denkmeter.game.')) continue;
        const id = name.slice('denkmeter.game.'.length);
        const mine = this.get(id);
        if (id && (mine.white || mine.black || mine.mode === 'session')) held.push({ id, at: Number(mine.at) || 0 });
      }
    } catch {
      // No storage: no seats held here.
    }
    held.sort((a, b) => b.at - a.at);
    return held.slice(0, limit).map((h) => h.id);
  },
  /**
   * Forgets the invite of `mine` (this browser's seats of game `id`) once the view shows its
   * seat claimed: the link holds nothing any more. Returns the seats kept.
   */
  forgetUsedInvite(id, mine, view) {
    const seat = mine.inviteSeat;
    if (!mine.invite || !seat || !(view[seat] && view[seat].claimed)) return mine;
    const { invite, inviteSeat, ...kept } = mine;
    this.set(id, kept);
    return kept;
  },
};
