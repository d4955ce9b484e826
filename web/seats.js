// Seats held in this browser, per game: {white, black, mode, invite, inviteSeat}, where white and
// black are tokens and mode is computer | local | link | joined. Kept in localStorage.

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
};
