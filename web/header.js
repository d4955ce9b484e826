// The header's account links on every page: "Sign in" and "Sign up", or the signed-in player's
// name (to the player's page) and "Sign out". Redrawn whenever who is signed in changes.

import { playerHref } from './ratings.js';
import { onSession, session, signOut, signedInName } from './session.js';
import { esc } from './text.js';

/** Fills the header's account links in `box` and keeps them current. */
export function startHeader(box) {
  const draw = (name) => {
    box.innerHTML = name
      ? `<a class="account-name" id="account-name" href="${esc(playerHref(name))}" title="${esc(name)}: your page">${esc(name)}</a>` +
        '<button type="button" class="link-button" id="sign-out">Sign out</button>'
      : '<a href="#/account?form=signin" id="sign-in-link">Sign in</a>' +
        '<a href="#/account?form=signup" id="sign-up-link">Sign up</a>';
    box.dataset.state = name ? 'in' : 'out';
  };
  box.addEventListener('click', async (e) => {
    const button = e.target.closest('#sign-out');
    if (!button || button.disabled) return;
    button.disabled = true;
    try {
      await signOut();
      // The button is gone: the keyboard goes on from the link that takes its place.
      const link = document.getElementById('sign-in-link');
      if (link) link.focus();
    } catch (error) {
      button.disabled = false;
      button.title = `Not signed out: ${error.message}`;
    }
  });
  onSession(draw);
  // Nothing drawn until the server has said: no "Sign in" flashes before a name.
  session().then(() => draw(signedInName()));
}
