// The HTTP API client (docs/api.md): one fetch wrapper whose errors carry the server's message
// and status, and the few requests the pages make.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/**
 * One request to the API; rejects with an ApiError holding the server's `error` message. The
 * session cookie (HttpOnly: the page never sees it) goes with every request to this server.
 */
export async function api(method, path, body) {
  const init = { method, headers: {}, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError('The server cannot be reached. Check the connection and try again.', 0);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = (data && data.error) || `${response.status} ${response.statusText}`.trim();
    throw new ApiError(message, response.status);
  }
  return data;
}

/** `?a=1&b=2` from the parameters that have a value, or nothing. */
export function query(params) {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** The path of a game, or of one of its sub-resources (`moves`, `record.pgn`, ...). */
export function gamePath(id, rest = '') {
  return `/api/games/${encodeURIComponent(id)}${rest ? `/${rest}` : ''}`;
}

/** A game as `token` (and at `ply`, if given) sees it. */
export function getGame(id, { token = null, ply = null } = {}) {
  return api('GET', `${gamePath(id)}${query({ token, ply })}`);
}

let serverCache = null;
/**
 * What the pages need to know of the server ({public_url}), asked for once per page load; a
 * failure reads as no public address.
 */
export function serverInfo() {
  if (!serverCache) {
    serverCache = api('GET', '/api/server').catch(() => {
      serverCache = null;
      return { public_url: null };
    });
  }
  return serverCache;
}

let rulesetCache = null;
/** The list of rulesets, asked for once per page load (again after a failure). */
export function rulesets() {
  if (!rulesetCache) {
    rulesetCache = api('GET', '/api/rulesets').catch((e) => {
      rulesetCache = null;
      throw e;
    });
  }
  return rulesetCache;
}
