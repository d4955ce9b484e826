// The account page (#/account): sign-in and sign-up forms; once signed in, the password changed
// and the account deleted (after a confirm step). `?form=signin|signup` puts that form first and
// its first field in focus (the header's links). Every refusal shows the server's own words.

import { playerHref } from './ratings.js';
import { changePassword, deleteAccount, onSession, session, signIn, signOut, signUp } from './session.js';
import { esc } from './text.js';

function signedOutHtml(first) {
  const signin = `
    <section class="card signin-card" aria-labelledby="signin-title">
      <h2 id="signin-title">Sign in</h2>
      <form id="signin-form" class="account-form">
        <label class="field"><span>Name</span>
          <input id="signin-name" name="username" type="text" autocomplete="username" autocapitalize="off" spellcheck="false" maxlength="80" required></label>
        <label class="field"><span>Password</span>
          <input id="signin-password" name="password" type="password" autocomplete="current-password" maxlength="128" required></label>
        <p class="error" id="signin-error" role="alert" hidden></p>
        <button type="submit" class="primary">Sign in</button>
      </form>
    </section>`;
  const signup = `
    <section class="card signup-card" aria-labelledby="signup-title">
      <h2 id="signup-title">Sign up</h2>
      <p class="small muted">Playing needs no account. With one, your name shows in the games you play, your games against the computer on a clock can be rated, and your page lists your ratings and results.</p>
      <form id="signup-form" class="account-form">
        <label class="field"><span>Name</span>
          <input id="signup-name" name="username" type="text" autocomplete="username" autocapitalize="off" spellcheck="false" maxlength="20" aria-describedby="signup-name-help" required></label>
        <p class="hint small" id="signup-name-help">3 to 20 letters, digits, - or _, starting with a letter.</p>
        <label class="field"><span>Password</span>
          <input id="signup-password" name="new-password" type="password" autocomplete="new-password" maxlength="128" aria-describedby="signup-password-help" required></label>
        <p class="hint small" id="signup-password-help">8 to 128 characters, not a common password and not containing your name.</p>
        <p class="error" id="signup-error" role="alert" hidden></p>
        <button type="submit" class="primary">Sign up</button>
      </form>
    </section>`;
  return `
    <h1 id="account-title" tabindex="-1">Sign in or sign up</h1>
    <p class="notice" id="account-notice" role="status" hidden></p>
    <div class="account-grid">${first === 'signup' ? signup + signin : signin + signup}</div>`;
}

function signedInHtml(name) {
  return `
    <h1 id="account-title" tabindex="-1">Your account</h1>
    <p class="notice" id="account-notice" role="status" hidden></p>
    <div class="account-grid">
      <section class="card" aria-labelledby="account-who">
        <h2 id="account-who">Signed in as ${esc(name)}</h2>
        <p><a href="${esc(playerHref(name))}" id="account-player">Your page</a>: your ratings, results and recent games.</p>
        <p><a href="#/">Play a game</a> · <a href="#/leaderboard">Leaderboard</a></p>
        <button type="button" id="account-sign-out">Sign out</button>
      </section>
      <section class="card" aria-labelledby="password-title">
        <h2 id="password-title">Change the password</h2>
        <form id="password-form" class="account-form">
          <input type="text" name="username" autocomplete="username" value="${esc(name)}" readonly hidden>
          <label class="field"><span>Current password</span>
            <input id="password-current" name="password" type="password" autocomplete="current-password" maxlength="128" required></label>
          <label class="field"><span>New password</span>
            <input id="password-new" name="new-password" type="password" autocomplete="new-password" maxlength="128" aria-describedby="password-new-help" required></label>
          <p class="hint small" id="password-new-help">8 to 128 characters. Your other sessions (other browsers) are signed out.</p>
          <p class="error" id="password-error" role="alert" hidden></p>
          <p class="notice" id="password-done" role="status" hidden></p>
          <button type="submit" class="primary">Change the password</button>
        </form>
      </section>
      <section class="card" aria-labelledby="delete-title">
        <h2 id="delete-title">Delete the account</h2>
        <p class="small">Your name, password, sessions and ratings are deleted, and the name is free for anyone to take. Your games stay, without your name.</p>
        <form id="delete-form" class="account-form">
          <input type="text" name="username" autocomplete="username" value="${esc(name)}" readonly hidden>
          <label class="field"><span>Password</span>
            <input id="delete-password" name="password" type="password" autocomplete="current-password" maxlength="128" required></label>
          <p class="error" id="delete-error" role="alert" hidden></p>
          <div class="confirm" id="delete-confirm" role="group" aria-labelledby="delete-question" hidden>
            <p id="delete-question"><strong>Delete ${esc(name)} for good?</strong> This cannot be undone.</p>
            <button type="button" class="danger" id="delete-yes">Yes, delete ${esc(name)}</button>
            <button type="button" id="delete-no">No, keep it</button>
          </div>
          <button type="submit" class="danger" id="delete-start">Delete the account…</button>
        </form>
      </section>
    </div>`;
}

/** Shows the account page in `app` (`params`: the route's query); returns the page ({dispose}). */
export function accountPage(app, params) {
  let disposed = false;
  let shownAs; // the name the page is drawn for (null: signed out)
  let notice = null; // what just happened (from the name now signed in), said once at the top of the next drawing
  let focusFirst = params.get('form'); // the form the header's link asked for, focused once
  document.title = 'Account – Denkmeter';
  app.innerHTML = '<div class="account" id="account"><p class="muted">Loading…</p></div>';
  const root = app.querySelector('#account');
  const $ = (id) => document.getElementById(id);

  /**
   * Runs `request`, which changes who is signed in: the page is drawn again (by the change's
   * notice) with the words `words(name)` at its top.
   */
  const expecting = async (words, request) => {
    notice = words;
    try {
      await request();
    } catch (e) {
      notice = null;
      throw e;
    }
  };

  const showError = (id, message) => {
    const box = $(id);
    box.textContent = message;
    box.hidden = !message;
  };

  /** Runs `action` for `form` with its button disabled; a refusal is shown in `errorId`. */
  const submitting = async (form, errorId, action) => {
    const button = form.querySelector('button[type=submit]');
    if (button.disabled) return;
    showError(errorId, '');
    button.disabled = true;
    try {
      await action();
    } catch (e) {
      if (!disposed) showError(errorId, e.message);
    } finally {
      button.disabled = false;
    }
  };

  const wireSignedOut = () => {
    const signinForm = $('signin-form');
    signinForm.addEventListener('submit', (event) => {
      event.preventDefault();
      submitting(signinForm, 'signin-error', async () => {
        await expecting((name) => `Signed in as ${name}.`, () => signIn($('signin-name').value.trim(), $('signin-password').value));
      });
    });
    const signupForm = $('signup-form');
    signupForm.addEventListener('submit', (event) => {
      event.preventDefault();
      submitting(signupForm, 'signup-error', async () => {
        await expecting((name) => `Welcome, ${name}: your account is made and you are signed in.`, () => signUp($('signup-name').value.trim(), $('signup-password').value));
      });
    });
  };

  const wireSignedIn = (name) => {
    $('account-sign-out').addEventListener('click', async (event) => {
      const button = event.currentTarget;
      button.disabled = true;
      try {
        await expecting(() => 'Signed out.', signOut);
      } catch (e) {
        button.disabled = false;
        showMessage(`Not signed out: ${e.message}`);
      }
    });
    const passwordForm = $('password-form');
    passwordForm.addEventListener('submit', (event) => {
      event.preventDefault();
      $('password-done').hidden = true;
      submitting(passwordForm, 'password-error', async () => {
        await changePassword($('password-current').value, $('password-new').value);
        passwordForm.reset();
        $('password-done').textContent = 'The password is changed; your other sessions are signed out.';
        $('password-done').hidden = false;
      });
    });
    // Deleting takes two steps: the password, then a confirmation on the page.
    const deleteForm = $('delete-form');
    const confirmBox = $('delete-confirm');
    const asking = (ask) => {
      confirmBox.hidden = !ask;
      $('delete-start').hidden = ask;
    };
    deleteForm.addEventListener('submit', (event) => {
      event.preventDefault();
      showError('delete-error', '');
      asking(true);
      $('delete-yes').focus();
    });
    $('delete-no').addEventListener('click', () => {
      asking(false);
      $('delete-password').focus();
    });
    confirmBox.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') $('delete-no').click();
    });
    $('delete-yes').addEventListener('click', async () => {
      const yes = $('delete-yes');
      if (yes.disabled) return;
      yes.disabled = true;
      try {
        await expecting(() => `The account ${name} is deleted.`, () => deleteAccount($('delete-password').value));
      } catch (e) {
        if (disposed) return;
        yes.disabled = false;
        asking(false);
        showError('delete-error', e.message);
        $('delete-password').focus();
      }
    });
  };

  const showMessage = (message) => {
    const box = $('account-notice');
    if (!box) return;
    box.textContent = message;
    box.hidden = !message;
  };

  function draw(name) {
    if (disposed || name === shownAs) return;
    shownAs = name;
    root.innerHTML = name ? signedInHtml(name) : signedOutHtml(focusFirst);
    if (name) wireSignedIn(name);
    else wireSignedOut();
    const said = notice ? notice(name) : '';
    notice = null;
    showMessage(said);
    if (said) $('account-title').focus();
    // The header's "Sign in" or "Sign up" link: straight into that form.
    if (!name && (focusFirst === 'signin' || focusFirst === 'signup')) $(`${focusFirst}-name`).focus();
    focusFirst = null;
  }

  const stop = onSession((name) => draw(name));
  session().then((name) => draw(name));

  return {
    dispose() {
      disposed = true;
      stop();
    },
  };
}
