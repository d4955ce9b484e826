// Who is signed in (docs/api.md, "Players and ratings"), and the account's requests. The
// session is an HttpOnly cookie the page never sees: it only asks the server who it is
// (`GET /api/account`) and tells the pages that listen when that changes (a sign-in or -out
// here, or in another tab, noticed when this one is looked at again).

import { api } from './api.js';

let name; // the signed-in player's name, null when nobody is, undefined until the server said
let asking = null; // the request for it under way
const listeners = new Set();

function set(now) {
  if (now === name) return;
  name = now;
  for (const listener of [...listeners]) listener(name);
}

/** The signed-in name as last heard (null: nobody, or not known yet). */
export function signedInName() {
  return name ?? null;
}

/** Asks the server who is signed in; resolves to the name or null (a failure keeps what was known). */
export function refreshSession() {
  if (!asking) {
    asking = api('GET', '/api/account')
      .then((data) => set((data && data.name) || null))
      .catch(() => {})
      .then(() => {
        asking = null;
        return signedInName();
      });
  }
  return asking;
}

/** The signed-in name: asked for once, then as known. */
export function session() {
  return name === undefined ? refreshSession() : Promise.resolve(name);
}

/** Calls `listener(name)` on every change of who is signed in; returns the function that stops it. */
export function onSession(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A refusal because the session is gone (expired, or ended elsewhere): asks again who is in. */
export function noticeRefusal(error) {
  if (error && error.status === 401) refreshSession();
}

export async function signUp(newName, password) {
  const data = await api('POST', '/api/account/signup', { name: newName, password });
  set(data.name);
  return data.name;
}

/** Signs in; the name comes back as it was written at sign-up. */
export async function signIn(typed, password) {
  const data = await api('POST', '/api/account/signin', { name: typed, password });
  set(data.name);
  return data.name;
}

export async function signOut() {
  await api('POST', '/api/account/signout');
  set(null);
}

/** Ends every other session of the player too. */
export async function changePassword(password, newPassword) {
  try {
    await api('POST', '/api/account/password', { password, new_password: newPassword });
  } catch (e) {
    // 401 is also a wrong current password: only a lost session changes who is in.
    noticeRefusal(e);
    throw e;
  }
}

export async function deleteAccount(password) {
  try {
    await api('DELETE', '/api/account', { password });
  } catch (e) {
    noticeRefusal(e);
    throw e;
  }
  set(null);
}

// Another tab may have signed in or out meanwhile.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && name !== undefined) refreshSession();
});
