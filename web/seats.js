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
      localStorage.setItem(key(id), JSON.stringify(data));
    } catch {
      // Private mode or a full store: the game still works until the page is closed.
    }
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
