#!/usr/bin/env node
// Browser tests of the Denkmeter web interface.
//
//   node run.mjs PATH_TO_DENKMETER_BINARY [--web DIR] [--only n,o] [--update-screenshot]
//                [--update-straat-screenshot]
//
// Starts `denkmeter serve` on a free loopback port with a fresh SQLite database in a temporary
// folder, drives Debian's chromium (/usr/bin/chromium, never a downloaded browser) through the
// interface, and stops the server at the end, on failure too. Prints one line per check and a
// closing "N passed, N failed"; exits non-zero when anything failed.
//
// --update-screenshot writes the screenshot of test d to docs/images/screenshot.png (the README's
// picture); otherwise it goes to a temporary file.
// --update-straat-screenshot writes a finished Straat game with its streets, front and back, to
// docs/straat-end.png (test o).
// --update-start-screenshots writes each family's start position to docs/images/start-NAME.png
// (the README's games table; test z).
// --only n,o runs only the checks of those letters (while working on them).
// --database URL serves from that database (an empty PostgreSQL one) instead of a new SQLite file.
// --web DIR serves the interface's files from DIR (normally ../../web) instead of the copies
// built into the binary, for working on the interface without rebuilding the server.
// CHROMIUM=/path overrides the browser.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';


const here = path.dirname(fileURLToPath(import.meta.url));
const README_SCREENSHOT = path.resolve(here, '../../docs/images/screenshot.png');
// With --update-straat-screenshot, test o draws a finished Straat game, front and back.
const STRAAT_SCREENSHOT = path.resolve(here, '../../docs/straat-end.png');
let straatScreenshot = false;
// With --update-start-screenshots, test z keeps each family's start position under docs/images.
const IMAGES = path.resolve(here, '../../docs/images');
let startScreenshots = false;
let SCREENSHOT = path.join(os.tmpdir(), `denkmeter-screenshot-${process.pid}.png`);
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// Checks F and G take about 25 s, H to K about 30 s, N about 13 s, P to U (accounts and
// ratings) about 20 s and V to Y (challenges) about 15 s, L (a whole game analysed) about 20 s,
// M (the analysis board) about 20 s and O (a puzzle of every game solved) about 20 s of it.
const TOTAL_LIMIT_MS = 430_000;
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// ---------------------------------------------------------------------------------------------
// Arguments

const argv = process.argv.slice(2);
let binary = null;
let webDir = null;
let only = null; // the letters of the checks to run (--only n,o), or all
let databaseUrl = null; // --database URL: the server's database instead of a new SQLite file
for (let i = 0; i < argv.length; i += 1) {
  if (argv[i] === '--web') webDir = path.resolve(argv[(i += 1)] || '');
  else if (argv[i] === '--update-screenshot') SCREENSHOT = README_SCREENSHOT;
  else if (argv[i] === '--update-straat-screenshot') straatScreenshot = true;
  else if (argv[i] === '--update-start-screenshots') startScreenshots = true;
  else if (argv[i] === '--only') only = (argv[(i += 1)] || '').split(',').filter(Boolean);
  else if (argv[i] === '--database') databaseUrl = argv[(i += 1)] || '';
  else if (!binary) binary = path.resolve(argv[i]);
  else usage(`unexpected argument ${argv[i]}`);
}
function usage(message) {
  console.error(`error: ${message}\nusage: node run.mjs PATH_TO_DENKMETER_BINARY [--web DIR] [--update-screenshot] [--update-straat-screenshot] [--only n,o] [--database URL]`);
  process.exit(2);
}
if (!binary) usage('the path to the denkmeter binary is missing');
if (!existsSync(binary)) usage(`no denkmeter binary at ${binary} (build it with cargo build --release)`);
if (!existsSync(CHROMIUM)) {
  usage(`no chromium at ${CHROMIUM}: install Debian's with apt-get install -y chromium`);
}
if (webDir && !existsSync(path.join(webDir, 'index.html'))) usage(`no index.html in ${webDir}`);
let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch {
  usage(`playwright-core is not installed: run npm ci in ${here}`);
}

// ---------------------------------------------------------------------------------------------
// The server

let server = null;
let serverLog = [];
let tmp = null;
let browser = null;
let base = null;

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts the server, with `extra` arguments to `serve`; again on the same port and database
 * when `port` is given.
 */
async function startServer(port = null, extra = []) {
  if (!tmp) tmp = mkdtempSync(path.join(os.tmpdir(), 'denkmeter-browser-'));
  if (!port) port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const database = databaseUrl || `sqlite://${tmp}/db.sqlite?mode=rwc`;
  // The checks start some 40 games a minute from one address, more than a person's default
  // allowance of 30, and sign up and in more often than 10 times a minute (the limits
  // themselves are tested in the API tests).
  const args = ['serve', '--host', '127.0.0.1', '--port', String(port), '--database', database, '--games-per-minute', '200', '--sign-ins-per-minute', '200', ...extra];
  server = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'info' } });
  const keep = (chunk) => {
    serverLog.push(...String(chunk).split('\n').filter(Boolean));
    if (serverLog.length > 300) serverLog = serverLog.slice(-200);
  };
  server.stdout.on('data', keep);
  server.stderr.on('data', keep);
  let exited = null;
  server.on('exit', (code, signal) => {
    exited = { code, signal };
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`the server exited at start (${JSON.stringify(exited)})`);
    try {
      const r = await fetch(`${base}/api/health`);
      if (r.ok) {
        const body = await r.json();
        if (body && body.status === 'ok') return;
      }
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error('the server did not answer /api/health within 30 s');
}

async function stopServer() {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const done = new Promise((r) => server.once('exit', r));
  server.kill('SIGINT');
  const timer = setTimeout(() => server.kill('SIGKILL'), 3000);
  await done;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------
// Helpers

class Failure extends Error {}
function check(condition, message) {
  if (!condition) throw new Failure(message);
}

async function api(method, route, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const r = await fetch(base + route, init);
  const text = await r.text();
  let data = null;
  try {
    data = JSON.parse(text);
  } catch {
    data = text;
  }
  if (!r.ok) throw new Failure(`${method} ${route} answered ${r.status}: ${text.slice(0, 200)}`);
  return data;
}

const clickPath = (m) => [m.from, ...(m.via || []), m.to].filter((c) => c !== null && c !== undefined);

/** A legal move that clicks alone pick out (no other move shares its cells). */
function clickableMove(view, prefer) {
  const moves = view.legal_moves || [];
  const key = (m) => clickPath(m).join(',');
  const unique = moves.filter((m) => m.from !== null && moves.filter((o) => key(o) === key(m)).length === 1);
  if (prefer) {
    const wanted = unique.find((m) => m.text === prefer);
    check(wanted, `the move ${prefer} is not among the legal moves: ${moves.map((m) => m.text).join(' ')}`);
    return wanted;
  }
  check(unique.length, `no legal move to click for ${view.to_move} (${moves.length} legal moves)`);
  // A move from the middle of the list, so that the games do not all look alike.
  return unique[Math.floor(unique.length / 3)];
}

async function gameIdOf(page) {
  await page.waitForURL(/#\/game\/[^/?]+/, { timeout: 10_000 });
  const m = /#\/game\/([^/?]+)/.exec(page.url());
  return decodeURIComponent(m[1]);
}

async function seatsOf(page, id) {
  const raw = await page.evaluate((key) => localStorage.getItem(key), `denkmeter.game.${id}`);
  check(raw, `no tokens kept in localStorage for game ${id}`);
  return JSON.parse(raw);
}

const moveTexts = (page) => page.$$eval('#moves .move', (els) => els.map((e) => e.textContent.trim()));

async function waitMoves(page, n, timeout = 20_000) {
  try {
    await page.waitForFunction((k) => document.querySelectorAll('#moves .move').length >= k, n, { timeout });
  } catch {
    const have = await moveTexts(page).catch(() => []);
    throw new Failure(`expected ${n} moves in the move list within ${timeout / 1000} s, saw ${have.length}: ${have.join(' ')}`);
  }
  return moveTexts(page);
}

const cellSelector = (name) => `svg.board [data-cell="${name}"]`;

/** Makes `move` by clicking its cells on the board of `page`. */
async function clickMove(page, view, move) {
  const cells = clickPath(move).map((i) => view.board.cells[i].name);
  for (const [k, name] of cells.entries()) {
    const klass = k === 0 ? 'movable' : 'target';
    try {
      await page.waitForSelector(`${cellSelector(name)}.${klass}`, { timeout: 10_000 });
    } catch {
      throw new Failure(`cell ${name} of ${move.text} never became ${klass} on the board`);
    }
    await page.click(cellSelector(name));
  }
}

/** Waits until the game is at `ply` moves or more and nobody is thinking; returns the view. */
async function waitView(id, token, test, what, timeout = 20_000) {
  const deadline = Date.now() + timeout;
  let view;
  while (Date.now() < deadline) {
    view = await api('GET', `/api/games/${id}${token ? `?token=${encodeURIComponent(token)}` : ''}`);
    if (test(view)) return view;
    await sleep(150);
  }
  throw new Failure(`timed out waiting for ${what} (ply ${view && view.ply}, to move ${view && view.to_move})`);
}

function watchPage(page, label, problems, ignore = null) {
  page.on('pageerror', (e) => problems.push(`${label}: page error: ${e.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error' || (ignore && ignore.test(msg.text()))) return;
    problems.push(`${label}: console error: ${msg.text()}`);
  });
}

async function newContext(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true, ...options });
  context.setDefaultTimeout(15_000);
  if (webDir) {
    const types = { html: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', svg: 'image/svg+xml' };
    // The files come with the server's Content-Security-Policy, as it serves them: an inline
    // script or style in the pages is refused (and logged) here too.
    const policy = await serverPolicy();
    await context.route(
      (url) => url.origin === base && webFile(url.pathname) !== null,
      (route) => {
        const file = webFile(new URL(route.request().url()).pathname);
        const headers = policy ? { 'content-security-policy': policy } : {};
        route.fulfill({ body: readFileSync(file), contentType: types[file.split('.').pop()] || 'application/octet-stream', headers });
      },
    );
  }
  return context;
}

let policyCache = null;
/** The Content-Security-Policy the server sends with its answers (null if it sends none). */
function serverPolicy() {
  if (!policyCache) policyCache = fetch(`${base}/api/health`).then((r) => r.headers.get('content-security-policy'));
  return policyCache;
}

/** The file under --web DIR that a request path names, as the server would serve it, or null. */
function webFile(pathname) {
  if (pathname.startsWith('/api/')) return null;
  let name;
  try {
    name = pathname === '/' ? 'index.html' : decodeURIComponent(pathname.slice(1));
  } catch {
    return null;
  }
  const file = path.resolve(webDir, name);
  if (!file.startsWith(webDir + path.sep) || name.split('/').some((part) => part.startsWith('.'))) return null;
  return existsSync(file) && statSync(file).isFile() ? file : null;
}

/** Creates a game through the lobby form. */
async function createInLobby(page, { ruleset, opponent, level, colour, clock }) {
  await page.goto(`${base}/#/`);
  try {
    await page.waitForSelector(`#ruleset option[value="${ruleset}"]`, { state: 'attached', timeout: 10_000 });
  } catch {
    throw new Failure(`the lobby does not offer the ruleset ${ruleset}`);
  }
  await page.selectOption('#ruleset', ruleset);
  await page.check(`input[name=opponent][value=${opponent}]`);
  if (level) await page.selectOption('#level', String(level));
  if (colour) await page.selectOption('#colour', colour);
  if (clock) await page.selectOption('#clock', clock);
  await page.click('#start');
  return gameIdOf(page);
}

/**
 * Creates a game through the API and opens it in a new browser context as the player of
 * `seat`, its console watched under `label`.
 */
async function openCreated(label, problems, body, seat = 'white', ignore = null) {
  const { id, tokens } = await api('POST', '/api/games', body);
  const context = await newContext();
  const page = await context.newPage();
  watchPage(page, label, problems, ignore);
  await page.goto(`${base}/#/game/${id}?token=${tokens[seat]}`);
  // A token in a link is claimed by the page that opens it, for a secret of its own (the link
  // is then used up): from here on the test acts with the page's token.
  await page.waitForFunction(() => !location.hash.includes('token='));
  const claimed = await seatsOf(page, id);
  check(claimed[seat] && claimed[seat] !== tokens[seat], `the page did not claim ${seat}'s seat`);
  return { id, tokens: { ...tokens, [seat]: claimed[seat] }, context, page };
}

// Opens game `id` on `page` by a link with `seat`'s token, which the page claims: returns the
// page's own token for the seat, the one that acts for it from now on.
async function openSeat(page, id, token, seat = 'white') {
  await page.goto(`${base}/#/game/${id}?token=${encodeURIComponent(token)}`);
  await page.waitForFunction(() => !location.hash.includes('token='));
  const claimed = await seatsOf(page, id);
  check(claimed[seat] && claimed[seat] !== token, `the page did not claim ${seat}'s seat`);
  return claimed[seat];
}

const ENGLISH_AGAINST_LEVEL_1 = { ruleset: 'english', white: { kind: 'human' }, black: { kind: 'computer', level: 1 } };

// ---------------------------------------------------------------------------------------------
// The checks

const checks = [];
const test = (name, fn) => checks.push({ name, fn });

test('a. Chad against the computer: click a move, see the reply, reload, move again', async (problems) => {
  const context = await newContext();
  const page = await context.newPage();
  watchPage(page, 'a', problems);
  const id = await createInLobby(page, { ruleset: 'chad', opponent: 'computer', level: 1, colour: 'white' });
  const mine = await seatsOf(page, id);
  check(mine.white, 'the lobby kept no White token for the game against the computer');

  let view = await waitView(id, mine.white, (v) => v.to_move === 'white' && v.legal_moves.length > 0, 'White to move');
  const first = clickableMove(view, 'C5-A5');
  await clickMove(page, view, first);
  const moves = await waitMoves(page, 2);
  check(moves[0] === 'C5-A5', `the first move in the list is ${moves[0]}, not C5-A5`);
  view = await waitView(id, mine.white, (v) => v.ply >= 2 && v.to_move === 'white' && !v.thinking, "the computer's reply");
  check(view.moves[0] === 'C5-A5', `the server recorded ${view.moves[0]} as the first move`);
  check(moves[1] === view.moves[1], `the move list shows ${moves[1]} as the reply, the server ${view.moves[1]}`);

  await page.reload();
  const after = await waitMoves(page, 2);
  check(after.join(' ') === moves.slice(0, 2).join(' '), `after a reload the move list is "${after.join(' ')}", not "${moves.join(' ')}"`);
  const status = await page.textContent('#status');
  check(/your move/i.test(status || ''), `after a reload the status says "${status}" instead of your move`);

  const second = clickableMove(view);
  await clickMove(page, view, second);
  const three = await waitMoves(page, 3);
  check(three[2] === second.text, `the third move in the list is ${three[2]}, not ${second.text}`);
  const stored = await waitView(id, mine.white, (v) => v.ply >= 3, 'the third move on the server');
  check(stored.moves[2] === second.text, `the server recorded ${stored.moves[2]}, not ${second.text}`);
  const error = await page.$eval('#message', (e) => (e.hidden ? '' : e.textContent.trim()));
  check(!error, `the page shows an error: ${error}`);
  await context.close();
});

test('b. Shakti between two browsers by invite link, live over the WebSocket', async (problems) => {
  const contextA = await newContext();
  const contextB = await newContext();
  const a = await contextA.newPage();
  const b = await contextB.newPage();
  watchPage(a, 'b/A', problems);
  watchPage(b, 'b/B', problems);
  const framesB = [];
  b.on('websocket', (ws) => {
    if (/\/api\/games\/[^/]+\/ws/.test(ws.url())) ws.on('framereceived', (f) => framesB.push(f.payload));
  });

  const id = await createInLobby(a, { ruleset: 'shakti', opponent: 'link', colour: 'white' });
  await a.waitForSelector('#invite-link', { state: 'visible' });
  const link = await a.inputValue('#invite-link');
  check(link.startsWith(`${base}/#/game/${id}?token=`), `the invite link looks wrong: ${link}`);
  check(await a.isVisible('#invite-local'), 'from 127.0.0.1 the page should say the invite link works on this computer only');
  const mineA = await seatsOf(a, id);
  check(mineA.white && !mineA.black, 'the creator should keep only the White token');

  await b.goto(link);
  await b.waitForSelector('svg.board [data-cell="d4"]');
  await b.waitForFunction(() => !location.hash.includes('token='));
  const mineB = await seatsOf(b, id);
  check(mineB.black, 'opening the invite link did not keep the Black token');
  check(await b.$('svg.board.flipped'), 'the board is not flipped for the player of Black');
  await b.waitForFunction(() => /waiting|to move/i.test(document.querySelector('#status').textContent));

  let view = await waitView(id, mineA.white, (v) => v.to_move === 'white' && v.legal_moves.length > 0, 'White to move');
  const first = clickableMove(view);
  await clickMove(a, view, first);
  await waitMoves(a, 1);
  const seen = await waitMoves(b, 1, 8_000);
  check(seen[0] === first.text, `B sees ${seen[0]}, A played ${first.text}`);
  check(framesB.length >= 2, `B received ${framesB.length} WebSocket messages; the move should have come that way`);

  view = await waitView(id, mineB.black, (v) => v.to_move === 'black' && v.legal_moves.length > 0, 'Black to move');
  const reply = clickableMove(view);
  await clickMove(b, view, reply);
  await waitMoves(b, 2);
  const atA = await waitMoves(a, 2, 8_000);
  check(atA[1] === reply.text, `A sees ${atA[1]}, B played ${reply.text}`);
  await contextA.close();
  await contextB.close();
});

test('c. a phone-sized screen shows the whole board without scrolling sideways', async (problems) => {
  const context = await newContext({ viewport: { width: 375, height: 667 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  watchPage(page, 'c', problems);
  const lobbyWidth = await (async () => {
    await page.goto(`${base}/#/`);
    await page.waitForSelector('#ruleset option[value="chad"]', { state: 'attached' });
    return page.evaluate(() => document.documentElement.scrollWidth);
  })();
  check(lobbyWidth <= 375, `the lobby is ${lobbyWidth} px wide on a 375 px screen`);
  const id = await createInLobby(page, { ruleset: 'chad', opponent: 'local' });
  await page.waitForSelector('svg.board [data-cell="L12"]');
  const seats = await seatsOf(page, id);
  check(seats.white && seats.black, 'a game on one screen should keep both tokens');
  const box = await page.$eval('svg.board', (svg) => {
    const r = svg.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height };
  });
  const scroll = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, iw: window.innerWidth }));
  check(scroll.sw <= scroll.iw, `the page scrolls sideways: ${scroll.sw} px of content in ${scroll.iw} px`);
  check(box.left >= 0 && box.right <= 375, `the board spans ${box.left}..${box.right} px, outside 0..375`);
  check(box.width >= 300, `the board is only ${box.width} px wide on a 375 px screen`);
  check(box.height <= 667, `the board is ${box.height} px high, taller than the screen`);
  for (const name of ['A1', 'L1', 'A12', 'L12']) {
    const r = await page.$eval(cellSelector(name), (el) => {
      const b = el.getBoundingClientRect();
      return { left: b.left, right: b.right };
    });
    check(r.left >= 0 && r.right <= 375, `cell ${name} is drawn at ${r.left}..${r.right} px, off the screen`);
  }
  // Whose turn it is and the buttons are in view with the board, without scrolling.
  await page.waitForFunction(() => /to move|your move/i.test(document.querySelector('#status').textContent));
  for (const selector of ['#status', '#actions button']) {
    const r = await page.$eval(selector, (el) => el.getBoundingClientRect().bottom);
    check(r <= 667, `${selector} ends at ${Math.round(r)} px, below a 667 px screen`);
  }
  // Both sides play on this screen: tap a White move, then a Black one.
  let view = await waitView(id, seats.white, (v) => v.legal_moves.length > 0, 'White to move');
  await clickMove(page, view, clickableMove(view, 'C5-A5'));
  await waitMoves(page, 1);
  view = await waitView(id, seats.black, (v) => v.to_move === 'black' && v.legal_moves.length > 0, 'Black to move');
  const reply = clickableMove(view);
  await clickMove(page, view, reply);
  const moves = await waitMoves(page, 2);
  check(moves[1] === reply.text, `the second move is ${moves[1]}, not ${reply.text}`);
  await context.close();
});

test('d. a screenshot of a Chad game in progress', async (problems) => {
  const context = await newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  watchPage(page, 'd', problems);
  const id = await createInLobby(page, { ruleset: 'chad', opponent: 'computer', level: 1, colour: 'white' });
  const { white } = await seatsOf(page, id);
  const plan = ['C5-A5', 'E4-G4', 'D3-D1'];
  for (const [k, wanted] of plan.entries()) {
    const view = await waitView(id, white, (v) => v.ply === 2 * k && v.to_move === 'white' && !v.thinking && v.legal_moves.length > 0, `White's move ${k + 1}`);
    const legal = view.legal_moves.map((m) => m.text);
    const text = legal.includes(wanted) ? wanted : clickableMove(view).text;
    await api('POST', `/api/games/${id}/moves`, { token: white, move: text });
  }
  const view = await waitView(id, white, (v) => v.ply >= 2 * plan.length && v.to_move === 'white' && !v.thinking && v.legal_moves.length > 0, "the computer's third reply");
  await waitMoves(page, 2 * plan.length);
  // Pick up a rook that has somewhere to go, to show its destinations.
  const counts = new Map();
  for (const m of view.legal_moves) if (m.from !== null) counts.set(m.from, (counts.get(m.from) || 0) + 1);
  const [from] = [...counts.entries()].sort((x, y) => y[1] - x[1])[0];
  await page.click(cellSelector(view.board.cells[from].name));
  await page.waitForSelector('svg.board .dest');
  await page.evaluate(() => document.fonts && document.fonts.ready);
  mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
  await page.screenshot({ path: SCREENSHOT });
  check(existsSync(SCREENSHOT), `no screenshot at ${SCREENSHOT}`);
  if (SCREENSHOT !== README_SCREENSHOT) rmSync(SCREENSHOT, { force: true });
  await context.close();
});

test('e. a finished game is replayed, its record and diagram download', async (problems) => {
  const created = await api('POST', '/api/games', { ruleset: 'chad', white: { kind: 'human' }, black: { kind: 'human' } });
  const { id, tokens } = created;
  check(tokens && tokens.white && tokens.black, 'a game between two humans should give two tokens');
  const played = [];
  for (let k = 0; k < 4; k += 1) {
    const side = k % 2 === 0 ? 'white' : 'black';
    const view = await api('GET', `/api/games/${id}?token=${tokens[side]}`);
    const move = clickableMove(view);
    await api('POST', `/api/games/${id}/moves`, { token: tokens[side], move: move.text });
    played.push(move.text);
  }
  const over = await api('POST', `/api/games/${id}/resign`, { token: tokens.white });
  check(over.status === 'over' && over.result && over.result.token === '0-1', `after White resigns the game is ${over.status} ${JSON.stringify(over.result)}`);

  const context = await newContext();
  const page = await context.newPage();
  watchPage(page, 'e', problems);
  await page.goto(`${base}/#/game/${id}`);
  await page.waitForSelector('#replay', { state: 'visible' });
  await page.waitForSelector('#result', { state: 'visible' });
  const resultText = await page.textContent('#result');
  check(resultText.includes(over.result.text), `the result panel says "${resultText}", not "${over.result.text}"`);
  const plyText = () => page.textContent('#replay-ply').then((t) => t.trim());
  check((await plyText()) === '4 / 4', `the replay starts at "${await plyText()}", not the final position`);

  const piecesShown = () => page.$$eval('svg.board [data-at]', (els) => els.map((e) => `${e.dataset.piece}@${e.dataset.at}`).sort().join(' '));
  const piecesAt = async (ply) => {
    const v = await api('GET', `/api/games/${id}?ply=${ply}`);
    return v.pieces.map((p) => `${p.letter}@${v.board.cells[p.cell].name}`).sort().join(' ');
  };
  const expectPly = async (ply) => {
    await page.waitForFunction((t) => document.querySelector('#replay-ply').textContent.trim() === t, `${ply} / 4`, { timeout: 5000 }).catch(async () => {
      throw new Failure(`the replay shows "${await plyText()}", expected "${ply} / 4"`);
    });
    const want = await piecesAt(ply);
    await page.waitForFunction((w) => [...document.querySelectorAll('svg.board [data-at]')].map((e) => `${e.dataset.piece}@${e.dataset.at}`).sort().join(' ') === w, want, { timeout: 5000 }).catch(async () => {
      throw new Failure(`at ply ${ply} the board shows ${await piecesShown()}, the server ${want}`);
    });
  };
  await page.click('#replay-first');
  await expectPly(0);
  await page.click('#replay-next');
  await expectPly(1);
  await page.click('#replay-next');
  await expectPly(2);
  await page.click('#replay-prev');
  await expectPly(1);
  await page.click('#replay-last');
  await expectPly(4);

  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 10_000 }), page.click('#download-pgn')]);
  const file = await download.path();
  check(file, `the record download failed: ${await download.failure()}`);
  const record = readFileSync(file, 'utf8');
  check(/\[Result "0-1"\]/.test(record), `the downloaded record has no [Result "0-1"] tag:\n${record}`);
  for (const text of played) check(record.includes(text), `the downloaded record lacks the move ${text}:\n${record}`);

  const svgHref = await page.getAttribute('#download-svg', 'href');
  const svg = await page.request.get(new URL(svgHref, base).href);
  check(svg.ok(), `the diagram link answered ${svg.status()}`);
  check((await svg.text()).includes('<svg'), 'the diagram link did not return an SVG');
  await context.close();
});

test('f. the rules page, and clicks through via cells and choices', async (problems) => {
  const context = await newContext();
  const page = await context.newPage();
  watchPage(page, 'f', problems);
  await page.goto(`${base}/#/`);
  await page.waitForSelector('#ruleset option[value="shakti"]', { state: 'attached' });
  await page.selectOption('#ruleset', 'shakti');
  await page.click('#ruleset-desc a');
  await page.waitForSelector('article.rules h1');
  const heading = await page.textContent('article.rules h1');
  check(/shakti/i.test(heading), `the rules page of shakti is headed "${heading}"`);
  const parts = await page.$$eval('article.rules', ([a]) => ({
    h2: a.querySelectorAll('h2').length,
    li: a.querySelectorAll('li').length,
    pre: a.querySelectorAll('pre').length,
    strong: a.querySelectorAll('strong').length,
    code: a.querySelectorAll('code').length,
    anchors: a.querySelectorAll('h2[id]').length,
  }));
  check(parts.h2 >= 3 && parts.li >= 5 && parts.pre >= 1 && parts.strong >= 1 && parts.code >= 3, `the rules Markdown rendered poorly: ${JSON.stringify(parts)}`);
  check(parts.anchors === parts.h2, `only ${parts.anchors} of ${parts.h2} headings have an id to link to`);

  // No ruleset has multi-step moves or choices yet: check the click logic on made-up moves.
  const outcome = await page.evaluate(async () => {
    const { MoveInput } = await import('/board/input.js');
    const mv = (text, from, via, to, choice = null) => ({ text, from, via, to, choice });
    const moves = [
      mv('1x3x5', 1, [3], 5),
      mv('1x3x7', 1, [3], 7),
      mv('1x4', 1, [], 4),
      mv('2-6=a', 2, [], 6, 'a'),
      mv('2-6=b', 2, [], 6, 'b'),
      mv('@9', null, [], 9),
      mv('pass', null, [], null),
    ];
    const log = [];
    const input = new MoveInput(moves);
    log.push([...input.startCells()].sort().join(','));
    log.push(input.buttonMoves().map((m) => m.text).join(','));
    log.push(String(input.click(1)));
    log.push([...input.targets()].sort().join(','));
    log.push(String(input.click(3)));
    log.push([...input.targets()].sort().join(','));
    log.push(input.click(7)?.text);
    log.push(input.click(1) === null && input.click(4)?.text);
    log.push(String(input.click(2)));
    log.push(String(input.click(6)));
    log.push(input.choices().map((m) => m.text).join(','));
    input.reset();
    log.push(input.click(9)?.text);
    log.push(String(input.click(8)));
    return log;
  });
  const expected = ['1,2,9', 'pass', 'null', '3,4', 'null', '5,7', '1x3x7', '1x4', 'null', 'null', '2-6=a,2-6=b', '@9', 'null'];
  check(JSON.stringify(outcome) === JSON.stringify(expected), `MoveInput gave ${JSON.stringify(outcome)}, expected ${JSON.stringify(expected)}`);

  // A made-up board of points, flipped, with its labels, in the board component: a move is
  // clicked, shown at once, and taken back when the move callback refuses it.
  const drawn = await page.evaluate(async () => {
    const { createBoard } = await import('/board/board.js');
    const cells = [];
    for (let y = 0; y < 3; y += 1) for (let x = 0; x < 3; x += 1) cells.push({ name: `${'abc'[x]}${3 - y}`, x, y, shape: 'point', classes: [], style: 'plain' });
    const lines = [[0, 1], [1, 2], [3, 4], [4, 5], [6, 7], [7, 8], [0, 3], [3, 6], [1, 4], [4, 7], [2, 5], [5, 8], [0, 4], [4, 8]];
    const palette = {
      background: '#fbf7ee', edge: '#6b5a3e', line: '#555555', marked: '#dd3333', absent: '#ebe3d3',
      piece_edge: '#000000', white_piece: '#ffffff', white_ink: '#000000', black_piece: '#222222', black_ink: '#ffffff',
    };
    const board = {
      cells, lines, width: 3, height: 3,
      column_labels: [{ at: 0, text: 'a' }, { at: 1, text: 'b' }, { at: 2, text: 'c' }],
      row_labels: [{ at: 0, text: '3' }, { at: 1, text: '2' }, { at: 2, text: '1' }],
      legend: {
        cells: [{ class: 'plain', fill: '#f3e6c8', glyph: '.', words: 'square' }],
        absent: 'gone',
        pieces: [{ kind: 'stone', letter: 'S', shape: 'crowned' }],
        palette,
      },
    };
    const host = document.createElement('div');
    document.body.appendChild(host);
    const sent = [];
    let answer = null;
    const onMove = (text) => {
      sent.push(text);
      return new Promise((resolve, reject) => {
        answer = { resolve, reject };
      });
    };
    const component = createBoard(host, { board, orientation: 'black', onMove });
    component.set({
      position: '1',
      pieces: [{ cell: 4, owner: 'black', kind: 'stone', letter: 's' }],
      absent: [8],
      lastMove: { from: 0, via: [], to: 4, captured: [], removed: [8] },
      moves: [{ text: 'b2-a3', from: 4, via: [], to: 0, choice: null, captured: [] }],
      canMove: true,
    });
    const svg = host.querySelector('svg.board');
    const names = (selector) => [...svg.querySelectorAll(selector)].map((e) => e.dataset.cell || e.dataset.at).join(',');
    const click = (name) => svg.querySelector(`[data-cell="${name}"]`).dispatchEvent(new MouseEvent('click', { bubbles: true }));
    const result = {
      cells: svg.querySelectorAll('[data-cell]').length,
      dots: svg.querySelectorAll('.cell.pt .dot').length,
      holes: svg.querySelectorAll('.cell.hole').length,
      lines: svg.querySelectorAll('line.link').length,
      pieces: svg.querySelectorAll('[data-piece="s"][data-at="b2"]').length,
      rings: svg.querySelectorAll('[data-at="b2"] .ring').length,
      files: [...svg.querySelectorAll('.coord.file')]
        .sort((p, q) => Number(p.getAttribute('x')) - Number(q.getAttribute('x')))
        .map((t) => t.textContent)
        .join(''),
      movable: names('.movable'),
    };
    click('b2');
    result.targets = names('.target');
    click('a3');
    result.sent = sent.join(',');
    result.shown = names('[data-piece]');
    result.blocked = svg.querySelectorAll('.movable').length;
    answer.reject(new Error('refused'));
    await new Promise((r) => setTimeout(r, 0));
    result.back = names('[data-piece]');
    result.again = names('.movable');
    component.destroy();
    host.remove();
    return result;
  });
  const want = {
    cells: 9, dots: 8, holes: 1, lines: 14, pieces: 1, rings: 1, files: 'cba', movable: 'b2',
    targets: 'a3', sent: 'b2-a3', shown: 'a3', blocked: 0, back: 'b2', again: 'b2',
  };
  check(JSON.stringify(drawn) === JSON.stringify(want), `a board of points was drawn as ${JSON.stringify(drawn)}, expected ${JSON.stringify(want)}`);
  await context.close();
});

test('g. an open game reconnects after a server restart and catches up', async (problems) => {
  const context = await newContext();
  const page = await context.newPage();
  // While the server is away the browser logs failed connections: expected here.
  watchPage(page, 'g', problems, /WebSocket|ERR_CONNECTION_REFUSED|Failed to load resource/);
  const id = await createInLobby(page, { ruleset: 'shakti', opponent: 'local' });
  const mine = await seatsOf(page, id);
  let view = await waitView(id, mine.white, (v) => v.legal_moves.length > 0, 'White to move');
  await clickMove(page, view, clickableMove(view));
  await waitMoves(page, 1);

  await stopServer();
  const port = Number(new URL(base).port);
  await startServer(port);
  view = await api('GET', `/api/games/${id}?token=${mine.black}`);
  const reply = clickableMove(view);
  await api('POST', `/api/games/${id}/moves`, { token: mine.black, move: reply.text });
  const moves = await waitMoves(page, 2, 15_000);
  check(moves[1] === reply.text, `after the restart the page shows ${moves[1]}, not ${reply.text}`);
  view = await waitView(id, mine.white, (v) => v.ply === 2 && v.legal_moves.length > 0, 'White to move again');
  await clickMove(page, view, clickableMove(view));
  await waitMoves(page, 3);
  await context.close();
});

// ---------------------------------------------------------------------------------------------
// Running

test('h. a Scandinavian capture of three men made by clicking each landing square; Sjekkers drawn', async (problems) => {
  // White's only move takes three men orthogonally: c4xc8xg8xg4.
  const position = '4m3/8/2m3m1/1m6/2M5/8/8/8 w';
  const { id, tokens } = await api('POST', '/api/games', {
    ruleset: 'scandinavian-8x8', white: { kind: 'human' }, black: { kind: 'human' }, position,
  });
  const context = await newContext();
  const page = await context.newPage();
  watchPage(page, 'h', problems);
  const white = await openSeat(page, id, tokens.white);
  const view = await api('GET', `/api/games/${id}?token=${encodeURIComponent(white)}`);
  check(view.legal_moves.length === 1 && view.legal_moves[0].text === 'c4xc8xg8xg4',
    `expected the one move c4xc8xg8xg4, found ${view.legal_moves.map((m) => m.text).join(' ')}`);
  const names = clickPath(view.legal_moves[0]).map((i) => view.board.cells[i].name);
  check(names.join(' ') === 'c4 c8 g8 g4', `the move is clicked as ${names.join(' ')}`);
  await clickMove(page, view, view.legal_moves[0]);
  const after = await waitView(id, tokens.black, (v) => v.ply === 1, 'the capture to be played');
  check(after.moves[0] === 'c4xc8xg8xg4', `the server has ${after.moves[0]}`);
  check(after.last_move.captured.length === 3, `${after.last_move.captured.length} men captured, not 3`);
  await page.waitForFunction(() => document.querySelectorAll('svg.board [data-piece]').length === 2, null, { timeout: 10_000 });

  // A Sjekkers board: 61 points, 36 disks.
  const sj = await api('POST', '/api/games', { ruleset: 'sjekkers', white: { kind: 'human' }, black: { kind: 'human' } });
  const sjWhite = await openSeat(page, sj.id, sj.tokens.white);
  await page.waitForFunction(() => document.querySelectorAll('svg.board [data-piece]').length === 36, null, { timeout: 10_000 });
  const cells = await page.$$eval('svg.board [data-cell]', (els) => els.length);
  check(cells === 61, `the Sjekkers board has ${cells} cells drawn, not 61`);
  const sjView = await api('GET', `/api/games/${sj.id}?token=${encodeURIComponent(sjWhite)}`);
  await clickMove(page, sjView, clickableMove(sjView));
  await waitView(sj.id, null, (v) => v.ply === 1, 'the Sjekkers move to be played');
  await context.close();
});

test('i. a socket that stops delivering views is noticed by its heartbeat, and the page catches up', async (problems) => {
  const context = await newContext();
  const page = await context.newPage();
  watchPage(page, 'i', problems);
  // Between the page and the server: the first view passes, later views are swallowed, so the
  // socket stays open but goes stale (as the old server's did). Heartbeats pass.
  let swallowed = 0;
  await page.routeWebSocket(/\/api\/games\/[^/]+\/ws/, (ws) => {
    const server = ws.connectToServer();
    let views = 0;
    server.onMessage((message) => {
      let type = null;
      try {
        type = JSON.parse(String(message)).type;
      } catch {
        // not JSON: pass it on
      }
      if (type === 'view' && ++views > 1) {
        swallowed += 1;
        return;
      }
      ws.send(message);
    });
  });
  const id = await createInLobby(page, { ruleset: 'shakti', opponent: 'link', colour: 'white' });
  await page.waitForSelector('#invite-link', { state: 'visible' });
  const blackToken = new URL((await page.inputValue('#invite-link')).replace('#/', '')).searchParams.get('token');
  check(blackToken, 'the invite link carries no token');
  const mine = await seatsOf(page, id);
  // White moves through the page; its own action reloads the view over HTTP.
  let view = await waitView(id, mine.white, (v) => v.legal_moves.length > 0, 'White to move');
  await clickMove(page, view, clickableMove(view));
  await waitMoves(page, 1);
  // Black, a friend elsewhere, answers: the page can hear of it only through a heartbeat (it
  // asks for one every 20 s) whose version is ahead of its view.
  view = await waitView(id, blackToken, (v) => v.to_move === 'black' && v.legal_moves.length > 0, 'Black to move');
  const reply = clickableMove(view);
  await api('POST', `/api/games/${id}/moves`, { token: blackToken, move: reply.text });
  const moves = await waitMoves(page, 2, 35_000);
  check(moves[1] === reply.text, `the page shows ${moves[1]}, Black played ${reply.text}`);
  check(swallowed >= 1, 'no view was held back: the test did not test the heartbeat');
  await context.close();
});

test('j. a Chad board is drawn from its legend: castle colours, a crowned queen, the key', async (problems) => {
  // Black's queen on E2 (the rules page's example).
  const position = '12/12/12/3R3rk3/12/7R4/12/12/2RKR7/12/4q7/12 w';
  const { id } = await api('POST', '/api/games', { ruleset: 'chad', white: { kind: 'human' }, black: { kind: 'human' }, position });
  const view = await api('GET', `/api/games/${id}`);
  const { legend, cells } = view.board;
  const context = await newContext();
  const page = await context.newPage();
  watchPage(page, 'j', problems);
  await page.goto(`${base}/#/game/${id}`);
  await page.waitForSelector(cellSelector('E2'));

  const rgb = (hex) => {
    const n = parseInt(hex.slice(1), 16);
    return hex.length === 7 ? `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})` : hex;
  };
  const style = (name) => legend.cells.find((s) => s.class === name);
  for (const name of ['castle-white', 'castle-black', 'wall-white', 'plain']) {
    check(style(name), `the Chad legend has no ${name} style: ${JSON.stringify(legend.cells)}`);
    const named = cells.filter((c) => c.style === name).map((c) => c.name);
    check(named.length >= 9, `only ${named.length} cells of style ${name}`);
    const fills = await page.$$eval('svg.board [data-cell]', (els, wanted) => els.filter((e) => wanted.includes(e.dataset.cell)).map((e) => getComputedStyle(e).fill), named);
    check(fills.length === named.length, `${fills.length} of the ${named.length} ${name} cells are drawn`);
    const wrong = fills.filter((f) => f !== rgb(style(name).fill));
    check(!wrong.length, `${name} cells are filled ${[...new Set(wrong)].join(' ')}, not the legend's ${style(name).fill}`);
  }
  check(style('castle-white').fill !== style('plain').fill, 'the castle and plain fills are the same colour: the check proves nothing');

  const rings = await page.$$eval('svg.board [data-piece] .ring', (els) => els.map((e) => e.closest('[data-at]').dataset.at));
  check(rings.join(' ') === 'E2', `crowned pieces drawn at "${rings.join(' ')}", expected E2 (the queen)`);

  const key = (await page.textContent('.board-key')) || '';
  const words = [...new Set(legend.cells.filter((s) => cells.some((c) => c.style === s.class)).map((s) => s.words))];
  for (const w of [...words, ...legend.pieces.map((p) => p.kind)]) {
    check(key.includes(w), `the key "${key.trim()}" lacks "${w}"`);
  }
  const swatches = await page.$$eval('.board-key .key-cell rect', (els) => els.map((e) => getComputedStyle(e).fill));
  check(swatches.includes(rgb(style('castle-white').fill)), `the key has no swatch in the castle colour: ${swatches.join(' ')}`);
  await context.close();
});

test('k. Schada: the reconstruction named, every path drawn, shapes told apart, a board uploaded', async (problems) => {
  const context = await newContext();
  const page = await context.newPage();
  // The broken board file at the end is refused with a 400, as it should be.
  watchPage(page, 'k', problems, /status of 400/);
  const id = await createInLobby(page, { ruleset: 'schada', opponent: 'computer', level: 1, colour: 'white' });
  await page.waitForSelector(cellSelector('d3'));
  const desc = (await page.textContent('#game-desc')) || '';
  check(/reconstruction/i.test(desc), `the game page does not name the reconstructed board: "${desc}"`);
  const view = await api('GET', `/api/games/${id}`);
  const paths = view.board.marks.length;
  const dots = view.board.marks.reduce((n, m) => n + m.points.length, 0);
  check(paths >= 64 * 2, `only ${paths} paths in the board description`);
  const drawn = await page.$$eval('svg.board .cell-marks .path-dot', (els) => els.length);
  check(drawn === dots, `${drawn} path dots drawn, the board has ${dots}`);
  // Field Officer, Officer and pawn are three different shapes, not only three letters.
  const shapes = await page.$$eval('svg.board [data-piece]', (els) => {
    const byKind = {};
    for (const e of els) byKind[e.dataset.kind] = e.querySelector('.disc').outerHTML.replace(/[-\d.,]+/g, '#').replace(/fill="[^"]*"/, '');
    return byKind;
  });
  const kinds = Object.keys(shapes);
  check(kinds.length === 3, `piece kinds drawn: ${kinds.join(', ')}`);
  check(new Set(Object.values(shapes)).size === 3, `the three kinds look alike: ${JSON.stringify(shapes)}`);
  const seats = await seatsOf(page, id);
  const mine = await api('GET', `/api/games/${id}?token=${encodeURIComponent(seats.white)}`);
  const first = mine.legal_moves.find((m) => m.text === 'f2-d4');
  check(first, 'f2-d4 is not among the legal moves');
  await clickMove(page, mine, first);
  await waitMoves(page, 2);

  // Upload a board file through the lobby: on it the a-pawn goes two squares.
  const detail = await api('GET', '/api/rulesets/schada');
  const text = detail.board_file.split('\n').map((l) => (l.startsWith('a2 ') ? 'a2 N N' : l)).join('\n');
  await page.goto(`${base}/#/`);
  await page.waitForSelector('#ruleset option[value="schada"]', { state: 'attached' });
  await page.selectOption('#ruleset', 'schada');
  await page.waitForSelector('#board-field', { state: 'visible' });
  await page.check('input[name=opponent][value=local]');
  const chooser = page.waitForEvent('filechooser');
  await page.selectOption('#board', 'upload');
  await (await chooser).setFiles({ name: 'longpawn.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
  await page.waitForFunction(() => document.querySelector('#board').value === 'pending');
  await page.click('#start');
  const uploaded = await gameIdOf(page);
  const board = await api('GET', `/api/games/${uploaded}`);
  check(board.board_name === 'longpawn', `the uploaded game is on board ${board.board_name}`);
  const theirs = await seatsOf(page, uploaded);
  const moves = (await api('GET', `/api/games/${uploaded}?token=${encodeURIComponent(theirs.white)}`)).legal_moves.map((m) => m.text);
  check(moves.includes('a2-a4') && !moves.includes('a2-a3'), `moves on the uploaded board: ${moves.join(' ')}`);
  // A broken file is refused with its line, and nothing is created.
  await page.goto(`${base}/#/`);
  await page.waitForSelector('#ruleset option[value="schada"]', { state: 'attached' });
  await page.selectOption('#ruleset', 'schada');
  const chooser2 = page.waitForEvent('filechooser');
  await page.selectOption('#board', 'upload');
  await (await chooser2).setFiles({ name: 'broken.txt', mimeType: 'text/plain', buffer: Buffer.from(text.replace('d3  S S', 'd3  S S S S')) });
  await page.waitForFunction(() => document.querySelector('#board').value === 'pending');
  await page.click('#start');
  await page.waitForSelector('#lobby-error:not([hidden])');
  const error = (await page.textContent('#lobby-error')) || '';
  check(/line 25/.test(error) && /off the board/.test(error), `the lobby says "${error}" for a broken board`);
  // Only the board the server accepted is kept to choose again.
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('denkmeter.boards') || '[]').map((b) => b.name));
  check(kept.join(',') === 'longpawn', `boards kept in the browser: ${kept.join(',')}`);
  const offered = await page.$$eval('#board option', (els) => els.map((e) => e.textContent));
  check(offered.some((o) => o.startsWith('longpawn')), `the lobby offers ${offered.join(' | ')}`);
  await context.close();
});

test('l. Kamelen on 11x13: home-fields and strips painted, camel, dromedary and rock told apart, a move', async (problems) => {
  const context = await newContext();
  const page = await context.newPage();
  watchPage(page, 'l', problems);
  const id = await createInLobby(page, { ruleset: 'kamelen-11x13', opponent: 'computer', level: 1, colour: 'white' });
  await page.waitForSelector(cellSelector('f13'));
  const view = await api('GET', `/api/games/${id}`);
  const { legend, cells } = view.board;
  const fillOf = (name) => page.$eval(cellSelector(name), (e) => getComputedStyle(e).fill);
  const style = (klass) => legend.cells.find((c) => c.class === klass);
  const rgb = (hex) => {
    const n = parseInt(hex.slice(1), 16);
    return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
  };
  // The board may be drawn more than once as the page loads (CI once saw f1 read while the
  // game's own board was not drawn yet): wait, briefly, for the cell to take its colour.
  const drawnAs = async (name, klass) => {
    if (!style(klass)) return false;
    const want = rgb(style(klass).fill);
    try {
      await page.waitForFunction(([selector, fill]) => {
        const cell = document.querySelector(selector);
        return cell && getComputedStyle(cell).fill === fill;
      }, [cellSelector(name), want], { timeout: 5000 });
      return true;
    } catch {
      return false;
    }
  };
  check(await drawnAs('f1', 'home-white'), `f1 is not drawn as White's home-field (its fill is ${await fillOf('f1')})`);
  check(await drawnAs('f13', 'home-black'), `f13 is not drawn as Black's home-field (its fill is ${await fillOf('f13')})`);
  const strips = cells.filter((c) => c.style === 'strip').length;
  check(strips === 33, `${strips} strip cells on the 11x13 board, expected both strips: three rows of 11`);
  const shapes = await page.$$eval('svg.board [data-piece]', (els) => {
    const byKind = {};
    for (const e of els) {
      const body = e.querySelector('.disc');
      byKind[e.dataset.kind] = { tag: body.tagName, shape: body.getAttribute('class'), fill: getComputedStyle(body).fill, owner: e.dataset.owner };
    }
    return byKind;
  });
  check(Object.keys(shapes).sort().join(',') === 'camel,dromedary,rock', `piece kinds drawn: ${Object.keys(shapes).join(',')}`);
  check(new Set(Object.values(shapes).map((s) => s.shape)).size === 3, `camel, dromedary and rock look alike: ${JSON.stringify(shapes)}`);
  const stone = legend.palette.stone;
  check(shapes.rock && shapes.rock.fill === rgb(stone), `a rock is filled ${shapes.rock && shapes.rock.fill}, not the stone colour ${stone}`);
  // Triangles point away from their owner: up for White's camels here, down for Black's.
  const pointing = (p) =>
    p.$$eval('svg.board [data-kind="camel"]', (els) =>
      els.map((e) => {
        const ys = e.querySelector('polygon').getAttribute('points').split(' ').map((xy) => Number(xy.split(',')[1]));
        const centre = (Math.max(...ys) + Math.min(...ys)) / 2;
        return `${e.dataset.owner}:${ys[0] < centre ? 'up' : 'down'}`;
      }),
    );
  const directions = new Set(await pointing(page));
  check([...directions].sort().join(' ') === 'black:down white:up', `camels point ${[...directions].join(' ')}`);
  const seats = await seatsOf(page, id);
  const mine = await api('GET', `/api/games/${id}?token=${encodeURIComponent(seats.white)}`);
  const camel = mine.legal_moves.find((m) => view.pieces.some((p) => p.cell === m.from && p.kind === 'camel'));
  check(camel, 'no camel move at the start');
  await clickMove(page, mine, camel);
  await waitMoves(page, 2);
  // Seen from Black's seat the board turns round, and so do the triangles.
  const other = await api('POST', '/api/games', { ruleset: 'kamelen', white: { kind: 'human' }, black: { kind: 'human' } });
  await page.goto(`${base}/#/game/${other.id}?token=${encodeURIComponent(other.tokens.black)}`);
  await page.waitForSelector('svg.board.flipped [data-kind="camel"]');
  const flipped = new Set(await pointing(page));
  check([...flipped].sort().join(' ') === 'black:up white:down', `from Black's seat camels point ${[...flipped].join(' ')}`);
  await context.close();
});

test('m. Fort Chitral: the Fort marked, a chained jump made by clicking only its final square', async (problems) => {
  // White's a1 can jump b2 to c3, then d4 to e5.
  const position = `14pppp/${Array(13).fill('18').join('/')}/3P14/18/1P16/P16P w`;
  const { id, tokens } = await api('POST', '/api/games', { ruleset: 'fort-chitral', white: { kind: 'human' }, black: { kind: 'human' }, position });
  const context = await newContext();
  const page = await context.newPage();
  watchPage(page, 'm', problems);
  const white = await openSeat(page, id, tokens.white);
  await page.waitForSelector(cellSelector('i9'));
  const view = await api('GET', `/api/games/${id}`);
  const fort = view.board.cells.filter((c) => c.style !== 'plain').map((c) => c.name).sort();
  check(fort.join(' ') === 'i10 i9 j10 j9', `the Fort is drawn on ${fort.join(' ')}`);
  const mine = await api('GET', `/api/games/${id}?token=${encodeURIComponent(white)}`);
  const chain = mine.legal_moves.find((m) => m.text === 'a1-e5');
  check(chain, `a1-e5 is not legal: ${mine.legal_moves.map((m) => m.text).join(' ')}`);
  check(!chain.via.length, `the chain asks for clicks on ${chain.via.join(',')}`);
  await page.click(cellSelector('a1'));
  await page.click(cellSelector('e5'));
  await waitMoves(page, 1);
  const moves = await moveTexts(page);
  check(moves[0] === 'a1-e5', `the page played ${moves[0]}`);
  await context.close();
});

test('n. Straat: a tile placed by clicking its cell and choosing its orientation', async (problems) => {
  const context = await newContext();
  const page = await context.newPage();
  watchPage(page, 'n', problems);
  const id = await createInLobby(page, { ruleset: 'straat', opponent: 'computer', level: 1, colour: 'white' });
  await page.waitForSelector(cellSelector('b3'));
  await page.click(cellSelector('b3'));
  const offered = await page.$$eval('.choices button[data-move]', (els) => els.map((e) => e.dataset.move).sort());
  check(offered.join(' ') === 'b3e b3n b3s b3w', `orientations offered on b3: ${offered.join(' ')}`);
  await page.click('.choices button[data-move="b3n"]');
  await waitMoves(page, 2);
  const view = await api('GET', `/api/games/${id}`);
  check(view.moves[0] === 'b3n', `the first move is ${view.moves[0]}`);
  await context.close();
});

test('o. Straat: the frame turned over shows the mirrored back; a previewed tile placed; streets lit on both sides', async (problems) => {
  // One cell short of the rules' fact `nNnN/nNnn/NNNN/nNnn w` on b1 and d1: White's solid
  // faces will make a cross on the back that joins all four sides.
  const { id, tokens } = await api('POST', '/api/games', { ruleset: 'straat', white: { kind: 'human' }, black: { kind: 'human' }, position: 'nNnN/nNnn/NNNN/n1n1 w' });
  const context = await newContext();
  const page = await context.newPage();
  watchPage(page, 'o', problems);
  await page.goto(`${base}/#/game/${id}?token=${encodeURIComponent(tokens.white)}`);
  await page.waitForSelector('.choices button[data-choice="e"]');
  const { palette } = (await api('GET', `/api/games/${id}`)).board.legend;
  const rgb = (hex) => {
    const n = parseInt(hex.slice(1), 16);
    return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
  };
  const piece = (name) => `svg.board .pieces [data-at="${name}"]`;
  const centreX = (selector) =>
    page.$eval(selector, (el) => {
      const r = el.getBoundingClientRect();
      return r.left + r.width / 2;
    });
  const label = () => page.textContent('#side-label').then((t) => t.trim());
  /** Where the dark half of the tile drawn by `selector` lies on the screen: east or west. */
  const darkSide = (selector) =>
    page.$eval(selector, (el) => {
      const tile = el.querySelector('.tile').getBoundingClientRect();
      const dark = el.querySelector('.tile-dark').getBoundingClientRect();
      return dark.left + dark.width / 2 > tile.left + tile.width / 2 ? 'east' : 'west';
    });

  // The front: a1 holds Black's tile, split face up, at the left edge.
  check((await label()) === 'Front', `the side is labelled "${await label()}"`);
  check((await page.getAttribute(piece('a1'), 'data-kind')) === 'tile-n', 'a1 does not show a split tile on the front');
  const leftX = await centreX(piece('a1'));
  const rightX = await centreX(cellSelector('d1'));
  check(leftX < rightX, 'a1 is not left of d1 on the front');

  // Turned over, mid-game: the back of a1 is Black's solid face at the right edge.
  await page.click('#turn-over');
  await page.waitForFunction(() => document.querySelector('#side-label').textContent.trim() === 'Back (mirrored)');
  check(await page.$('svg.board.mirrored'), 'the board is not drawn mirrored');
  await page.waitForSelector(`${piece('a1')}[data-kind="solid"]`);
  const backX = await centreX(piece('a1'));
  // (The board may be drawn smaller now: a caption line above it asks to turn back to move.)
  const backRightX = await page.$$eval('svg.board [data-cell]', (els) => Math.max(...els.map((el) => {
    const r = el.getBoundingClientRect();
    return r.left + r.width / 2;
  })));
  check(Math.abs(backX - backRightX) < 2, `the back of a1 is drawn at x = ${backX}, not at the right edge (${backRightX})`);
  const fill = (name) => page.$eval(`${piece(name)} .tile`, (el) => getComputedStyle(el).fill);
  check((await fill('a1')) === rgb(palette.black_piece), `the back of Black's a1 is ${await fill('a1')}`);
  check((await fill('b2')) === rgb(palette.white_piece), `the back of White's b2 is ${await fill('b2')}`);
  check(await page.$eval('.choices', (el) => el.hidden), 'tiles can be placed while the back is shown');
  await page.click('#turn-over');
  await page.waitForFunction(() => document.querySelector('#side-label').textContent.trim() === 'Front');

  // The orientation first, then a faint tile under the pointer and on the selected cell, then
  // the tile placed as previewed.
  await page.click('.choices button[data-choice="e"]');
  await page.waitForSelector('.choices button[data-choice="e"][aria-pressed="true"]');
  // r turns the tile to the next orientation, shift-r back.
  await page.keyboard.press('r');
  await page.waitForSelector('.choices button[data-choice="s"][aria-pressed="true"]');
  await page.keyboard.press('Shift+R');
  await page.waitForSelector('.choices button[data-choice="e"][aria-pressed="true"]');
  await page.hover(cellSelector('b1'));
  const preview = 'svg.board [data-preview-at="b1"]';
  await page.waitForSelector(`${preview}[data-kind="tile-e"]`);
  const faint = await page.$eval(preview, (el) => Number(getComputedStyle(el).opacity));
  check(faint > 0 && faint < 1, `the preview's opacity is ${faint}`);
  check((await darkSide(preview)) === 'east', "the preview of an e tile is not dark on the east");
  await page.click(cellSelector('b1'));
  await page.waitForSelector(`${preview}[data-kind="tile-e"]`);
  check((await api('GET', `/api/games/${id}`)).ply === 0, 'the first click on a cell placed the tile');
  await page.click(cellSelector('b1'));
  await waitMoves(page, 1);
  const placed = await api('GET', `/api/games/${id}`);
  check(placed.moves[0] === 'b1e', `the tile placed is ${placed.moves[0]}, not b1e`);
  await page.waitForSelector(`${piece('b1')}[data-kind="tile-e"]`);
  check((await darkSide(piece('b1'))) === 'east', 'the placed e tile is not dark on the east');
  check(!(await page.$(preview)), 'the preview is still drawn after the move');

  // Black fills the frame; the streets of both sides light up.
  await api('POST', `/api/games/${id}/moves`, { token: tokens.black, move: 'd1n' });
  await page.waitForSelector('#result:not([hidden])');
  const over = await api('GET', `/api/games/${id}`);
  check(over.status === 'over' && over.result.score, `the game is ${over.status}`);
  const breakdown = (await page.textContent('#result')) || '';
  check(breakdown.includes(over.result.score.breakdown), `the result panel lacks the breakdown: ${breakdown}`);
  const lit = async (side) => {
    const want = over.highlights.filter((h) => h.side === side);
    try {
      await page.waitForFunction((n) => document.querySelectorAll('svg.board .highlights .highlight').length === n, want.length, { timeout: 5000 });
    } catch {
      const have = await page.$$eval('svg.board .highlight', (els) => els.length);
      throw new Failure(`${have} streets lit on the ${side}, the server names ${want.length}`);
    }
    const shown = await page.$$eval('svg.board .highlight', (els) => els.map((e) => `${e.dataset.owner}:${e.dataset.value}:${e.querySelector('title').textContent}`).sort());
    const expected = want.map((h) => `${h.owner}:${h.value}:${h.label}`).sort();
    check(JSON.stringify(shown) === JSON.stringify(expected), `the ${side} lights ${shown.join(' | ')}, expected ${expected.join(' | ')}`);
    const listed = await page.$$eval('#highlight-list li', (els) => els.length);
    check(listed === want.length, `${listed} streets listed under the ${side}, expected ${want.length}`);
    return want;
  };
  const front = await lit('front');
  check(front.length > 0, 'no street on the front');
  const screenshots = [];
  if (straatScreenshot) screenshots.push(await page.screenshot({ fullPage: true }));
  await page.click('#turn-over');
  await page.waitForSelector('svg.board.mirrored');
  const back = await lit('back');
  check(back.length === 1 && back[0].owner === 'white' && back[0].value === 2, `the back's streets: ${JSON.stringify(back.map((h) => h.label))}`);
  const edge = await page.$eval('svg.board .highlight .edge', (el) => el.getAttribute('d'));
  check(edge.length > 0, 'the street on the back has no outline');
  if (screenshots.length) {
    screenshots.push(await page.locator('.board-col').screenshot());
    // Both sides in one picture for docs/straat-end.png.
    const [frontPng, backPng] = screenshots.map((b) => `data:image/png;base64,${b.toString('base64')}`);
    const sheet = await context.newPage();
    await sheet.setViewportSize({ width: 2000, height: 600 });
    await sheet.setContent(`<body style="margin:0;background:#f4efe6;display:flex;gap:8px;align-items:flex-start"><img src="${frontPng}"><img src="${backPng}" style="margin-top:70px"></body>`);
    await sheet.waitForFunction(() => [...document.images].every((i) => i.complete));
    await sheet.screenshot({ path: STRAAT_SCREENSHOT, fullPage: true });
    await sheet.close();
  }

  // The back in a replay: the start position's tiles, no streets yet.
  await page.click('#replay-first');
  await page.waitForFunction(() => document.querySelector('#replay-ply').textContent.trim().startsWith('0 /'));
  await page.waitForFunction(() => document.querySelectorAll('svg.board .pieces [data-kind="solid"]').length === 14);
  check(!(await page.$('svg.board .highlight')), 'streets are lit at the start of the replay');
  check((await label()) === 'Back (mirrored)', `in the replay the side is "${await label()}"`);

  // straat-flip: a tile laid solid face up shows its split face on the back, mirrored.
  const flip = await api('POST', '/api/games', { ruleset: 'straat-flip', white: { kind: 'human' }, black: { kind: 'human' }, position: '4/4/4/E*3 b' });
  await page.goto(`${base}/#/game/${flip.id}`);
  await page.waitForSelector(`${piece('a1')}[data-kind="solid"]`);
  const flipRight = await centreX(cellSelector('d1'));
  await page.click('#turn-over');
  await page.waitForSelector(`${piece('a1')}[data-kind="tile-e"]`);
  check((await darkSide(piece('a1'))) === 'west', 'the back of an e tile is not dark on the west, as seen from behind');
  check(Math.abs((await centreX(piece('a1'))) - flipRight) < 2, 'the back of a1 is not at the right edge');
  await context.close();
});

/** The legal move written `text` in `view`. */
function moveNamed(view, text) {
  const move = (view.legal_moves || []).find((m) => m.text === text);
  check(move, `${text} is not among the legal moves: ${(view.legal_moves || []).map((m) => m.text).join(' ')}`);
  return move;
}

/** Confirms a secret choice (Trangalla's king) just clicked on `page`: the page asks first. */
async function confirmChoice(page, cell) {
  try {
    await page.waitForSelector('#choice-confirm', { state: 'visible', timeout: 10_000 });
  } catch {
    throw new Failure(`no confirm step after clicking ${cell}`);
  }
  const question = await page.textContent('#choice-question');
  check(question.includes(cell), `the confirm step asks "${question}", not about ${cell}`);
  await page.click('#choice-confirm');
}

/** The pieces drawn on a page's board: `at:owner:kind`, sorted. */
const drawnPieces = (page) =>
  page.$$eval('svg.board g.piece', (els) => els.map((e) => `${e.dataset.at}:${e.dataset.owner}:${e.dataset.kind}`).sort());

/** Every frame a page receives over its game socket, as text. */
function socketFrames(page) {
  const frames = [];
  page.on('websocket', (ws) => {
    if (/\/api\/games\/[^/]+\/ws/.test(ws.url())) ws.on('framereceived', (f) => frames.push(String(f.payload)));
  });
  return frames;
}

test('p. Trangalla between two browsers: each sees his own king only, the record shows both at the end', async (problems) => {
  const contextA = await newContext();
  const contextB = await newContext();
  const a = await contextA.newPage();
  const b = await contextB.newPage();
  watchPage(a, 'p/A', problems);
  watchPage(b, 'p/B', problems);
  const framesA = socketFrames(a);
  const framesB = socketFrames(b);
  const id = await createInLobby(a, { ruleset: 'trangalla', opponent: 'link', colour: 'white' });
  await a.waitForSelector('#invite-link', { state: 'visible' });
  const link = await a.inputValue('#invite-link');
  await b.goto(link);
  await b.waitForSelector(cellSelector('d4'));
  const mineA = await seatsOf(a, id);
  const mineB = await seatsOf(b, id);
  // White chooses his king on b2 by clicking it, Black on d4.
  let view = await waitView(id, mineA.white, (v) => v.to_move === 'white' && v.legal_moves.length > 0, 'White to choose');
  await clickMove(a, view, moveNamed(view, 'K@b2'));
  await confirmChoice(a, 'b2');
  view = await waitView(id, mineB.black, (v) => v.to_move === 'black' && v.legal_moves.length > 0, 'Black to choose');
  await clickMove(b, view, moveNamed(view, 'K@d4'));
  await confirmChoice(b, 'd4');
  await waitMoves(a, 2);
  await waitMoves(b, 2);
  await a.waitForFunction(() => document.querySelectorAll('svg.board g.piece[data-kind="king"]').length === 1);
  const seenA = await drawnPieces(a);
  const seenB = await drawnPieces(b);
  check(seenA.includes('b2:white:king'), `A does not see his king: ${seenA.join(' ')}`);
  check(seenA.includes('d4:black:unknown'), `A should see d4 as unknown: ${seenA.join(' ')}`);
  check(!seenA.some((p) => p.includes('black:king')), `A sees Black's king: ${seenA.join(' ')}`);
  check(seenB.includes('d4:black:king') && !seenB.some((p) => p.includes('white:king')), `B sees: ${seenB.join(' ')}`);
  const listA = await moveTexts(a);
  check(listA[1] === 'K@?', `A's move list shows Black's setup as ${listA[1]}`);
  check((await moveTexts(b))[0] === 'K@?', 'B sees White\'s setup move');
  // A step each, then White resigns: now everybody sees everything.
  view = await waitView(id, mineA.white, (v) => v.to_move === 'white' && v.legal_moves.length > 0, 'White to move');
  await clickMove(a, view, clickableMove(view, 'c1-d1'));
  await waitMoves(b, 3);
  const socketText = [...framesA, ...framesB].join('\n');
  check(!/"K@d4"/.test(framesA.join('\n')), 'A received Black\'s setup move over the socket');
  check(!/"K@b2"/.test(framesB.join('\n')), 'B received White\'s setup move over the socket');
  check(socketText.length > 0, 'no socket frames');
  await api('POST', `/api/games/${id}/resign`, { token: mineA.white });
  await b.waitForFunction(() => document.querySelectorAll('svg.board g.piece[data-kind="king"]').length === 2, null, { timeout: 10_000 });
  const finalB = await waitMoves(b, 3);
  check(finalB[0] === 'K@b2' && finalB[1] === 'K@d4', `after the end B's move list is ${finalB.join(' ')}`);
  await contextA.close();
  await contextB.close();
});

test('q. Trangalla on one screen: each turn starts behind a "pass the device" screen', async (problems) => {
  const context = await newContext();
  const page = await context.newPage();
  watchPage(page, 'q', problems);
  const id = await createInLobby(page, { ruleset: 'trangalla', opponent: 'local' });
  await page.waitForSelector('#pass-screen:not([hidden])');
  const text = await page.textContent('#pass-text');
  check(/Pass the device to White/.test(text), `the pass screen says: ${text}`);
  check((await drawnPieces(page)).length === 0, 'pieces are drawn behind the pass screen');
  await page.click('#pass-ready');
  await page.waitForSelector('#pass-screen', { state: 'hidden' });
  const mine = await seatsOf(page, id);
  let view = await waitView(id, mine.white, (v) => v.to_move === 'white' && v.legal_moves.length > 0, 'White to choose');
  await clickMove(page, view, moveNamed(view, 'K@b2'));
  await confirmChoice(page, 'b2');
  // Black's turn: covered again until Black says he has the device; then White's king is hidden.
  await page.waitForSelector('#pass-screen:not([hidden])');
  check(/Black/.test(await page.textContent('#pass-text')), 'the pass screen does not name Black');
  check((await drawnPieces(page)).length === 0, 'pieces are drawn behind the pass screen');
  await page.click('#pass-ready');
  await page.waitForSelector('#pass-screen', { state: 'hidden' });
  await page.waitForFunction(() => document.querySelectorAll('svg.board g.piece').length === 10);
  const seen = await drawnPieces(page);
  check(!seen.some((p) => p.includes('king')), `Black sees a king before choosing his own: ${seen.join(' ')}`);
  check(seen.includes('b2:white:unknown'), `Black should see b2 as unknown: ${seen.join(' ')}`);
  view = await waitView(id, mine.black, (v) => v.to_move === 'black' && v.legal_moves.length > 0, 'Black to choose');
  await clickMove(page, view, moveNamed(view, 'K@d4'));
  await confirmChoice(page, 'd4');
  await page.waitForSelector('#pass-screen:not([hidden])');
  await page.click('#pass-ready');
  await page.waitForFunction(() => document.querySelectorAll('svg.board g.piece').length === 10);
  const white = await drawnPieces(page);
  check(white.includes('b2:white:king') && white.includes('d4:black:unknown'), `White sees: ${white.join(' ')}`);
  await context.close();
});

test('r. a forced capture: the capturing man is ringed as due, a click on another man says why; checkers names its first player Black', async (problems) => {
  // White men on c3 and a1, a black man on d4: c3xe5 (11x18) is White's only move.
  const { id, tokens, context, page } = await openCreated('r', problems, {
    ruleset: 'english', white: { kind: 'human' }, black: { kind: 'human' }, position: '8/8/8/8/3m4/2M5/8/M7 w',
  });
  await page.waitForSelector(`${cellSelector('c3')}.movable`);
  const rings = await page.$$eval('svg.board .dests circle.can-move.must:not(.halo)', (cs) => cs.length);
  check(rings === 1, `${rings} pieces are ringed as due to capture, not 1 (c3)`);
  check(!(await page.$(`${cellSelector('a1')}.movable`)), 'a1 cannot move while a capture is due, yet is marked movable');
  // Checkers players call the first player Black and play the dark men: the rules' White here.
  const seat = (await page.textContent('li.player.white strong')).trim();
  check(seat === 'Black', `the first player is called "${seat}"`);
  const { board } = await api('GET', '/api/rulesets/english');
  const fill = await page.$eval('svg.board g.piece[data-at="c3"] circle.disc', (c) => c.getAttribute('fill'));
  check(fill === board.legend.palette.black_piece, `the first player's man on c3 is drawn in ${fill}, not the dark colour`);
  await page.click(cellSelector('a1'));
  const hint = (await page.textContent('.board-hint')).trim();
  check(/capture is compulsory/i.test(hint) && /marked pieces must capture/.test(hint), `after a click on a1 the board says "${hint}"`);
  // Destinations show on the dark squares: a dot with a light halo under it.
  await page.click(cellSelector('c3'));
  await page.waitForSelector(`${cellSelector('e5')}.target`);
  const dot = await page.$$eval('svg.board .dests circle.dest', (cs) => cs.map((c) => c.getAttribute('class')));
  check(dot.includes('dest halo') && dot.includes('dest'), `the destination marks are ${JSON.stringify(dot)}`);
  check((await page.textContent('.board-hint')).trim() === '', 'the hint stays after a click that selected a piece');
  await page.click(cellSelector('e5'));
  const view = await waitView(id, tokens.black, (v) => v.ply === 1, 'the capture played');
  check(view.moves[0] === '11x18', `the move played is ${view.moves[0]}`);
  await context.close();
});

test('s. with --public-url, invite links start with the address a friend elsewhere can reach', async (problems) => {
  const port = Number(new URL(base).port);
  const publicUrl = 'http://denkmeter.test:9000';
  await stopServer();
  await startServer(port, ['--public-url', `${publicUrl}/`]);
  try {
    const info = await api('GET', '/api/server');
    check(info.public_url === publicUrl, `/api/server says ${JSON.stringify(info)}`);
    const context = await newContext();
    const page = await context.newPage();
    watchPage(page, 's', problems);
    const id = await createInLobby(page, { ruleset: 'english', opponent: 'link', colour: 'white' });
    await page.waitForFunction((url) => document.querySelector('#invite-link').value.startsWith(url), publicUrl);
    const link = await page.inputValue('#invite-link');
    check(link.startsWith(`${publicUrl}/#/game/${id}?token=`), `the invite link is ${link}`);
    check(!(await page.isVisible('#invite-local')), 'with a public address the page still says the link is local');
    await context.close();
  } finally {
    await stopServer();
    await startServer(port);
  }
});

test('t. cell names on demand: every point of a Sjekkers board named on its drawing', async (problems) => {
  const { id, tokens, context, page } = await openCreated('t', problems, { ruleset: 'sjekkers', white: { kind: 'human' }, black: { kind: 'human' } });
  await page.waitForSelector('svg.board .cell.movable');
  check(!(await page.$('svg.board .cell-name')), 'cell names are drawn before they are asked for');
  await page.click('#cell-names');
  const view = await api('GET', `/api/games/${id}?token=${tokens.white}`);
  const names = await page.$$eval('svg.board .cell-name', (ts) => ts.map((t) => t.textContent));
  const all = view.board.cells.map((c) => c.name);
  check(names.length === all.length && all.every((n) => names.includes(n)), `${names.length} of ${all.length} cells named`);
  // The first legal move's cells can be found by their names.
  const first = clickableMove(view);
  for (const i of clickPath(first)) check(names.includes(view.board.cells[i].name), `${view.board.cells[i].name} of ${first.text} is not named`);
  check((await page.getAttribute('#cell-names', 'aria-pressed')) === 'true', 'the toggle does not say it is on');
  await page.click('#cell-names');
  check(!(await page.$('svg.board .cell-name')), 'cell names stay after they are turned off');
  await context.close();
});

test('u. a hint: asked for, marked on the board, then played', async (problems) => {
  const { id, tokens, context, page } = await openCreated('u', problems, ENGLISH_AGAINST_LEVEL_1);
  await page.waitForSelector('svg.board .cell.movable');
  await page.click('button[data-action=hint]');
  await page.waitForFunction(() => document.querySelector('.board-hint').textContent.startsWith('Hint: '), null, { timeout: 20_000 });
  const text = (await page.textContent('.board-hint')).replace('Hint: ', '').trim();
  const view = await api('GET', `/api/games/${id}?token=${tokens.white}`);
  const move = view.legal_moves.find((m) => m.text === text);
  check(move, `the hint ${text} is not a legal move`);
  const marked = await page.$$eval('svg.board .mark.hint', (ms) => ms.length);
  check(marked === clickPath(move).length, `${marked} cells marked for the hint ${text}`);
  check(view.ply === 0, 'asking for a hint played a move');
  await clickMove(page, view, move);
  await waitView(id, tokens.white, (v) => v.ply === 2, 'the computer to answer');
  await page.waitForFunction(() => !document.querySelector('svg.board .mark.hint'));
  check(!(await page.textContent('.board-hint')).startsWith('Hint'), 'the hint stays after it was played');
  await context.close();
});

test('v. the lobby: a random colour, and a game started from a position string', async (problems) => {
  const context = await newContext();
  const page = await context.newPage();
  // The bad position string below is refused with a 400, which the browser logs.
  watchPage(page, 'v', problems, /status of 400/);
  const id = await createInLobby(page, { ruleset: 'english', opponent: 'computer', level: 1, colour: 'random' });
  const mine = await seatsOf(page, id);
  check(Boolean(mine.white) !== Boolean(mine.black), `a random colour should keep one seat: ${JSON.stringify(mine)}`);
  const you = mine.white ? 'white' : 'black';
  const seen = await api('GET', `/api/games/${id}?token=${mine[you]}`);
  check(seen.you === you && seen[you === 'white' ? 'black' : 'white'].kind === 'computer', `the game's seats are ${JSON.stringify([seen.white, seen.black])}`);

  await page.goto(`${base}/#/`);
  await page.waitForSelector('#ruleset option[value="english"]', { state: 'attached' });
  await page.selectOption('#ruleset', 'english');
  await page.check('input[name=opponent][value=local]');
  await page.click('#position-field summary');
  await page.waitForFunction(() => document.getElementById('position').placeholder.endsWith(' w'));
  await page.fill('#position', 'nonsense');
  await page.click('#start');
  await page.waitForSelector('#lobby-error:not([hidden])');
  const error = await page.textContent('#lobby-error');
  check(/position/i.test(error), `a bad position string says: ${error}`);
  await page.fill('#position', '8/8/8/8/3m4/2M5/8/M7 w');
  // The position analysed before it is played: the capture is the best line's first move.
  await page.click('#analyse-position');
  await page.waitForFunction(() => /Best line: 11x18/.test(document.getElementById('position-analysis').textContent), null, { timeout: 20_000 });
  const analysed = await page.textContent('#position-analysis');
  check(/^For Black to move: /.test(analysed), `the analysis reads "${analysed}"`);
  await page.click('#start');
  const fromPosition = await gameIdOf(page);
  await page.waitForSelector('svg.board .cell.movable');
  const pieces = await page.$$eval('svg.board g.piece', (ps) => ps.map((p) => p.dataset.at).sort());
  check(pieces.join(' ') === 'a1 c3 d4', `the game from the position shows pieces on ${pieces.join(' ')}`);
  const tokens = await seatsOf(page, fromPosition);
  const view = await api('GET', `/api/games/${fromPosition}?token=${tokens.white}`);
  check(view.legal_moves.length === 1 && view.legal_moves[0].text === '11x18', `legal moves: ${view.legal_moves.map((m) => m.text)}`);
  await context.close();
});

test('w. earlier positions of a game in progress are looked at without leaving it', async (problems) => {
  const { id, tokens, context, page } = await openCreated('w', problems, ENGLISH_AGAINST_LEVEL_1);
  let view = await waitView(id, tokens.white, (v) => v.legal_moves.length > 0, 'White to move');
  await clickMove(page, view, clickableMove(view));
  view = await waitView(id, tokens.white, (v) => v.ply === 2 && v.legal_moves.length > 0, 'the computer to answer');
  await waitMoves(page, 2);
  await page.waitForSelector('#replay', { state: 'visible' });
  await page.click('#replay-first');
  await page.waitForFunction(() => document.querySelector('#replay-ply').textContent.trim() === '0 / 2');
  const caption = await page.textContent('.board-caption');
  check(/earlier position/.test(caption), `browsing back the board says "${caption}"`);
  const men = await page.$$eval('svg.board g.piece', (ps) => ps.map((p) => p.dataset.at));
  check(men.includes('c3') && men.includes('f6') && men.length === 24, 'the start position is not shown');
  check(!(await page.$('svg.board .cell.movable')), 'a move can be started on an earlier position');
  check(await page.isHidden('#move-entry'), 'a move can be typed while an earlier position is shown');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#replay-ply').textContent.trim() === '1 / 2');
  await page.click('#replay-last');
  await page.waitForSelector('svg.board .cell.movable');
  check(!(await page.isVisible('.board-caption')), 'the earlier-position caption stays after returning');
  await clickMove(page, view, clickableMove(view));
  await waitView(id, tokens.white, (v) => v.ply >= 3, 'the move made after browsing');
  await context.close();
});

test('x. a move made with the keyboard alone: Tab to the board, arrows, Enter', async (problems) => {
  // White men on c3 and a1, a black man on d4: c3xe5 (11x18) is White's only move.
  const { id, tokens, context, page } = await openCreated('x', problems, {
    ruleset: 'english', white: { kind: 'human' }, black: { kind: 'human' }, position: '8/8/8/8/3m4/2M5/8/M7 w',
  });
  await page.waitForSelector(`${cellSelector('c3')}.movable`);
  await page.focus('svg.board');
  // The first arrow shows the cursor on the piece that can move.
  await page.keyboard.press('ArrowUp');
  const cursorAt = () => page.$$eval('svg.board .mark.cursor', (ms) => ms.length);
  check((await cursorAt()) === 1, 'no keyboard cursor is drawn on the focused board');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${cellSelector('e5')}.target`);
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowUp', 'ArrowUp']) await page.keyboard.press(key);
  await page.keyboard.press('Enter');
  const view = await waitView(id, tokens.black, (v) => v.ply === 1, 'the capture made by keyboard');
  check(view.moves[0] === '11x18', `the keyboard played ${view.moves[0]}`);
  await context.close();
});

test('y. a finished game analysed position by position', async (problems) => {
  const { id, tokens } = await api('POST', '/api/games', { ruleset: 'english', white: { kind: 'human' }, black: { kind: 'human' } });
  await api('POST', `/api/games/${id}/moves`, { token: tokens.white, move: '11-15' });
  await api('POST', `/api/games/${id}/moves`, { token: tokens.black, move: '22-18' });
  await api('POST', `/api/games/${id}/resign`, { token: tokens.white });
  const context = await newContext();
  const page = await context.newPage();
  watchPage(page, 'y', problems);
  await page.goto(`${base}/#/game/${id}`);
  await page.waitForSelector('#analyse', { state: 'visible' });
  await page.click('#analyse');
  await page.waitForFunction(() => /Best line: 15x22/.test(document.getElementById('analysis').textContent), null, { timeout: 20_000 });
  // Another position: the old analysis goes, a new one comes.
  await page.click('#replay-first');
  await page.waitForFunction(() => document.querySelector('#replay-ply').textContent.trim() === '0 / 2');
  check((await page.textContent('#analysis')).trim() === '', 'the analysis of move 2 stays on the start position');
  await page.click('#analyse');
  // English checkers calls its first player Black, as checkers players do.
  await page.waitForFunction(() => /After move 0, for Black to move/.test(document.getElementById('analysis').textContent), null, { timeout: 20_000 });
  // A click on the board of a finished game leaves the arrow keys to the position controls.
  await page.click(cellSelector('c3'));
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#replay-ply').textContent.trim() === '1 / 2', null, { timeout: 5000 });
  await context.close();
});

test('A. a takeback against the computer, and one asked for and accepted between two browsers', async (problems) => {
  // Against the computer: the move and the reply go at once, and the board shows the start again.
  const { id, tokens, context, page } = await openCreated('A', problems, ENGLISH_AGAINST_LEVEL_1);
  await page.waitForSelector('svg.board .cell.movable');
  let view = await api('GET', `/api/games/${id}?token=${tokens.white}`);
  await clickMove(page, view, moveNamed(view, '11-15'));
  await waitMoves(page, 2);
  await page.click('button[data-action=takeback]');
  await waitView(id, tokens.white, (v) => v.ply === 0 && v.to_move === 'white', 'the move and the reply taken back');
  await page.waitForSelector('svg.board g.piece[data-at="c3"]');
  check(!(await page.$('svg.board g.piece[data-at="d4"]')), 'the man taken back still stands on d4');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 0, null, { timeout: 5000 });
  // The game goes on from there.
  view = await api('GET', `/api/games/${id}?token=${tokens.white}`);
  await clickMove(page, view, moveNamed(view, '10-14'));
  await waitView(id, tokens.white, (v) => v.ply === 2 && v.moves[0] === '10-14', 'a new move and its reply');
  await context.close();

  // Between people: White asks, Black sees the request and accepts it in another browser.
  const game = await openCreated('A white', problems, { ruleset: 'english', white: { kind: 'human' }, black: { kind: 'human' } });
  await api('POST', `/api/games/${game.id}/moves`, { token: game.tokens.white, move: '11-15' });
  const black = await newContext();
  const other = await black.newPage();
  watchPage(other, 'A black', problems);
  await other.goto(`${base}/#/game/${game.id}?token=${game.tokens.black}`);
  await game.page.waitForSelector('button[data-action=takeback]');
  await game.page.click('button[data-action=takeback]');
  await other.waitForSelector('button[data-action=takeback-accept]');
  const status = (await other.textContent('#status')).trim();
  check(/Black asks to take back a move/.test(status), `Black's page says "${status}"`);
  await other.click('button[data-action=takeback-accept]');
  await waitView(game.id, game.tokens.white, (v) => v.ply === 0 && v.takeback_offer === null, 'the takeback accepted');
  await game.page.waitForSelector('svg.board g.piece[data-at="c3"]');
  await other.waitForSelector('svg.board g.piece[data-at="c3"]');
  await black.close();
  await game.context.close();
});

test('B. a timed game: the clocks count down, and the server ends it on time', async (problems) => {
  // The lobby's clock reaches the server.
  const context = await newContext();
  const lobby = await context.newPage();
  watchPage(lobby, 'B', problems);
  const id = await createInLobby(lobby, { ruleset: 'chad', opponent: 'computer', level: 1, colour: 'white', clock: 'main:180:2' });
  const created = await api('GET', `/api/games/${id}`);
  check(created.clock && created.clock.kind === 'main' && created.clock.main_ms === 180_000 && created.clock.increment_ms === 2000, `the lobby's 3 min + 2 s made ${JSON.stringify(created.clock)}`);
  await lobby.waitForSelector('#players .clock[data-seat="white"]');
  await lobby.waitForSelector('#players .clock[data-seat="black"]');
  await context.close();

  // Two seconds a move on one screen: after the first moves (not timed) White's clock runs
  // down, nobody moves, White loses.
  const game = await openCreated('B', problems, { ruleset: 'chad', white: { kind: 'human' }, black: { kind: 'human' }, clock: { move_seconds: 2 } });
  await game.page.waitForSelector('#players .clock[data-seat="white"]');
  await api('POST', `/api/games/${game.id}/moves`, { token: game.tokens.white, move: 'C5-A5' });
  await api('POST', `/api/games/${game.id}/moves`, { token: game.tokens.black, move: 'I8-I5' });
  await game.page.waitForSelector('#players .clock.running[data-seat="white"]');
  check(await game.page.$('#status .clock[data-seat="white"]'), 'the status does not show the running clock (on a phone, the players list is below the fold)');
  const first = Number(await game.page.textContent('#players .clock.running'));
  await game.page.waitForFunction((t) => Number(document.querySelector('#players .clock.running').textContent) < t - 0.5, first, { timeout: 3000 });
  check(await game.page.$('#players .clock.low'), 'the last seconds are not marked');
  await game.page.waitForFunction(() => /wins on time/.test(document.getElementById('result').textContent), null, { timeout: 5000 });
  const result = (await game.page.textContent('#result')).trim();
  check(/Black wins on time: White's clock ran out/.test(result), `the result reads "${result}"`);
  check((await game.page.textContent('#players .clock[data-seat="white"]')).trim() === '0.0', 'the loser\'s clock does not show 0.0');
  const record = await (await fetch(`${base}/api/games/${game.id}/record.pgn`)).text();
  check(record.includes('[Termination "time forfeit"]'), `the record does not say time forfeit:\n${record}`);
  await game.context.close();
});

// One ruleset of every family, as the README's games table shows them.
const START_POSITIONS = [
  'chad', 'shakti', 'schada', 'scandinavian', 'scandinavian-8x8', 'international', 'english',
  'sjekkers', 'kamelen', 'fort-chitral', 'straat', 'trangalla',
];

test('z. Every game starts with its pieces drawn as pieces: figures, not letters', async (problems) => {
  const context = await newContext({ viewport: { width: 900, height: 1000 } });
  try {
    const page = await context.newPage();
    watchPage(page, 'z', problems);
    for (const ruleset of START_POSITIONS) {
      const { id, tokens } = await api('POST', '/api/games', {
        ruleset,
        white: { kind: 'human' },
        black: { kind: 'computer', level: 1 },
      });
      const { board } = await api('GET', `/api/rulesets/${ruleset}`);
      const styles = new Map(board.legend.pieces.map((p) => [p.kind, p]));
      await page.goto(`${base}/#/game/${id}?token=${tokens.white}`);
      await page.waitForSelector('svg.board [data-cell]', { timeout: 10_000 });
      const pieces = await page.$$eval('svg.board g.pieces g.piece', (gs) =>
        gs.map((g) => ({
          kind: g.dataset.kind,
          at: g.dataset.at,
          emblem: g.querySelector('path.emblem')?.getAttribute('d') || null,
          text: g.querySelector('text')?.textContent || '',
          discs: g.querySelectorAll('circle.disc').length,
        })),
      );
      if (ruleset !== 'straat') check(pieces.length > 0, `${ruleset}: no piece is drawn at the start`);
      for (const p of pieces) {
        const style = styles.get(p.kind);
        check(style, `${ruleset}: the piece on ${p.at} is of a kind (${p.kind}) the legend does not know`);
        check(p.emblem === (style.emblem_path || null), `${ruleset}: the ${p.kind} on ${p.at} does not bear its figure (${style.emblem})`);
        check(p.text === (style.emblem_text || ''), `${ruleset}: the ${p.kind} on ${p.at} bears the text "${p.text}"`);
        if (style.shape === 'stacked') check(p.discs === 2, `${ruleset}: the ${p.kind} on ${p.at} is not two stacked discs`);
      }
      const target = startScreenshots ? path.join(IMAGES, `start-${ruleset}.png`) : path.join(os.tmpdir(), `denkmeter-start-${process.pid}.png`);
      await page.locator('svg.board').first().screenshot({ path: target });
      check(statSync(target).size > 2000, `${ruleset}: the screenshot of the start is empty`);
    }
    // The figures are the game's own: no draughts man, Chad rook or Kamelen camel bears a letter.
    const english = await api('GET', '/api/rulesets/english');
    check(english.board.legend.pieces.every((p) => !p.emblem_text), 'English checkers pieces bear letters');
  } finally {
    await context.close();
  }
});

test('D. draughts in numbers: the squares numbered on the board, moves typed as 32-28 and 28x19', async (problems) => {
  // The refused move below is answered 422, which the browser logs.
  const { id, tokens, context, page } = await openCreated('D', problems, {
    ruleset: 'international', white: { kind: 'human' }, black: { kind: 'human' },
  }, 'white', /status of 422/);
  await page.waitForSelector('svg.board .cell.movable');
  const button = (await page.textContent('#cell-names')).trim();
  check(button === 'Square numbers', `the board's names button reads "${button}"`);
  // Numbered without asking (check I).
  await page.waitForSelector('svg.board .cell-names text.number');
  const numbers = await page.$$eval('svg.board .cell-names text.number', (ts) => ts.map((t) => Number(t.textContent)));
  const expected = Array.from({ length: 50 }, (_, i) => i + 1);
  check(JSON.stringify([...numbers].sort((a, b) => a - b)) === JSON.stringify(expected), `the squares are numbered ${numbers.join(' ')}`);
  // Square 1 is in the top left corner as White sees the board (b10), 46 in the bottom left (a1).
  const corner = await page.$$eval('svg.board .cell-names text.number', (ts) => {
    const at = (n) => ts.find((t) => t.textContent === String(n));
    const xy = (t) => [Number(t.getAttribute('x')), Number(t.getAttribute('y'))];
    return { one: xy(at(1)), five: xy(at(5)), fortySix: xy(at(46)) };
  });
  check(corner.one[1] < corner.fortySix[1] && corner.one[0] < corner.five[0], `square 1 is at ${corner.one}, 5 at ${corner.five}, 46 at ${corner.fortySix}`);
  // A move typed in numbers is played and listed in numbers.
  await page.fill('#move-text', '32-28');
  await page.press('#move-text', 'Enter');
  let view = await waitView(id, tokens.white, (v) => v.ply === 1, 'the typed move');
  check(view.moves[0] === '32-28', `the typed move was played as ${view.moves[0]}`);
  const listed = await waitMoves(page, 1);
  check(listed.some((m) => m.includes('32-28')), `the move list shows ${listed.join(' ')}`);
  check(await page.isHidden('#move-entry'), 'the move box stays open while the other side is to move');
  await api('POST', `/api/games/${id}/moves`, { token: tokens.black, move: '19-23' });
  await page.waitForSelector('#move-entry', { state: 'visible' });
  // A move that cannot be played says why and keeps the text; a capture typed the short way.
  await page.fill('#move-text', '31-27');
  await page.press('#move-text', 'Enter');
  await page.waitForSelector('#message:not([hidden])');
  const said = await page.textContent('#message-text');
  check(/31-27 was not accepted/.test(said) && /captur/i.test(said), `a move refused because a capture is due says "${said}"`);
  check((await page.inputValue('#move-text')) === '31-27', 'the refused move text was cleared');
  await page.fill('#move-text', '28x19');
  await page.press('#move-text', 'Enter');
  view = await waitView(id, tokens.white, (v) => v.ply === 3, 'the typed capture');
  check(view.moves[2] === '28x19', `the typed capture was played as ${view.moves[2]}`);
  try {
    await page.waitForFunction(() => document.getElementById('move-text').value === '', null, { timeout: 5000 });
  } catch {
    throw new Failure('the played move stays in the box');
  }
  await context.close();
});

test('E. a PDN game pasted in the lobby is played on, then downloaded as PDN', async (problems) => {
  const context = await newContext();
  const page = await context.newPage();
  watchPage(page, 'E', problems);
  await page.goto(`${base}/#/`);
  await page.waitForSelector('#ruleset option[value="english"]', { state: 'attached' });
  await page.selectOption('#ruleset', 'english');
  await page.waitForSelector('#pdn-field', { state: 'visible' });
  await page.check('input[name=opponent][value=local]');
  await page.click('#pdn-field summary');
  // An Open Checker Archive opening without a GameType: the game chosen names its rules.
  await page.fill('#pdn', '[Event "Edinburgh 1847"]\n[Black "Anderson, A."]\n[White "Wyllie, J."]\n1. 11-15 22-17 2. 8-11 23-19 *');
  // Analysed where it stands before it is played on: Black (the first player) to move.
  await page.click('#analyse-pdn');
  await page.waitForFunction(() => /Best line: \d+[-x]\d+/.test(document.getElementById('pdn-analysis').textContent), null, { timeout: 20_000 });
  const analysed = await page.textContent('#pdn-analysis');
  check(/for Black to move/.test(analysed), `the pasted game's analysis reads "${analysed}"`);
  await page.click('#start');
  const id = await gameIdOf(page);
  const mine = await seatsOf(page, id);
  let view = await waitView(id, mine.white, (v) => v.ply === 4, 'the pasted moves');
  check(view.ruleset === 'english' && view.moves.join(' ') === '11-15 22-17 8-11 23-19', `the game came in as ${view.ruleset}: ${view.moves.join(' ')}`);
  await waitMoves(page, 4);
  await page.fill('#move-text', '9-13');
  await page.press('#move-text', 'Enter');
  view = await waitView(id, mine.white, (v) => v.ply === 5, 'the move after the pasted ones');
  await page.waitForSelector('#download-pdn', { state: 'visible' });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-pdn')]);
  const text = readFileSync(await download.path(), 'utf8');
  check(/\[GameType "21"\]/.test(text) && /1\. 11-15 22-17 2\. 8-11 23-19 3\. 9-13 \*/.test(text), `the PDN downloaded reads:\n${text}`);
  // Other games offer no PDN.
  await page.goto(`${base}/#/`);
  await page.selectOption('#ruleset', 'chad');
  check(await page.isHidden('#pdn-field'), 'Chad offers to bring in a PDN game');
  await context.close();
});

test('C. every game, against the computer on a clock: a move, a takeback, a hint, resigning, the analysis', async (problems) => {
  const context = await newContext({ viewport: { width: 375, height: 667 } });
  try {
    const page = await context.newPage();
    watchPage(page, 'C', problems);
    for (const ruleset of START_POSITIONS) {
      const { id, tokens } = await api('POST', '/api/games', {
        ruleset,
        white: { kind: 'human' },
        black: { kind: 'computer', level: 1 },
        clock: { main_seconds: 600, increment_seconds: 5 },
      });
      const white = await openSeat(page, id, tokens.white);
      // The clocks start after the first moves; the computer is on the clock too.
      await page.waitForSelector('#players .clock[data-seat="white"]');
      await page.waitForSelector('#players .clock[data-seat="black"]');
      // The first legal move, sent as a click would send it, and the computer's reply.
      const view = await api('GET', `/api/games/${id}?token=${white}`);
      await api('POST', `/api/games/${id}/moves`, { token: white, move: view.legal_moves[0].text });
      await waitMoves(page, 2);
      if (view.hidden_information) {
        // A takeback would show what is hidden: none against the computer.
        check(!(await page.$('button[data-action=takeback]')), `${ruleset}: a takeback is offered against the computer`);
        await api('POST', `/api/games/${id}/takeback`, { token: white, action: 'offer' }).then(
          () => check(false, `${ruleset}: the server took a move back against the computer`),
          (e) => check(/409/.test(e.message), `${ruleset}: the takeback was refused with ${e.message}`),
        );
      } else {
        await page.click('button[data-action=takeback]');
        try {
          await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 0, null, { timeout: 5000 });
        } catch {
          throw new Failure(`${ruleset}: the takeback left moves in the list`);
        }
      }
      await page.click('button[data-action=hint]');
      try {
        await page.waitForFunction(() => document.querySelector('.board-hint').textContent.startsWith('Hint: '), null, { timeout: 30_000 });
      } catch {
        throw new Failure(`${ruleset}: no hint shown: "${await page.textContent('.board-hint')}"`);
      }
      await page.click('button[data-action=resign]');
      await page.click('button[data-action=resign]');
      await page.waitForSelector('#analyse', { state: 'visible' });
      await page.click('#analyse');
      try {
        await page.waitForFunction(() => /^After move \d+/.test(document.getElementById('analysis').textContent), null, { timeout: 30_000 });
      } catch {
        throw new Failure(`${ruleset}: no analysis shown: "${await page.textContent('#analysis')}"`);
      }
    }
  } finally {
    await context.close();
  }
});

// One ruleset of each family, for the layout checks.
const FAMILIES = ['chad', 'schada', 'shakti', 'scandinavian', 'international', 'english', 'sjekkers', 'straat', 'kamelen', 'fort-chitral', 'trangalla'];

test('F. every family fits the screen at 1280x800 and 375x667: the board, the key and the controls of a move', async (problems) => {
  const sizes = [
    { width: 1280, height: 800 },
    { width: 375, height: 667, phone: true },
  ];
  for (const { width, height, phone } of sizes) {
    const context = await newContext({ viewport: { width, height }, ...(phone ? { isMobile: true, hasTouch: true } : {}) });
    try {
      const page = await context.newPage();
      watchPage(page, `F/${width}`, problems);
      for (const ruleset of FAMILIES) {
        const { id, tokens } = await api('POST', '/api/games', { ruleset, white: { kind: 'human' }, black: { kind: 'human' } });
        // One page for every game: the app follows the address.
        const white = await openSeat(page, id, tokens.white);
        const { display_name: shown } = await api('GET', `/api/games/${id}`);
        await page.waitForFunction((r) => document.querySelector('#game-title') && document.querySelector('svg.board [data-cell]') && /your move/i.test(document.querySelector('#status').textContent) && document.title.startsWith(r), shown);
        const where = `${ruleset} at ${width}x${height}`;
        const m = await page.evaluate(() => {
          const box = (el) => {
            if (!el || el.hidden) return null;
            const r = el.getBoundingClientRect();
            return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height };
          };
          const key = document.querySelector('.board-key');
          return {
            board: box(document.querySelector('svg.board')),
            key: box(key),
            keyClipped: key ? key.scrollWidth > key.clientWidth + 1 || key.scrollHeight > key.clientHeight + 1 : false,
            hint: box(document.querySelector('.board-hint')),
            choices: box(document.querySelector('.choices')),
            status: box(document.querySelector('#status')),
            actions: box(document.querySelector('#actions button')),
            scrollWidth: document.documentElement.scrollWidth,
            innerWidth: window.innerWidth,
            scrollY: window.scrollY,
          };
        });
        const inView = (b, what) => {
          check(b, `${where}: no ${what}`);
          check(b.left >= 0 && b.right <= width + 0.5 && b.top >= 0 && b.bottom <= height + 0.5,
            `${where}: the ${what} spans ${Math.round(b.left)}..${Math.round(b.right)} x ${Math.round(b.top)}..${Math.round(b.bottom)} px, outside the ${width}x${height} screen`);
        };
        check(m.scrollY === 0, `${where}: the page opened scrolled to ${m.scrollY}`);
        check(m.scrollWidth <= m.innerWidth, `${where}: the page scrolls sideways (${m.scrollWidth} px of content in ${m.innerWidth})`);
        inView(m.board, 'board');
        check(m.board.width >= Math.min(width, height) * 0.4, `${where}: the board is only ${Math.round(m.board.width)} px wide`);
        inView(m.hint, 'line under the board');
        // The key: whole, not clipped, in view with the board.
        check(m.key, `${where}: no key`);
        check(!m.keyClipped, `${where}: the key is clipped`);
        inView(m.key, 'key');
        // The controls a move needs: the choice buttons when a move needs a choice (Straat's
        // orientations), and on a phone whose turn it is and the buttons under the board.
        const view = await api('GET', `/api/games/${id}?token=${white}`);
        if (view.legal_moves.some((mv) => mv.choice)) inView(m.choices, 'choice buttons');
        if (phone) {
          inView(m.status, 'status');
          inView(m.actions, 'first action button');
        }
      }
    } finally {
      await context.close();
    }
  }
});

/** A colour `#rrggbb`, `#rrggbbaa` or `rgb(a)(...)` as [r, g, b, alpha]. */
function parseColour(text) {
  const t = String(text).trim();
  let m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})?$/i.exec(t);
  if (m) return [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16), m[4] ? parseInt(m[4], 16) / 255 : 1];
  m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:[,\s/]+([\d.]+))?\s*\)$/.exec(t);
  if (m) return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])];
  throw new Failure(`cannot read the colour ${t}`);
}

/** How different two opaque colours look: CIE76 ΔE*ab, as the legend's check measures it. */
function colourDistance(a, b) {
  const lab = ([r, g, bl]) => {
    const lin = (c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    const [R, G, B] = [lin(r), lin(g), lin(bl)];
    const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
    const fx = f((0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047);
    const fy = f(0.2126 * R + 0.7152 * G + 0.0722 * B);
    const fz = f((0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883);
    return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
  };
  const [p, q] = [lab(a), lab(b)];
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

/** The colour seen where `top` (with its opacity) lies over the opaque `below`. */
const blend = (top, below) => [0, 1, 2].map((i) => top[3] * top[i] + (1 - top[3]) * below[i]);

test('G. highlights that do not collide: a Kamelen hint unlike every cell; rings on Sjekkers points beside the capture cross', async (problems) => {
  const context = await newContext();
  try {
    // Kamelen: the hint's tint over each of its cells looks like no kind of cell of the board.
    const kamelen = await api('POST', '/api/games', { ruleset: 'kamelen', white: { kind: 'human' }, black: { kind: 'human' } });
    const page = await context.newPage();
    watchPage(page, 'G', problems);
    await page.goto(`${base}/#/game/${kamelen.id}?token=${kamelen.tokens.white}`);
    await page.waitForSelector('svg.board .cell.movable');
    await page.click('button[data-action=hint]');
    await page.waitForSelector('svg.board .mark.hint', { timeout: 30_000 });
    const hinted = await page.$$eval('svg.board .mark.hint', (marks) =>
      marks.map((mark) => {
        const x = mark.getAttribute('x');
        const y = mark.getAttribute('y');
        const cell = [...document.querySelectorAll('svg.board rect.cell')].find((c) => c.getAttribute('x') === x && c.getAttribute('y') === y);
        const style = getComputedStyle(mark);
        return { tag: mark.tagName, fill: style.fill, opacity: Number(style.fillOpacity) * Number(style.opacity), under: cell ? getComputedStyle(cell).fill : null, name: cell && cell.dataset.cell };
      }),
    );
    check(hinted.length >= 2, `${hinted.length} cells marked for the hint`);
    const legend = (await api('GET', `/api/games/${kamelen.id}`)).board.legend;
    const fills = legend.cells.map((c) => ({ words: c.words, colour: parseColour(c.fill) }));
    for (const h of hinted) {
      check(h.tag === 'rect' && h.under, `the hint on a square is a ${h.tag} over ${h.under}`);
      const tint = parseColour(h.fill);
      tint[3] *= h.opacity;
      const seen = blend(tint, parseColour(h.under));
      for (const f of fills) {
        const d = colourDistance(seen, f.colour);
        check(d >= 25, `the hint on ${h.name} looks like ${f.words} (ΔE ${d.toFixed(1)})`);
      }
    }
    await page.close();

    // Sjekkers: White's disk on e5 captures; Black asks for a hint. The last move and the hint
    // are rings round their points, clear of the neighbouring points and of the capture cross.
    const sj = await api('POST', '/api/games', { ruleset: 'sjekkers', white: { kind: 'human' }, black: { kind: 'human' }, position: '5/6/7/4d3/3dDd3/3dd3/7/6/5 w' });
    const before = await api('GET', `/api/games/${sj.id}?token=${sj.tokens.white}`);
    const capture = before.legal_moves.find((mv) => (mv.captured || []).length);
    check(capture, `no capture among ${before.legal_moves.map((mv) => mv.text).join(' ')}`);
    await api('POST', `/api/games/${sj.id}/moves`, { token: sj.tokens.white, move: capture.text });
    const board = await context.newPage();
    watchPage(board, 'G/sjekkers', problems);
    await board.goto(`${base}/#/game/${sj.id}?token=${sj.tokens.black}`);
    await board.waitForSelector('svg.board .mark.taken');
    await board.click('button[data-action=hint]');
    await board.waitForSelector('svg.board .mark.hint', { timeout: 30_000 });
    const drawn = await board.$eval('svg.board', (svg) => {
      const all = [...svg.querySelectorAll('.mark')].filter((m) => !m.classList.contains('cursor'));
      const order = [...svg.querySelectorAll('*')];
      const cross = svg.querySelector('.mark.taken');
      const box = cross.getBBox();
      return {
        marks: all.map((m) => ({
          tag: m.tagName,
          klass: m.getAttribute('class'),
          cx: Number(m.getAttribute('cx')),
          cy: Number(m.getAttribute('cy')),
          r: Number(m.getAttribute('r')),
          width: parseFloat(getComputedStyle(m).strokeWidth),
          fill: getComputedStyle(m).fill,
          at: order.indexOf(m),
        })),
        cross: { x: box.x + box.width / 2, y: box.y + box.height / 2, reach: Math.hypot(box.width, box.height) / 2, at: order.indexOf(cross), opacity: Number(getComputedStyle(cross).opacity) },
        points: [...svg.querySelectorAll('.cell.pt .dot')].map((d) => [Number(d.getAttribute('cx')), Number(d.getAttribute('cy'))]),
      };
    });
    const rings = drawn.marks.filter((m) => !/taken/.test(m.klass));
    const lastRings = rings.filter((m) => /\blast\b/.test(m.klass));
    const hintRings = rings.filter((m) => /\bhint\b/.test(m.klass));
    check(lastRings.length === clickPath(capture).length, `${lastRings.length} marks for the last move ${capture.text}`);
    check(hintRings.length >= 2, `${hintRings.length} marks for the hint`);
    for (const ring of rings) {
      check(ring.tag === 'circle' && ring.fill === 'none', `a point is marked by a ${ring.tag} filled ${ring.fill}, not a ring (${ring.klass})`);
      const inner = ring.r - ring.width / 2;
      const outer = ring.r + ring.width / 2;
      check(inner >= 0.39 && outer <= 0.5, `the ring ${ring.klass} spans ${inner.toFixed(3)}..${outer.toFixed(3)}: it should lie between a piece (0.39) and half way to the next point (0.5)`);
      check(drawn.points.some(([x, y]) => Math.hypot(x - ring.cx, y - ring.cy) < 1e-3), `the ring ${ring.klass} at ${ring.cx},${ring.cy} is on no point`);
      // The cross of the captured disk stays clear: no ring reaches it.
      const gap = Math.hypot(ring.cx - drawn.cross.x, ring.cy - drawn.cross.y) - outer;
      check(gap > drawn.cross.reach || Math.hypot(ring.cx - drawn.cross.x, ring.cy - drawn.cross.y) + outer < 0 || inner > drawn.cross.reach + Math.hypot(ring.cx - drawn.cross.x, ring.cy - drawn.cross.y),
        `the ring ${ring.klass} at ${ring.cx},${ring.cy} covers the capture cross at ${drawn.cross.x.toFixed(2)},${drawn.cross.y.toFixed(2)}`);
    }
    // Rings of one point nest without overlapping much; rings of different points never touch.
    for (const [i, a] of rings.entries()) {
      for (const b of rings.slice(i + 1)) {
        const apart = Math.hypot(a.cx - b.cx, a.cy - b.cy);
        if (apart < 1e-3) {
          check(a.klass === b.klass || Math.abs(a.r - b.r) >= (a.width + b.width) / 2 - 0.011, `the rings ${a.klass} and ${b.klass} on one point cover each other`);
        } else {
          check(apart >= a.r + a.width / 2 + b.r + b.width / 2, `the rings ${a.klass} and ${b.klass} of neighbouring points overlap`);
        }
      }
    }
    check(drawn.cross.opacity >= 0.8, `the capture cross is drawn at opacity ${drawn.cross.opacity}`);
    await board.close();
  } finally {
    await context.close();
  }
});

test('N. an invite link is used up by the friend who opens it: the creator drops it, a third browser watches without kings', async (problems) => {
  const contexts = [await newContext(), await newContext(), await newContext()];
  const [a, b, c] = await Promise.all(contexts.map((context) => context.newPage()));
  watchPage(a, 'N/A', problems);
  watchPage(b, 'N/B', problems);
  // The third browser's claim is refused (401), which chromium logs.
  watchPage(c, 'N/C', problems, /401/);
  const id = await createInLobby(a, { ruleset: 'trangalla', opponent: 'link', colour: 'white' });
  await a.waitForSelector('#invite-link', { state: 'visible' });
  const link = await a.inputValue('#invite-link');
  const invite = new URL(link.replace('#/', '')).searchParams.get('token');
  check((await seatsOf(a, id)).invite === invite, 'the creator does not keep the invite before it is used');
  await b.goto(link);
  await b.waitForSelector(cellSelector('d4'));
  await b.waitForFunction(() => !location.hash.includes('token='));
  const mineB = await seatsOf(b, id);
  check(mineB.black && mineB.black !== invite, 'the friend does not hold a Black token of his own');
  // The creator's page drops the invite box and forgets the invite, without a reload.
  await a.waitForSelector('#invite', { state: 'hidden', timeout: 8_000 });
  const mineA = await seatsOf(a, id);
  check(mineA.white && !mineA.invite && !mineA.inviteSeat, `the creator's page still keeps ${JSON.stringify(mineA)}`);
  // Kings on b2 and d4 by clicking, then six steps: eight plies.
  let view = await waitView(id, mineA.white, (v) => v.to_move === 'white' && v.legal_moves.length > 0, 'White to choose');
  await clickMove(a, view, moveNamed(view, 'K@b2'));
  await confirmChoice(a, 'b2');
  view = await waitView(id, mineB.black, (v) => v.to_move === 'black' && v.legal_moves.length > 0, 'Black to choose');
  await clickMove(b, view, moveNamed(view, 'K@d4'));
  await confirmChoice(b, 'd4');
  for (const [n, move] of ['c1-d1', 'c5-b5', 'd1-e1', 'b5-a5', 'b1-c1', 'd5-c5'].entries()) {
    await api('POST', `/api/games/${id}/moves`, { token: n % 2 ? mineB.black : mineA.white, move });
  }
  await waitMoves(a, 8);
  await waitMoves(b, 8);
  check(await a.isHidden('#invite'), 'the invite box came back on the creator\'s page');
  // The used invite holds nothing: no view (and so no king), no move.
  const seen = await fetch(`${base}/api/games/${id}?token=${encodeURIComponent(invite)}`);
  const seenText = await seen.text();
  check(seen.status === 401 && /invite link has been used/.test(seenText), `the used invite is answered ${seen.status}: ${seenText.slice(0, 200)}`);
  check(!/king/.test(seenText), 'the used invite is shown a king');
  const moved = await fetch(`${base}/api/games/${id}/moves`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: invite, move: 'e1-e2' }) });
  check(moved.status === 401, `a move with the used invite is answered ${moved.status}`);
  // A third browser opening the used link is told the seat is taken, and watches.
  await c.goto(link);
  await c.waitForSelector(cellSelector('d4'));
  await c.waitForFunction(() => /invite link has been used/.test(document.querySelector('#message').textContent));
  await waitMoves(c, 8);
  const mineC = await c.evaluate((key) => JSON.parse(localStorage.getItem(key) || '{}'), `denkmeter.game.${id}`);
  check(!mineC.white && !mineC.black, `the third browser holds a seat: ${JSON.stringify(mineC)}`);
  const seenC = await drawnPieces(c);
  check(seenC.length > 0 && !seenC.some((p) => p.endsWith(':king')), `the third browser sees a king: ${seenC.join(' ')}`);
  check(!(await c.$('svg.board .cell.movable')), 'the third browser may move');
  for (const context of contexts) await context.close();
});

test('H. Trangalla: the page asks for the king, has the choice confirmed, and marks it for its owner alone', async (problems) => {
  const PROMPT = 'Choose your king: click the piece that will be your king (only you will see it)';
  // Against the computer: nothing is sent before the confirmation, and it can be changed.
  const context = await newContext();
  const page = await context.newPage();
  watchPage(page, 'H', problems);
  const id = await createInLobby(page, { ruleset: 'trangalla', opponent: 'computer', level: 1, colour: 'white' });
  await page.waitForSelector('#secret-choice', { state: 'visible' });
  const asked = (await page.textContent('#secret-choice-text')).trim();
  check(asked === PROMPT, `the page asks "${asked}"`);
  check(await page.isHidden('#secret-note'), 'a king is noted before one is chosen');
  const mine = await seatsOf(page, id);
  let view = await waitView(id, mine.white, (v) => v.legal_moves.length > 0, 'White to choose');
  check(view.secret_choice === PROMPT, `the view asks ${JSON.stringify(view.secret_choice)}`);
  await clickMove(page, view, moveNamed(view, 'K@c1'));
  await page.waitForSelector('#choice-confirm', { state: 'visible' });
  await sleep(300);
  check((await api('GET', `/api/games/${id}`)).ply === 0, 'the king was sent before it was confirmed');
  await page.click('#choice-cancel');
  await page.waitForSelector('#choice-confirm', { state: 'hidden' });
  check((await api('GET', `/api/games/${id}`)).ply === 0, 'a cancelled choice was sent');
  check(await page.isVisible('#secret-choice'), 'the question went away with the cancelled choice');
  await clickMove(page, view, moveNamed(view, 'K@b2'));
  await confirmChoice(page, 'b2');
  view = await waitView(id, mine.white, (v) => v.ply >= 2, 'the computer to choose its king');
  check(view.moves[0] === 'K@b2', `White's choice was played as ${view.moves[0]}`);
  await page.waitForSelector('#secret-note', { state: 'visible' });
  const note = (await page.textContent('#secret-note')).trim();
  check(/Your king is on b2/.test(note) && /only you/.test(note), `the note reads "${note}"`);
  check(await page.isHidden('#secret-choice'), 'the question stays after the choice');
  await page.waitForSelector(`svg.board g.piece[data-at="b2"][data-kind="king"]`);
  await context.close();

  // Between two browsers and a spectator: each sees a note of his own king only.
  const contextA = await newContext();
  const contextB = await newContext();
  const contextS = await newContext();
  const a = await contextA.newPage();
  const b = await contextB.newPage();
  const s = await contextS.newPage();
  watchPage(a, 'H/A', problems);
  watchPage(b, 'H/B', problems);
  watchPage(s, 'H/S', problems);
  const framesB = socketFrames(b);
  const framesS = socketFrames(s);
  const game = await createInLobby(a, { ruleset: 'trangalla', opponent: 'link', colour: 'white' });
  await a.waitForSelector('#invite-link', { state: 'visible' });
  await b.goto(await a.inputValue('#invite-link'));
  await s.goto(`${base}/#/game/${game}`);
  await b.waitForSelector(cellSelector('d4'));
  await s.waitForSelector(cellSelector('d4'));
  const seatsA = await seatsOf(a, game);
  const seatsB = await seatsOf(b, game);
  check(await b.isHidden('#secret-choice'), 'Black is asked for his king on White\'s turn');
  view = await waitView(game, seatsA.white, (v) => v.to_move === 'white' && v.legal_moves.length > 0, 'White to choose');
  await clickMove(a, view, moveNamed(view, 'K@b2'));
  await confirmChoice(a, 'b2');
  await b.waitForSelector('#secret-choice', { state: 'visible' });
  check(await b.isHidden('#secret-note'), 'Black is told of a king before choosing his own');
  view = await waitView(game, seatsB.black, (v) => v.to_move === 'black' && v.legal_moves.length > 0, 'Black to choose');
  await clickMove(b, view, moveNamed(view, 'K@d4'));
  await confirmChoice(b, 'd4');
  await a.waitForFunction(() => /Your king is on b2/.test(document.getElementById('secret-note').textContent));
  await b.waitForFunction(() => /Your king is on d4/.test(document.getElementById('secret-note').textContent));
  await waitMoves(s, 2);
  check(await s.isHidden('#secret-note'), 'the spectator is shown a king note');
  check(await s.isHidden('#secret-choice'), 'the spectator is asked for a king');
  const spectator = await api('GET', `/api/games/${game}`);
  check(spectator.secret_note === null && spectator.secret_choice === null, 'the spectator\'s view carries a secret');
  const other = await api('GET', `/api/games/${game}?token=${seatsB.black}`);
  check(!/b2/.test(other.secret_note || ''), `Black's view notes ${other.secret_note}`);
  check(!/on b2/.test(framesB.join('\n')) && !/on (b2|d4)/.test(framesS.join('\n')), 'a king note reached the other player or the spectator over the socket');
  await contextA.close();
  await contextB.close();
  await contextS.close();
});

test('I. international and English boards show the square numbers by default; letters on request, kept', async (problems) => {
  const context = await newContext();
  const page = await context.newPage();
  watchPage(page, 'I', problems);
  const numbersOn = async (ruleset, count) => {
    const { id } = await api('POST', '/api/games', { ruleset, white: { kind: 'human' }, black: { kind: 'human' } });
    await page.goto(`${base}/#/game/${id}`);
    await page.waitForSelector('svg.board .cell');
    await sleep(200);
    const numbers = await page.$$eval('svg.board .cell-names text.number', (ts) => ts.length);
    check(numbers === 0 || numbers === count, `${ruleset}: ${numbers} squares numbered, not ${count}`);
    return numbers === count;
  };
  check(await numbersOn('international', 50), 'international: the squares are not numbered by default');
  check((await page.getAttribute('#cell-names', 'aria-pressed')) === 'true', 'the numbers button does not say it is on');
  const files = await page.$$eval('svg.board .coords text.file', (ts) => ts.map((t) => t.textContent).join(''));
  check(files === 'abcdefghij', `the letters along the edge are ${files}`);
  check(await numbersOn('english', 32), 'english: the squares are not numbered by default');
  // Turned off: the letters alone, on this board and the next ones (kept in the browser).
  await page.click('#cell-names');
  await page.waitForSelector('svg.board .cell-names', { state: 'detached' });
  check(!(await numbersOn('international', 50)), 'international: the numbers came back after being turned off');
  check((await page.getAttribute('#cell-names', 'aria-pressed')) === 'false', 'the numbers button says it is on');
  await page.click('#cell-names');
  await page.waitForSelector('svg.board .cell-names text.number');
  check(await numbersOn('english', 32), 'english: the numbers turned back on are not kept');
  // Boards without numbers write no names unless asked.
  const { id } = await api('POST', '/api/games', { ruleset: 'chad', white: { kind: 'human' }, black: { kind: 'human' } });
  await page.goto(`${base}/#/game/${id}`);
  await page.waitForSelector('svg.board .cell');
  check(!(await page.$('svg.board .cell-names')), 'a Chad board has its cell names written without asking');
  await context.close();
});

test('J. clocks start with the first moves, and the computer plays on its own clock', async (problems) => {
  const context = await newContext();
  const page = await context.newPage();
  watchPage(page, 'J', problems);
  const id = await createInLobby(page, { ruleset: 'chad', opponent: 'computer', level: 1, colour: 'white', clock: 'main:180:2' });
  const clockText = async (seat) => (await page.textContent(`#players .clock[data-seat="${seat}"]`)).trim();
  const clockOf = (ms) => `${Math.floor(ms / 60_000)}:${String(Math.floor(ms / 1000) % 60).padStart(2, '0')}`;
  await page.waitForSelector('#players .clock[data-seat="white"]');
  check(await clockText('black') === '3:00', `the computer's seat shows ${await clockText('black')}, not its clock`);
  check(!(await page.$('#players .clock.untimed')), 'a seat still says it has no clock');
  await page.waitForSelector('#status .first-move');
  const first = await page.textContent('#status .first-move');
  check(/clocks start after each side's first move/.test(first), `the status says "${first}"`);
  await sleep(1200);
  const before = await clockText('white');
  check(before === '3:00', `White's clock ran before the first move: ${before}`);
  check(!(await page.$('#players .clock.running')), 'a clock runs before the first move');
  const mine = await seatsOf(page, id);
  const move = async (ply) => {
    const view = await api('GET', `/api/games/${id}?token=${mine.white}`);
    await api('POST', `/api/games/${id}/moves`, { token: mine.white, move: view.legal_moves[0].text });
    await waitMoves(page, ply);
  };
  await move(2);
  await page.waitForSelector('#players .clock.running[data-seat="white"]');
  check(!(await page.$('#status .first-move')), 'the first-move words stay after the first moves');
  const after = await api('GET', `/api/games/${id}`);
  check(after.clock.white_ms <= 180_000 && after.clock.running === 'white' && after.clock.black_ms === 180_000, `the clock after the first moves: ${JSON.stringify(after.clock)}`);
  // The computer's second reply is charged and earns the increment: its clock moves on the page.
  await move(4);
  const charged = await api('GET', `/api/games/${id}`);
  const black = charged.clock.black_ms;
  check(black > 170_000 && black <= 182_000 && black !== 180_000, `the computer's clock after its reply: ${JSON.stringify(charged.clock)}`);
  await page.waitForFunction((text) => document.querySelector('#players .clock[data-seat="black"]').textContent.trim() === text, clockOf(black), { timeout: 5000 }).catch(() => {});
  check(await clockText('black') === clockOf(black), `the page shows the computer's clock as ${await clockText('black')}, the server ${black} ms`);
  await context.close();
});

test('K. rulesets by their names for people in the lobby, titles and recent games; "You are watching"', async (problems) => {
  const context = await newContext();
  const page = await context.newPage();
  watchPage(page, 'K', problems);
  const { id } = await api('POST', '/api/games', { ruleset: 'fort-chitral', white: { kind: 'human' }, black: { kind: 'human' } });
  await page.goto(`${base}/#/`);
  await page.waitForSelector('#ruleset option[value="scandinavian-8x8-medium-free"]', { state: 'attached' });
  const option = (value) => page.textContent(`#ruleset option[value="${value}"]`);
  check((await option('fort-chitral')) === 'Fort Chitral', `fort-chitral is offered as "${await option('fort-chitral')}"`);
  const scandinavian = await option('scandinavian-8x8-medium-free');
  check(scandinavian === 'Scandinavian checkers 8x8, medium men, free line', `scandinavian-8x8-medium-free is offered as "${scandinavian}"`);
  const groups = await page.$$eval('#ruleset optgroup', (gs) => gs.map((g) => g.label));
  check(groups.includes('Scandinavian checkers') && groups.includes('Fort Chitral'), `the lobby's groups: ${groups.join(', ')}`);
  await page.waitForSelector(`.game-link[data-game="${id}"]`);
  const row = await page.$eval(`.game-link[data-game="${id}"]`, (a) => a.closest('tr').textContent);
  check(row.includes('Fort Chitral') && !row.includes('fort-chitral'), `the recent games list it as ${row.replace(/\s+/g, ' ')}`);
  // A spectator: the game's name for people, and words saying he watches.
  await page.goto(`${base}/#/game/${id}`);
  await page.waitForSelector('#watching', { state: 'visible' });
  check(/You are watching/.test(await page.textContent('#watching')), 'the spectator is not told he is watching');
  check((await page.textContent('#game-title')).trim() === 'Fort Chitral', `the game is titled ${await page.textContent('#game-title')}`);
  check((await page.title()) === 'Fort Chitral – Denkmeter', `the page is titled ${await page.title()}`);
  // A player is not told he watches.
  const own = await api('POST', '/api/games', { ruleset: 'scandinavian-weak', white: { kind: 'human' }, black: { kind: 'computer', level: 1 } });
  await page.goto(`${base}/#/game/${own.id}?token=${own.tokens.white}`);
  await page.waitForSelector('svg.board .cell.movable');
  check(await page.isHidden('#watching'), 'a player is told he is watching');
  check((await page.textContent('#game-title')).trim() === 'Scandinavian checkers 10x10, weak men', `the game is titled ${await page.textContent('#game-title')}`);
  await context.close();
});

// ---------------------------------------------------------------------------------------------
// Accounts, players and ratings (docs/api.md, "Players and ratings")

const PASSWORD = 'horse battery staple';

/** Signs `name` up through the API; returns the session cookie's value. */
async function signUpApi(name, password = PASSWORD) {
  const r = await fetch(`${base}/api/account/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ name, password }),
  });
  const text = await r.text();
  check(r.status === 201, `signing up ${name} answered ${r.status}: ${text.slice(0, 200)}`);
  const m = /denkmeter_session=([^;]+)/.exec(r.headers.get('set-cookie') || '');
  check(m, `signing up ${name} set no session cookie`);
  return m[1];
}

/** A request of the signed-in player whose session is `session`, as the server's pages send it. */
const apiAs = (session, method, route, body) => api(method, route, body, { cookie: `denkmeter_session=${session}`, origin: base });

/** A browser context signed in with `session`. */
async function signedInContext(session, options = {}) {
  const context = await newContext(options);
  await context.addCookies([{ name: 'denkmeter_session', value: session, url: base }]);
  return context;
}

/**
 * A rated Chad blitz game of the player of `session` (White) against the computer at level 1,
 * lost by resigning after both sides have moved; returns its id and final view.
 */
async function ratedLoss(session) {
  const { id, tokens } = await apiAs(session, 'POST', '/api/games', {
    ruleset: 'chad',
    white: { kind: 'human' },
    black: { kind: 'computer', level: 1 },
    clock: { main_seconds: 180, increment_seconds: 2 },
    me: 'white',
    rated: true,
  });
  const view = await waitView(id, tokens.white, (v) => v.legal_moves.length > 0, 'White to move');
  await api('POST', `/api/games/${id}/moves`, { token: tokens.white, move: view.legal_moves[0].text });
  await waitView(id, tokens.white, (v) => v.ply >= 2 && v.to_move === 'white' && !v.thinking, "the computer's reply");
  const over = await api('POST', `/api/games/${id}/resign`, { token: tokens.white });
  return { id, view: over };
}

/** Waits until the header shows `name` signed in (null: nobody signed in). */
async function headerShows(page, name, timeout = 5000) {
  try {
    await page.waitForFunction((n) => {
      const nav = document.getElementById('account-nav');
      const link = document.getElementById('account-name');
      return n ? Boolean(link) && link.textContent === n : Boolean(nav) && nav.dataset.state === 'out';
    }, name, { timeout });
  } catch {
    const seen = await page.textContent('#account-nav').catch(() => '?');
    throw new Failure(`the header should show ${name ? `${name} signed in` : 'nobody signed in'}; it shows "${seen}"`);
  }
}

/** The text of `selector` once it shows. */
async function shownText(page, selector, timeout = 5000) {
  try {
    await page.waitForSelector(`${selector}:not([hidden])`, { timeout });
  } catch {
    throw new Failure(`${selector} never showed`);
  }
  return (await page.textContent(selector)).trim();
}

/** Clicks the lobby's start button; returns the game's id, or fails with the lobby's words. */
async function startFromLobby(page) {
  await page.click('#start');
  try {
    await page.waitForFunction(() => /#\/game\//.test(location.hash) || (document.getElementById('lobby-error') && !document.getElementById('lobby-error').hidden), null, { timeout: 10_000 });
  } catch {
    throw new Failure('the lobby neither started the game nor said why');
  }
  if (!/#\/game\//.test(page.url())) throw new Failure(`the lobby did not start the game: ${(await page.textContent('#lobby-error')).trim()}`);
  return gameIdOf(page);
}

test('P. accounts: signed up, out and in, a wrong password, a name taken, a new password, the account deleted', async (problems) => {
  const name = 'Pauline_P';
  const NEW = 'a brand new passphrase';
  const context = await newContext();
  const other = await newContext();
  try {
    const page = await context.newPage();
    // Refusals (401, 409) are logged by the browser.
    watchPage(page, 'P', problems, /status of 40[19]/);
    await page.goto(`${base}/#/`);
    await headerShows(page, null);
    // The header's "Sign up" opens its form with the name field focused: the keyboard alone.
    await page.click('#sign-up-link');
    await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'signup-name');
    const fields = await page.$$eval('#account input:not([hidden])', (els) => els.map((e) => ({ id: e.id, labelled: e.labels.length > 0, auto: e.getAttribute('autocomplete') })));
    check(fields.length === 4, `the account page has ${fields.length} fields, not 4`);
    for (const f of fields) {
      check(f.labelled && ['username', 'current-password', 'new-password'].includes(f.auto), `the field ${f.id}: labelled ${f.labelled}, autocomplete="${f.auto}"`);
    }
    await page.keyboard.type(name);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await headerShows(page, name);
    check((await page.getAttribute('#account-name', 'href')) === `#/player/${name}`, 'the name in the header does not link to the player\'s page');
    const welcome = await shownText(page, '#account-notice');
    check(welcome.includes(name), `after signing up the page says "${welcome}"`);
    check(!(await page.evaluate(() => document.cookie)).includes('denkmeter_session'), 'the page can read the session cookie');

    // Another browser cannot take the name.
    const second = await other.newPage();
    watchPage(second, 'P/2', problems, /status of 409/);
    await second.goto(`${base}/#/account?form=signup`);
    await second.fill('#signup-name', name);
    await second.fill('#signup-password', 'another fine password');
    await second.click('#signup-form button[type=submit]');
    const taken = await shownText(second, '#signup-error');
    check(taken.includes(`the name "${name}" is taken`), `signing up a taken name says "${taken}"`);
    await headerShows(second, null);

    // Signed out from the header, then in again (the name in lower case), after a wrong password.
    await page.click('#sign-out');
    await headerShows(page, null);
    await page.waitForSelector('#signin-form');
    await page.click('#sign-in-link');
    await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'signin-name');
    await page.fill('#signin-name', name.toLowerCase());
    await page.fill('#signin-password', 'not the password');
    await page.press('#signin-password', 'Enter');
    const wrong = await shownText(page, '#signin-error');
    check(wrong === 'wrong name or password', `a wrong password says "${wrong}"`);
    await headerShows(page, null);
    await page.fill('#signin-password', PASSWORD);
    await page.press('#signin-password', 'Enter');
    // The name as it was written at sign-up.
    await headerShows(page, name);

    // A new password, after a wrong current one.
    await page.fill('#password-current', 'not the password');
    await page.fill('#password-new', NEW);
    await page.press('#password-new', 'Enter');
    const refused = await shownText(page, '#password-error');
    check(/wrong password/.test(refused), `a wrong current password says "${refused}"`);
    await page.fill('#password-current', PASSWORD);
    await page.fill('#password-new', NEW);
    await page.press('#password-new', 'Enter');
    await shownText(page, '#password-done');
    check(await page.isHidden('#password-error'), 'the error stays after the password was changed');

    // Deleting asks again on the page; the old password no longer does.
    await page.fill('#delete-password', PASSWORD);
    await page.press('#delete-password', 'Enter');
    await page.waitForSelector('#delete-confirm:not([hidden])');
    check(await page.evaluate(() => document.activeElement.id === 'delete-yes'), 'the confirm step does not focus its button');
    await page.keyboard.press('Enter');
    const old = await shownText(page, '#delete-error');
    check(/wrong password/.test(old), `deleting with the old password says "${old}"`);
    await headerShows(page, name);
    await page.fill('#delete-password', NEW);
    await page.click('#delete-start');
    check(await page.isVisible('#delete-confirm'), 'no confirm step before deleting');
    check(await page.isHidden('#delete-start'), 'the delete button stays beside the confirm step');
    await page.click('#delete-yes');
    await headerShows(page, null);
    const deleted = await shownText(page, '#account-notice');
    check(deleted.includes(`${name} is deleted`), `after deleting the page says "${deleted}"`);
    // The account is gone: signing in fails, in the same words as a wrong password.
    await page.fill('#signin-name', name);
    await page.fill('#signin-password', NEW);
    await page.press('#signin-password', 'Enter');
    const gone = await shownText(page, '#signin-error');
    check(gone === 'wrong name or password', `signing in to a deleted account says "${gone}"`);
    await headerShows(page, null);
  } finally {
    await context.close();
    await other.close();
  }
});

test('U. the lobby\'s Rated box says what a rated game needs; the header fits a phone, signed in or out', async (problems) => {
  const context = await newContext({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    watchPage(page, 'U', problems);
    await page.goto(`${base}/#/`);
    await page.waitForSelector('#ruleset option[value="chad"]', { state: 'attached' });
    await headerShows(page, null);
    // One line, nothing outside it, no sideways scrolling.
    const fits = async (what) => {
      const m = await page.evaluate(() => {
        const header = document.querySelector('header.top').getBoundingClientRect();
        const links = [...document.querySelectorAll('header.top a, header.top button')]
          .filter((e) => e.offsetParent !== null)
          .map((e) => {
            const r = e.getBoundingClientRect();
            return { text: e.textContent.trim(), left: r.left, right: r.right, bottom: r.bottom };
          });
        return { height: header.height, bottom: header.bottom, links, sw: document.documentElement.scrollWidth, iw: window.innerWidth };
      });
      check(m.sw <= m.iw, `${what}: the page scrolls sideways (${m.sw} px in ${m.iw})`);
      check(m.height < 56, `${what}: the header is ${Math.round(m.height)} px high, more than one line`);
      for (const l of m.links) {
        check(l.left >= 0 && l.right <= m.iw + 0.5 && l.bottom <= m.bottom + 0.5, `${what}: "${l.text}" spans ${Math.round(l.left)}..${Math.round(l.right)} px, outside the header`);
      }
      return m.links.map((l) => l.text);
    };
    const out = await fits('signed out');
    check(out.includes('Sign in') && out.includes('Sign up') && out.includes('Leaderboard'), `signed out, the header shows ${out.join(', ')}`);
    const why = async () => (await page.textContent('#rated-why')).trim();
    check(await page.isDisabled('#rated'), 'Rated can be ticked signed out');
    check(await page.$('#rated-why a[href="#/account?form=signin"]'), `signed out, the Rated box says "${await why()}"`);

    // Signed in, with the longest name there may be.
    const name = 'Ursula_with_20_chars';
    await context.addCookies([{ name: 'denkmeter_session', value: await signUpApi(name), url: base }]);
    await page.reload();
    await headerShows(page, name);
    const links = await fits('signed in');
    check(links.includes('Sign out'), `signed in, the header shows ${links.join(', ')}`);
    await page.waitForSelector('#ruleset option[value="chad"]', { state: 'attached' });
    await page.selectOption('#ruleset', 'chad');
    await page.check('input[name=opponent][value=computer]');
    check((await page.isDisabled('#rated')) && /needs a clock/.test(await why()), `without a clock the Rated box says "${await why()}"`);
    await page.selectOption('#clock', 'main:180:2');
    check((await page.isEnabled('#rated')) && (await why()) === 'Counts for your Chad blitz rating.', `with 3 min + 2 s the Rated box says "${await why()}"`);
    await page.check('#rated');
    await page.selectOption('#clock', 'move:30');
    check((await why()) === 'Counts for your Chad rapid rating.', `with 30 s a move the Rated box says "${await why()}"`);
    await page.check('input[name=opponent][value=link]');
    check((await page.isDisabled('#rated')) && !(await page.isChecked('#rated')) && /against the computer/.test(await why()), `against a friend the Rated box says "${await why()}"`);
  } finally {
    await context.close();
  }
});

// The checks below need the server's rating part (seats held by accounts, rated games, the
// players' pages and the leaderboard).

test('Q. a rated game from the lobby: "Rated · Chad blitz", the player named with 1500?, the rating change after resigning', async (problems) => {
  const name = 'Quentin_Q';
  const context = await signedInContext(await signUpApi(name));
  try {
    const page = await context.newPage();
    watchPage(page, 'Q', problems);
    await page.goto(`${base}/#/`);
    await headerShows(page, name);
    await page.waitForSelector('#ruleset option[value="chad"]', { state: 'attached' });
    await page.selectOption('#ruleset', 'chad');
    await page.check('input[name=opponent][value=computer]');
    await page.selectOption('#level', '1');
    await page.selectOption('#colour', 'white');
    await page.selectOption('#clock', 'main:180:2');
    await page.check('#rated');
    const id = await startFromLobby(page);
    const { white } = await seatsOf(page, id);
    const created = await api('GET', `/api/games/${id}?token=${white}`);
    check(created.rated === true && created.category === 'chad/blitz', `the game is rated ${created.rated} in ${created.category}`);
    check(created.white.player && created.white.player.name === name, `White's seat holds ${JSON.stringify(created.white)}, not ${name}`);
    const rated = await shownText(page, '#game-rated');
    check(rated === 'Rated · Chad blitz', `the title says "${rated}"`);
    const seat = '#players .who[data-seat="white"]';
    await page.waitForSelector(`${seat} .player-link`);
    check((await page.textContent(`${seat} .player-link`)) === name, `White's seat shows ${await page.textContent(seat)}`);
    check((await page.getAttribute(`${seat} .player-link`, 'href')) === `#/player/${name}`, 'the name does not link to the player\'s page');
    check((await page.textContent(`${seat} .rating`)) === '1500?', `White's rating shows as ${await page.textContent(`${seat} .rating`)}`);
    check(!(await page.$('#players .who[data-seat="black"]')), 'the computer is shown as a player with an account');
    // Both sides move; White resigns (the button asks twice).
    const view = await waitView(id, white, (v) => v.to_move === 'white' && v.legal_moves.length > 0, 'White to move');
    await api('POST', `/api/games/${id}/moves`, { token: white, move: view.legal_moves[0].text });
    await waitMoves(page, 2);
    await page.click('button[data-action=resign]');
    await page.click('button[data-action=resign]');
    const over = await waitView(id, white, (v) => v.status === 'over', 'the resignation');
    const change = over.rating_changes && over.rating_changes.white;
    check(change && change.after < change.before && over.rating_changes.black === null, `the rating changes of a lost game: ${JSON.stringify(over.rating_changes)}`);
    await page.waitForSelector(`${seat} .rating-change`);
    const shown = (await page.textContent(`${seat} .rating-change`)).trim();
    check(shown === `-${Math.round(change.before - change.after)}`, `the page shows the change as ${shown}, the server ${change.before} -> ${change.after}`);
  } finally {
    await context.close();
  }
});

test('R. a player\'s page: the category with ?, a chart of one point, W-D-L 0-0-1, the recent game; "No such player"', async (problems) => {
  const context = await newContext();
  try {
    const page = await context.newPage();
    watchPage(page, 'R', problems, /status of 404/);
    await page.goto(`${base}/#/player/Nobody_here`);
    try {
      await page.waitForFunction(() => /No such player/.test(document.getElementById('app').textContent), null, { timeout: 5000 });
    } catch {
      throw new Failure(`an unknown name's page says "${(await page.textContent('#app')).trim().slice(0, 200)}"`);
    }
    const name = 'Rosalind_R';
    const { id } = await ratedLoss(await signUpApi(name));
    const player = await api('GET', `/api/players/${name}`);
    // The name in any case.
    await page.goto(`${base}/#/player/${name.toLowerCase()}`);
    await page.waitForSelector('#player-name');
    check((await page.textContent('#player-name')) === name, `the page is titled ${await page.textContent('#player-name')}`);
    const card = '.rating-card[data-category="chad/blitz"]';
    await page.waitForSelector(card).catch(() => {
      throw new Failure(`no Chad blitz rating on the page: ${player.ratings.map((r) => r.category)}`);
    });
    check((await page.textContent(`${card} h3`)).trim() === 'Chad blitz', `the category is titled ${await page.textContent(`${card} h3`)}`);
    const rating = (await page.textContent(`${card} .rating-line .rating`)).trim();
    check(rating === `${Math.round(player.ratings[0].rating)}?`, `the provisional rating shows as ${rating}`);
    const chart = await page.$eval(`${card} svg.rating-chart`, (svg) => ({
      role: svg.getAttribute('role'),
      title: svg.querySelector('title') && svg.querySelector('title').textContent,
      points: svg.querySelectorAll('circle.point').length,
      ratings: [...svg.querySelectorAll('.y-label')].map((t) => t.textContent),
      dates: [...svg.querySelectorAll('.x-label')].map((t) => t.textContent),
    }));
    check(chart.role === 'img' && /Chad blitz/.test(chart.title || ''), `the chart is an image titled "${chart.title}"`);
    check(chart.points === 1, `the chart has ${chart.points} points, not 1`);
    check(chart.ratings.join() === rating.replace('?', '') && chart.dates.length === 1, `the chart's axes say ${chart.ratings} and ${chart.dates}`);
    const record = await page.$eval('.records tr[data-family="chad"]', (tr) => [...tr.querySelectorAll('td.num')].map((td) => td.textContent.trim()).join('-'));
    check(record === '0-0-1', `Chad's wins, draws and losses are ${record}`);
    const row = `.recent-games tr[data-game="${id}"]`;
    await page.waitForSelector(row).catch(() => {
      throw new Failure('the game is not among the recent games');
    });
    const cells = await page.$eval(row, (tr) => ({ result: tr.querySelector('td[class^=result-]').textContent.trim(), change: tr.querySelector('.change').textContent.trim(), opponent: tr.children[2].textContent.trim() }));
    const recent = player.recent.find((g) => g.id === id);
    check(cells.result === 'Lost' && cells.opponent === 'Computer, level 1', `the recent game reads ${JSON.stringify(cells)}`);
    check(cells.change === `-${Math.round(-recent.rating_change)}`, `the change shows as ${cells.change}, the server ${recent.rating_change}`);
    await page.click(`${row} a[href="#/game/${id}"]`);
    await page.waitForSelector('#game-rated:not([hidden])');
  } finally {
    await context.close();
  }
});

test('S. the leaderboard: linked from the header, loads; a provisional player is not listed', async (problems) => {
  const name = 'Sybille_S';
  await ratedLoss(await signUpApi(name));
  const context = await newContext();
  try {
    const page = await context.newPage();
    watchPage(page, 'S', problems, /status of 404/);
    await page.goto(`${base}/#/`);
    await page.click('header.top a[href="#/leaderboard"]');
    await page.waitForSelector('#no-categories, .category-list');
    const { categories } = await api('GET', '/api/leaderboard');
    check(Array.isArray(categories), 'GET /api/leaderboard has no categories');
    if (categories.length) await page.waitForSelector('table.leaderboard');
    else check(await page.isVisible('#no-categories'), 'no words for a leaderboard without categories');
    check(!(await page.textContent('#app')).includes(name), `the provisional ${name} is listed`);
    for (const c of categories) {
      const board = await api('GET', `/api/leaderboard?category=${encodeURIComponent(c.category)}`);
      check(!board.players.some((p) => p.name === name), `the provisional ${name} is listed in ${c.category}`);
    }
    check(!(await page.$('#app .error')), `the leaderboard shows an error: ${await page.textContent('#app')}`);
    await page.goto(`${base}/#/leaderboard?category=${encodeURIComponent('chad/eternal')}`);
    if (categories.length) {
      const said = await shownText(page, '#board');
      check(/No such category/.test(said), `an unknown category says "${said}"`);
    }
  } finally {
    await context.close();
  }
});

test('T. seats held by accounts: a timed game by link names its creator and the friend who claims it', async (problems) => {
  const [a, b] = ['Theodora_T', 'Tobias_T'];
  const contextA = await signedInContext(await signUpApi(a));
  const contextB = await signedInContext(await signUpApi(b));
  try {
    const pageA = await contextA.newPage();
    const pageB = await contextB.newPage();
    watchPage(pageA, 'T/A', problems);
    watchPage(pageB, 'T/B', problems);
    await pageA.goto(`${base}/#/`);
    await pageA.waitForSelector('#ruleset option[value="chad"]', { state: 'attached' });
    await pageA.selectOption('#ruleset', 'chad');
    await pageA.check('input[name=opponent][value=link]');
    await pageA.selectOption('#colour', 'white');
    await pageA.selectOption('#clock', 'main:300:3');
    check(await pageA.isDisabled('#rated'), 'a game against a friend can be rated from the lobby');
    const id = await startFromLobby(pageA);
    const created = await api('GET', `/api/games/${id}`);
    check(created.white.player && created.white.player.name === a && created.black.player === null, `the seats hold ${JSON.stringify([created.white.player, created.black.player])}`);
    await pageA.waitForSelector('#invite-link', { state: 'visible' });
    await pageB.goto(await pageA.inputValue('#invite-link'));
    await pageB.waitForFunction(() => !location.hash.includes('token='));
    const claimed = await api('GET', `/api/games/${id}`);
    check(claimed.black.player && claimed.black.player.name === b, `the friend's seat holds ${JSON.stringify(claimed.black.player)}`);
    // Both pages name both players, with their ratings in the game's category.
    for (const [page, you] of [[pageA, 'white'], [pageB, 'black']]) {
      for (const [seat, who] of [['white', a], ['black', b]]) {
        const sel = `#players .who[data-seat="${seat}"]`;
        try {
          await page.waitForFunction(([s, n]) => {
            const link = document.querySelector(`${s} .player-link`);
            return link && link.textContent === n;
          }, [sel, who], { timeout: 5000 });
        } catch {
          throw new Failure(`${you}'s page shows ${seat} as "${await page.textContent(`#players .player.${seat}`)}"`);
        }
        const text = (await page.textContent(sel)).trim();
        check(text === `${who} 1500?${seat === you ? ' (you)' : ''}`, `${you}'s page shows ${seat} as "${text}"`);
      }
    }
    await pageA.click(`#players .who[data-seat="black"] .player-link`);
    await pageA.waitForSelector('#player-name');
    check((await pageA.textContent('#player-name')) === b, `the link led to ${await pageA.textContent('#player-name')}`);
  } finally {
    await contextA.close();
    await contextB.close();
  }
});

// ---------------------------------------------------------------------------------------------
// Challenges: finding an opponent in the lobby (docs/api.md, "Challenges: finding an opponent").
// The checks below need the server's part of issue 27's lobby.


/** Waits until the lobby on `page` has its list of challenges (or says there are none). */
async function challengesLoaded(page) {
  try {
    await page.waitForSelector('#challenges .challenge-list, #challenges #no-challenges', { state: 'attached', timeout: 5000 });
  } catch {
    throw new Failure(`the lobby's challenges never loaded: "${(await page.textContent('#challenges')).trim()}"`);
  }
}

/** The open challenges the player of `session` (null: a visitor) may see, from the API. */
async function challengesFor(session) {
  const { challenges } = session ? await apiAs(session, 'GET', '/api/challenges') : await api('GET', '/api/challenges');
  check(Array.isArray(challenges), 'GET /api/challenges has no list of challenges');
  return challenges;
}

/**
 * Posts a challenge from the lobby's form on `page` (already on the lobby, signed in) and waits
 * for its "Waiting for an opponent…"; returns the challenge as the poster's session lists it.
 */
async function postFromLobby(page, session, { ruleset = 'chad', opponent = 'challenge', to = null, colour = 'random', clock = '', rated = false }) {
  await page.waitForSelector(`#ruleset option[value="${ruleset}"]`, { state: 'attached' });
  await page.selectOption('#ruleset', ruleset);
  try {
    await page.check(`input[name=opponent][value=${opponent}]`, { timeout: 5000 });
  } catch {
    throw new Failure(`the lobby offers no opponent choice "${opponent}" to a signed-in player`);
  }
  if (to !== null) await page.fill('#challenge-to', to);
  await page.selectOption('#colour', colour);
  await page.selectOption('#clock', clock);
  if (rated) await page.check('#rated');
  const before = new Set((await challengesFor(session)).map((c) => c.id));
  check((await page.textContent('#start')).trim() === 'Post challenge', `the form's button says "${await page.textContent('#start')}"`);
  await page.click('#start');
  try {
    await page.waitForFunction(() => {
      const waiting = document.getElementById('challenge-waiting');
      const error = document.getElementById('lobby-error');
      return (waiting && !waiting.hidden) || (error && !error.hidden);
    }, null, { timeout: 5000 });
  } catch {
    throw new Failure('after posting a challenge the lobby neither waits for an opponent nor says why');
  }
  if (await page.isVisible('#lobby-error')) throw new Failure(`the challenge was not posted: ${(await page.textContent('#lobby-error')).trim()}`);
  const posted = (await challengesFor(session)).filter((c) => !before.has(c.id));
  check(posted.length === 1, `${posted.length} new challenges listed for their poster after posting one`);
  const waiting = (await page.textContent(`#challenge-waiting [data-challenge="${posted[0].id}"]`)).trim();
  check(waiting.startsWith('Waiting for an opponent…'), `while the challenge is open the form says "${waiting}"`);
  check(await page.isVisible(`#challenge-waiting [data-challenge="${posted[0].id}"] button.cancel`), 'no Cancel beside "Waiting for an opponent…"');
  return posted[0];
}

const challengeRow = (id) => `#challenges li.challenge[data-challenge="${id}"]`;

/** Waits until the challenge `id` is listed on `page` (shown: true) or gone from it (false). */
async function challengeShown(page, id, shown, who, timeout = 5000) {
  try {
    await page.waitForSelector(challengeRow(id), { state: shown ? 'attached' : 'detached', timeout });
  } catch {
    throw new Failure(`${who}'s lobby ${shown ? 'did not show the challenge' : 'still shows the challenge'} within ${timeout / 1000} s (no reload): "${(await page.textContent('#challenges')).trim().slice(0, 200)}"`);
  }
}

/** The words of a challenge's line on `page`: `Chad · 3+2 · rated · Alice 1500?`. */
const challengeLine = async (page, id) => (await page.textContent(`${challengeRow(id)} .challenge-text`)).replace(/\s+/g, ' ').trim();

/** A signed rating change as the pages write it: `+12`, `-8`, `±0`. */
function changeWords(change) {
  const n = Math.round(change.after - change.before);
  return n > 0 ? `+${n}` : n < 0 ? `-${-n}` : '±0';
}

test('V. a rated challenge: posted, seen live, accepted; both pages play it, the challenger by his session alone', async (problems) => {
  const [a, b] = ['Valentina_V', 'Viktor_V'];
  const sessionA = await signUpApi(a);
  const sessionB = await signUpApi(b);
  const contextA = await signedInContext(sessionA);
  const contextB = await signedInContext(sessionB);
  try {
    const pageA = await contextA.newPage();
    const pageB = await contextB.newPage();
    watchPage(pageA, 'V/A', problems);
    watchPage(pageB, 'V/B', problems);
    // The challenger holds no token: none of his page's requests names one, not even an empty one.
    const tokened = [];
    const named = (what) => {
      if (/[?&]token=/.test(what) || /"token"/.test(what)) tokened.push(what.slice(0, 200));
    };
    pageA.on('request', (r) => named(`${r.method()} ${r.url()} ${r.postData() || ''}`));
    pageA.on('websocket', (ws) => named(`WebSocket ${ws.url()}`));

    await pageB.goto(`${base}/#/`);
    await headerShows(pageB, b);
    await challengesLoaded(pageB);
    await pageA.goto(`${base}/#/`);
    await headerShows(pageA, a);
    await challengesLoaded(pageA);
    await pageA.selectOption('#ruleset', 'chad');
    await pageA.check('input[name=opponent][value=challenge]');
    await pageA.selectOption('#clock', 'main:180:2');
    const why = (await pageA.textContent('#rated-why')).trim();
    check((await pageA.isEnabled('#rated')) && why === 'Counts for your Chad blitz rating.', `for a challenge with a clock the Rated box says "${why}"`);
    const challenge = await postFromLobby(pageA, sessionA, { clock: 'main:180:2', colour: 'white', rated: true });
    check(challenge.rated === true && challenge.category === 'chad/blitz' && challenge.colour === 'white' && challenge.to === null, `the challenge posted: ${JSON.stringify(challenge)}`);
    check(challenge.clock && challenge.clock.main_seconds === 180 && challenge.clock.increment_seconds === 2, `the challenge's clock: ${JSON.stringify(challenge.clock)}`);

    // B's lobby shows it without a reload, with Accept; A's own has Cancel instead.
    await challengeShown(pageB, challenge.id, true, b);
    const line = await challengeLine(pageB, challenge.id);
    check(line === `Chad · 3+2 · rated · ${a} 1500?`, `B's lobby lists the challenge as "${line}"`);
    const colour = (await pageB.textContent(`${challengeRow(challenge.id)} .challenge-colour`)).trim();
    check(colour === 'you play Black', `B is told "${colour}"`);
    check(!(await pageB.$(`${challengeRow(challenge.id)} button.cancel`)), 'B may cancel A\'s challenge');
    await challengeShown(pageA, challenge.id, true, a);
    check(await pageA.$(`${challengeRow(challenge.id)} button.cancel`), 'A\'s own challenge has no Cancel in the list');
    check(!(await pageA.$(`${challengeRow(challenge.id)} button.accept`)), 'A is offered to accept his own challenge');

    await pageB.click(`${challengeRow(challenge.id)} button.accept`);
    const id = await gameIdOf(pageB);
    // A's page hears of it on the lobby's socket and opens the game.
    let idA;
    try {
      idA = await gameIdOf(pageA);
    } catch {
      throw new Failure(`A's page did not open the game when B accepted (it shows ${pageA.url()})`);
    }
    check(idA === id, `A's page opened ${idA}, B's ${id}`);
    const { black: tokenB } = await seatsOf(pageB, id);
    check(tokenB, 'B\'s page keeps no token for Black');
    const keptA = await pageA.evaluate((key) => JSON.parse(localStorage.getItem(key) || '{}'), `denkmeter.game.${id}`);
    check(!keptA.white && !keptA.black, `A's page keeps a token: ${JSON.stringify(keptA)}`);
    const first = await apiAs(sessionA, 'GET', `/api/games/${id}`);
    check(first.you === 'white', `by his session A sees the game as ${first.you}, not White`);
    check(first.rated === true && first.category === 'chad/blitz', `the game is rated ${first.rated} in ${first.category}`);
    check(first.white.player && first.white.player.name === a && first.black.player && first.black.player.name === b, `the seats hold ${JSON.stringify([first.white.player, first.black.player])}`);

    // Both pages name both players with a newcomer's 1500?.
    for (const [page, you] of [[pageA, 'white'], [pageB, 'black']]) {
      for (const [seat, who] of [['white', a], ['black', b]]) {
        const sel = `#players .who[data-seat="${seat}"]`;
        try {
          await page.waitForFunction(([s, n]) => {
            const link = document.querySelector(`${s} .player-link`);
            return link && link.textContent === n;
          }, [sel, who], { timeout: 5000 });
        } catch {
          throw new Failure(`${you}'s page shows ${seat} as "${await page.textContent(`#players .player.${seat}`)}"`);
        }
        const text = (await page.textContent(sel)).replace(/\s+/g, ' ').trim();
        check(text === `${who} 1500?${seat === you ? ' (you)' : ''}`, `${you}'s page shows ${seat} as "${text}"`);
      }
    }
    check((await pageA.textContent('#game-rated')).trim() === 'Rated · Chad blitz', `A's page says "${await pageA.textContent('#game-rated')}"`);

    // A moves by his session, B with his token; each page sees the other's move live.
    try {
      await pageA.waitForFunction(() => /^Your move/.test(document.getElementById('status').textContent), null, { timeout: 5000 });
    } catch {
      throw new Failure(`A's page says "${await pageA.textContent('#status')}" before his first move, not "Your move"`);
    }
    await clickMove(pageA, first, clickableMove(first));
    await waitMoves(pageB, 1);
    const forB = await waitView(id, tokenB, (v) => v.to_move === 'black' && v.legal_moves.length > 0, 'Black to move');
    await clickMove(pageB, forB, clickableMove(forB));
    await waitMoves(pageA, 2);

    // A resigns (the button asks twice); both pages show both changes.
    await pageA.click('button[data-action=resign]');
    await pageA.click('button[data-action=resign]');
    const over = await waitView(id, tokenB, (v) => v.status === 'over', 'the resignation');
    const changes = over.rating_changes || {};
    check(changes.white && changes.black && changes.white.after < changes.white.before && changes.black.after > changes.black.before, `the rating changes: ${JSON.stringify(over.rating_changes)}`);
    for (const [page, who] of [[pageA, 'A'], [pageB, 'B']]) {
      for (const seat of ['white', 'black']) {
        const sel = `#players .who[data-seat="${seat}"] .rating-change`;
        try {
          await page.waitForSelector(sel, { timeout: 5000 });
        } catch {
          throw new Failure(`${who}'s page shows no rating change for ${seat}: "${await page.textContent('#players')}"`);
        }
        const shown = (await page.textContent(sel)).trim();
        check(shown === changeWords(changes[seat]), `${who}'s page shows ${seat}'s change as ${shown}, the server ${changes[seat].before} -> ${changes[seat].after}`);
      }
    }
    check(!tokened.length, `A's page sent a token:\n     ${tokened.join('\n     ')}`);

    // Each player's page lists the game.
    for (const [page, name, result, opponent] of [[pageA, a, 'Lost', b], [pageB, b, 'Won', a]]) {
      await page.goto(`${base}/#/player/${name}`);
      const row = `.recent-games tr[data-game="${id}"]`;
      try {
        await page.waitForSelector(row, { timeout: 5000 });
      } catch {
        throw new Failure(`${name}'s page does not list the game`);
      }
      const cells = await page.$eval(row, (tr) => ({ result: tr.querySelector('td[class^=result-]').textContent.trim(), opponent: tr.children[2].textContent.trim(), change: tr.querySelector('.change').textContent.trim() }));
      check(cells.result === result && cells.opponent === opponent && /^[+-]\d+$/.test(cells.change), `${name}'s page lists the game as ${JSON.stringify(cells)}`);
    }
  } finally {
    await contextA.close();
    await contextB.close();
  }
});

test('W. challenges come and go live: one cancelled leaves the others\' lobbies; one named to a player is his and its poster\'s alone', async (problems) => {
  const [a, b, c] = ['Wilhelmina_W', 'Walter_W', 'Wendy_W'];
  const sessions = { [a]: await signUpApi(a), [b]: await signUpApi(b), [c]: await signUpApi(c) };
  const contexts = [];
  try {
    const pages = {};
    for (const name of [a, b, c]) {
      const context = await signedInContext(sessions[name]);
      contexts.push(context);
      const page = await context.newPage();
      watchPage(page, `W/${name}`, problems);
      await page.goto(`${base}/#/`);
      await headerShows(page, name);
      await challengesLoaded(page);
      pages[name] = page;
    }

    // A challenge to anyone, untimed: casual only, the colours drawn at random.
    await pages[a].selectOption('#ruleset', 'chad');
    await pages[a].check('input[name=opponent][value=challenge]');
    await pages[a].selectOption('#clock', '');
    check(await pages[a].isDisabled('#rated'), 'a challenge without a clock can be rated');
    const open = await postFromLobby(pages[a], sessions[a], { colour: 'random' });
    check(open.rated === false && open.clock === null && open.colour === 'random', `the challenge posted: ${JSON.stringify(open)}`);
    for (const name of [b, c]) await challengeShown(pages[name], open.id, true, name);
    const line = await challengeLine(pages[b], open.id);
    check(line === `Chad · no clock · casual · ${a}`, `B's lobby lists the challenge as "${line}"`);
    check((await pages[b].textContent(`${challengeRow(open.id)} .challenge-colour`)).trim() === 'colours drawn at random', 'the random colours are not said');
    check(await pages[b].$(`${challengeRow(open.id)} button.accept`), 'B is not offered to accept');
    await challengeShown(pages[a], open.id, true, a);
    check(!(await pages[a].$(`${challengeRow(open.id)} button.accept`)) && (await pages[a].$(`${challengeRow(open.id)} button.cancel`)), 'A\'s own challenge: Accept offered, or no Cancel');

    // Cancelled under the form: it leaves every lobby without a reload.
    await pages[a].click(`#challenge-waiting [data-challenge="${open.id}"] button.cancel`);
    for (const name of [b, c, a]) await challengeShown(pages[name], open.id, false, name);
    await pages[a].waitForSelector('#challenge-waiting', { state: 'hidden', timeout: 5000 }).catch(() => {
      throw new Failure('"Waiting for an opponent…" stays after the challenge was cancelled');
    });
    check(!(await challengesFor(sessions[b])).some((x) => x.id === open.id), 'the cancelled challenge is still listed');

    // A challenge named to B: B sees it "to you", A as his own "to B"; C and a visitor never.
    const toB = await postFromLobby(pages[a], sessions[a], { opponent: 'named', to: b, colour: 'black', clock: 'main:300:3' });
    check(toB.to === b && toB.colour === 'black', `the named challenge: ${JSON.stringify(toB)}`);
    await challengeShown(pages[b], toB.id, true, b);
    check(await pages[b].$(`${challengeRow(toB.id)}.to-you .tag.to-you`), 'the challenge to B is not marked "to you" in his lobby');
    check((await pages[b].textContent(`${challengeRow(toB.id)} .tag.to-you`)).trim() === 'to you', 'the mark does not say "to you"');
    check(await pages[b].$(`${challengeRow(toB.id)} button.accept`), 'B is not offered to accept the challenge to him');
    check((await pages[b].textContent(`${challengeRow(toB.id)} .challenge-colour`)).trim() === 'you play White', 'B is not told he plays White');
    await challengeShown(pages[a], toB.id, true, a);
    const tags = (await pages[a].textContent(`${challengeRow(toB.id)}`)).replace(/\s+/g, ' ');
    check(tags.includes(`to ${b}`) && !(await pages[a].$(`${challengeRow(toB.id)}.to-you`)), `A's lobby lists his named challenge as "${tags.trim()}"`);
    check(!(await pages[a].$(`${challengeRow(toB.id)} button.accept`)), 'A is offered to accept his own challenge');
    // The lists are pushed to every lobby at once: by now C's would have it.
    await sleep(500);
    check(!(await pages[c].$(challengeRow(toB.id))), 'C\'s lobby shows the challenge named to B');
    check(!(await challengesFor(sessions[c])).some((x) => x.id === toB.id), 'C is given the challenge named to B');
    check(!(await challengesFor(null)).some((x) => x.id === toB.id), 'a visitor is given the challenge named to B');
    await apiAs(sessions[a], 'DELETE', `/api/challenges/${toB.id}`);
    await challengeShown(pages[b], toB.id, false, b);
  } finally {
    for (const context of contexts) await context.close();
  }
});

test('X. signed out, the lobby shows the open challenges, live; Accept asks to sign in', async (problems) => {
  const name = 'Xenia_X';
  const session = await signUpApi(name);
  const first = await apiAs(session, 'POST', '/api/challenges', { ruleset: 'chad', clock: { main_seconds: 300, increment_seconds: 3 }, rated: true, colour: 'white', to: null });
  const context = await newContext();
  try {
    const page = await context.newPage();
    watchPage(page, 'X', problems);
    await page.goto(`${base}/#/`);
    await headerShows(page, null);
    await challengesLoaded(page);
    await challengeShown(page, first.id, true, 'the visitor');
    const line = await challengeLine(page, first.id);
    check(line === `Chad · 5+3 · rated · ${name} 1500?`, `the lobby lists the challenge as "${line}"`);
    check(!(await page.$(`${challengeRow(first.id)} button`)), 'a visitor is offered a button on a challenge');
    const link = `${challengeRow(first.id)} a.sign-in-to-accept`;
    check(await page.$(link), 'no "Sign in to accept" on the challenge');
    check((await page.textContent(link)).trim() === 'Sign in to accept', `the link says "${await page.textContent(link)}"`);
    check(await page.isHidden('input[name=opponent][value=challenge]'), 'a visitor is offered to post a challenge');
    // Another challenge shows up without a reload.
    const second = await apiAs(session, 'POST', '/api/challenges', { ruleset: 'chad', clock: null, rated: false, colour: 'random', to: null });
    await challengeShown(page, second.id, true, 'the visitor');
    await page.click(link);
    await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'signin-name');
    for (const c of [first, second]) await apiAs(session, 'DELETE', `/api/challenges/${c.id}`);
  } finally {
    await context.close();
  }
});

test('Y. a challenge taken meanwhile: Accept says the server\'s words and the list is asked for again', async (problems) => {
  const [a, b, c] = ['Yannick_Y', 'Yvonne_Y', 'Yusuf_Y'];
  const sessionA = await signUpApi(a);
  const sessionB = await signUpApi(b);
  const sessionC = await signUpApi(c);
  const challenge = await apiAs(sessionA, 'POST', '/api/challenges', { ruleset: 'chad', clock: null, rated: false, colour: 'white', to: null });
  const context = await signedInContext(sessionB);
  try {
    // B's lobby hears nothing on its socket: it has the list asked for at load only.
    await context.routeWebSocket(/\/api\/lobby\/ws/, () => {});
    const page = await context.newPage();
    watchPage(page, 'Y', problems, /status of 409/);
    await page.goto(`${base}/#/`);
    await headerShows(page, b);
    await challengeShown(page, challenge.id, true, b);
    await apiAs(sessionC, 'POST', `/api/challenges/${challenge.id}/accept`);
    await page.click(`${challengeRow(challenge.id)} button.accept`);
    const said = await shownText(page, '#challenges-error');
    const r = await fetch(`${base}/api/challenges/${challenge.id}/accept`, { method: 'POST', headers: { cookie: `denkmeter_session=${sessionB}`, origin: base } });
    const { error } = await r.json();
    check(r.status === 409, `accepting a taken challenge answered ${r.status}`);
    check(said === `Not accepted: ${error}`, `the lobby says "${said}", the server "${error}"`);
    await challengeShown(page, challenge.id, false, b);
    check(/#\/$/.test(page.url()), `the page left the lobby for ${page.url()}`);
  } finally {
    await context.close();
  }
});

test('Z. the lab: a small study started on a game\'s Lab page is played, reported and charted', async (problems) => {
  const context = await newContext();
  const page = await context.newPage();
  // The one refusal asked for below is logged by the browser as a failed request.
  watchPage(page, 'Z', problems, /status of 400/);
  await page.goto(`${base}/#/`);
  await page.click('.top-nav a[href="#/lab"]');
  await page.waitForSelector('#lab-families a[href="#/lab/kamelen"]');
  await page.click('#lab-families a[href="#/lab/kamelen"]');
  await page.waitForSelector('#new-study');
  const title = await page.textContent('#lab-title');
  check(/kamelen/i.test(title || ''), `the Kamelen lab page is titled "${title}"`);
  const offered = await page.$$eval('#new-study input[name=ruleset]', (els) => els.map((e) => e.value));
  check(offered.length === 3 && offered.every((r) => r.startsWith('kamelen')), `the form offers ${offered.join(', ')}`);

  // A player too strong for the browser is refused with the reason, and nothing is stored.
  await page.fill('#new-study input[name=players]', 'ab:d9');
  await page.click('#new-study button[type=submit]');
  await page.waitForSelector('#study-error:not([hidden])');
  const refusal = await page.textContent('#study-error');
  check(/too long/.test(refusal || ''), `a heavy player is refused with "${refusal}"`);

  await page.fill('#new-study input[name=players]', 'ab:d1, random');
  await page.fill('#new-study input[name=games]', '2');
  await page.fill('#new-study input[name=plies]', '2');
  await page.click('#new-study button[type=submit]');
  await page.waitForFunction(() => location.hash.startsWith('#/study/'));
  await page.waitForFunction(() => /8 of 8 games played/.test(document.querySelector('#study-progress')?.textContent || ''), null, { timeout: 60000 });
  const rows = await page.$$eval('table.lab-report tbody tr', (els) => els.map((e) => [...e.cells].map((c) => c.textContent.trim())));
  check(rows.length === 4, `the report has ${rows.length} rows, expected 2 rulesets x 2 players`);
  check(rows.every((r) => /%/.test(r[3]) && /%/.test(r[4])), `rows without a score or draw rate: ${JSON.stringify(rows)}`);
  const endings = await page.$$eval('ul.lab-endings li', (els) => els.length);
  check(endings === 4, `${endings} lines of endings, expected 4`);
  // Every chart is an image that loads.
  await page.waitForFunction(() => [...document.querySelectorAll('.lab-chart img')].every((i) => i.complete), null, { timeout: 10000 });
  const charts = await page.$$eval('.lab-chart img', (els) => els.map((i) => ({ alt: i.alt, width: i.naturalWidth })));
  check(charts.length >= 5, `${charts.length} charts on the study page`);
  check(charts.every((c) => c.width > 0 && c.alt), `charts that did not load: ${JSON.stringify(charts.filter((c) => !c.width))}`);

  // The game's Lab page lists the study, played.
  await page.goto(`${base}/#/lab/kamelen`);
  await page.waitForSelector('table.lab-studies');
  const listed = await page.$$eval('table.lab-studies tbody tr', (els) => els.map((e) => e.textContent));
  check(listed.some((t) => /done/.test(t) && /random/.test(t)), `the Kamelen lab lists: ${listed.join(' | ')}`);
  await page.goto(`${base}/#/lab/chad`);
  await page.waitForSelector('#no-studies');
  await context.close();
});

/**
 * A finished Chad game between two people, up to Black's blunder (9... H8-H6) and White's reply;
 * Black resigns. Its id and moves.
 */
async function chadGameWithBlunder() {
  const played = 'E3-G3 J10-J11 E4-H4 I8-I5 G3-G7 H9-B9 G7-I7 I9-J10 I7xI10 J10xI10 C5-C7 J8-J2 C7-I7 B9-I9 I7-I8 J2-A2 D3-J3 H8-H6 J3-J8'.split(' ');
  const { id, tokens } = await api('POST', '/api/games', { ruleset: 'chad', white: { kind: 'human' }, black: { kind: 'human' } });
  for (const [i, move] of played.entries()) {
    await api('POST', `/api/games/${id}/moves`, { token: tokens[i % 2 ? 'black' : 'white'], move });
    // Under the server's ten moves a second from one address.
    await sleep(120);
  }
  await api('POST', `/api/games/${id}/resign`, { token: tokens.black });
  return { id, played };
}

test('L. a whole game analysed: asked for on the game page, graphed, its marked moves pointed out; a pasted PDN game too', async (problems) => {
  const { id, played } = await chadGameWithBlunder();
  const context = await newContext();
  try {
    const page = await context.newPage();
    watchPage(page, 'L', problems);
    await page.goto(`${base}/#/game/${id}`);
    await page.waitForSelector('#request-analysis', { state: 'visible' });
    await page.click('#request-analysis');
    await page.waitForURL(/#\/analysis\/[^/?]+$/, { timeout: 10_000 });
    const analysisId = decodeURIComponent(/#\/analysis\/([^/?]+)/.exec(page.url())[1]);
    try {
      await page.waitForFunction(() => document.querySelector('#analysis-title').textContent === 'Computer analysis · Chad', null, { timeout: 5000 });
    } catch {
      throw new Failure(`the analysis page is titled "${await page.textContent('#analysis-title')}"`);
    }
    check(await page.$(`#analysis-game[href="#/game/${id}"]`), 'the analysis page has no link back to the game');
    try {
      await page.waitForSelector('#eval-graph svg .graph-line', { timeout: 60_000 });
    } catch {
      throw new Failure(`the graph was not drawn within 60 s: ${await page.textContent('#analysis-progress')}`);
    }
    const analysis = await api('GET', `/api/analyses/${analysisId}`);
    check(analysis.status === 'done' && analysis.game_id === id, `the analysis is ${analysis.status}, of game ${analysis.game_id}`);
    const { positions, moves: judged } = analysis.review;
    check(positions.length === played.length + 1, `the review has ${positions.length} positions for ${played.length} moves`);
    const points = await page.$eval('#eval-graph .graph-line', (line) => line.getAttribute('points').trim().split(/\s+/).length);
    check(points === positions.length, `the graph has ${points} points for ${positions.length} positions`);
    const marked = judged.filter((m) => m.judgement);
    const glyphs = await page.$$eval('#moves .move .glyph', (els) => els.map((e) => e.textContent));
    const dots = await page.$$eval('#eval-graph .graph-dot', (els) => els.length);
    check(glyphs.length === marked.length && dots === marked.length, `${marked.length} moves marked by the review, ${glyphs.length} glyphs in the move list and ${dots} dots on the graph`);

    // A marked move (the blunder, if any): its position before, with the better move pointed out.
    check(marked.length > 0, 'the review marked no move of a game with a blunder (9... H8-H6)');
    const blunder = marked.find((m) => m.judgement === 'blunder' && m.best) || marked.find((m) => m.best);
    if (blunder) {
      await page.click(`#marked-moves button[data-ply="${blunder.ply - 1}"]`);
      const ply = `${blunder.ply - 1} / ${played.length}`;
      try {
        await page.waitForFunction(([p, best]) => document.querySelector('#replay-ply').textContent === p && document.querySelector('.board-hint').textContent === `Hint: ${best}`, [ply, blunder.best], { timeout: 5000 });
      } catch {
        throw new Failure(`after a click on the marked move ${blunder.played} the page shows ${await page.textContent('#replay-ply')} with "${await page.textContent('.board-hint')}", not ${ply} with ${blunder.best} pointed out`);
      }
      check(await page.$('svg.board .mark.hint'), `the better move ${blunder.best} is not marked on the board`);
      const words = await page.textContent('#ply-judgement');
      check(words.includes(blunder.best), `the words on the position before ${blunder.played} do not name ${blunder.best}: "${words}"`);
    }
    // A click on the graph goes to the nearest position; the arrow keys step on.
    const box = await page.$eval('#eval-graph svg', (svg) => {
      const r = svg.getBoundingClientRect();
      return { width: r.width, height: r.height };
    });
    // The graph's positions run from 6 to 294 of its 300 units (analysis.js).
    await page.click('#eval-graph svg', { position: { x: ((6 + (3 / played.length) * 288) / 300) * box.width, y: box.height / 2 } });
    await page.waitForFunction((p) => document.querySelector('#replay-ply').textContent === p, `3 / ${played.length}`, { timeout: 5000 });
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((p) => document.querySelector('#replay-ply').textContent === p, `4 / ${played.length}`, { timeout: 5000 });
    const info = await page.textContent('#ply-info');
    check(/^After 2\.\.\. I8-I5 \(White to move\): [+-]\d+\.\d\d \(depth \d+\)\. Best line: /.test(info), `the position after 2... I8-I5 reads "${info}"`);

    // On a phone: nothing wider than the screen, the board and its bar on it.
    await page.setViewportSize({ width: 375, height: 667 });
    await page.reload();
    await page.waitForSelector('#eval-graph svg .graph-line');
    await page.waitForSelector('.eval-bar:not([hidden])');
    const phone = await page.evaluate(() => {
      const right = (selector) => document.querySelector(selector).getBoundingClientRect().right;
      return { scrollWidth: document.documentElement.scrollWidth, board: right('svg.board'), bar: right('.eval-bar'), graph: right('#eval-graph svg') };
    });
    check(phone.scrollWidth <= 375, `the analysis page is ${phone.scrollWidth} px wide on a 375 px screen`);
    check(Math.max(phone.board, phone.bar, phone.graph) <= 375, `on a phone the board ends at ${phone.board} px, its bar at ${phone.bar} and the graph at ${phone.graph}`);

    // The game page now links to the analysis, with what it found.
    await page.goto(`${base}/#/game/${id}`);
    await page.waitForSelector('#review-link', { state: 'visible' });
    check(await page.getAttribute('#review-link', 'href') === `#/analysis/${analysisId}`, 'the game page links to another analysis');
    check(/^done: /.test(await page.textContent('#review-status')), `the game page says the analysis is "${await page.textContent('#review-status')}"`);
    check(await page.isHidden('#request-analysis'), 'the game page still offers to request the analysis');

    // A PDN game pasted in the lobby, analysed as a whole: English checkers, Black (the first player) first.
    await page.goto(`${base}/#/`);
    await page.waitForSelector('#ruleset option[value="english"]', { state: 'attached' });
    await page.selectOption('#ruleset', 'english');
    await page.click('#pdn-field summary');
    await page.fill('#pdn', '[GameType "21"]\n1. 11-15 23-19 2. 8-11 22-17 *');
    await page.click('#analyse-pdn-game');
    await page.waitForURL(/#\/analysis\/[^/?]+$/, { timeout: 10_000 });
    await page.waitForFunction(() => document.querySelector('#analysis-title').textContent === 'Computer analysis · English checkers' && document.querySelectorAll('#moves .move[data-ply]').length === 4);
  } finally {
    await context.close();
  }
});

test('M. the analysis board: the position before a blunder, the better move and the engine depth by depth, a variation in the tree; a position set up', async (problems) => {
  // The game of check L; its analysis asked for.
  const { id, played } = await chadGameWithBlunder();
  const { id: analysisId } = await api('POST', `/api/games/${id}/analyses`);
  const context = await newContext();
  try {
    const page = await context.newPage();
    // The position set up with a rook alone is refused (400): the browser logs that.
    watchPage(page, 'M', problems, /status of 400/);
    await page.goto(`${base}/#/analysis/${analysisId}`);
    try {
      await page.waitForSelector('#marked-moves button[data-ply]', { timeout: 60_000 });
    } catch {
      throw new Failure(`the analysis marked no move within 60 s: ${await page.textContent('#analysis-progress')}`);
    }
    const analysis = await api('GET', `/api/analyses/${analysisId}`);
    const cells = analysis.board.cells;
    // The worst marked move with a better one: the board opens on the position before it.
    const worst = analysis.review.moves.filter((m) => m.judgement && m.best).sort((a, b) => b.loss - a.loss)[0];
    check(worst, 'the review marked no move with a better one in a game with a blunder (9... H8-H6)');
    const before = worst.ply - 1;
    await page.click(`#marked-moves button[data-ply="${before}"]`);
    await page.waitForFunction((p) => document.querySelector('#replay-ply').textContent === p, `${before} / ${played.length}`);
    const href = await page.getAttribute('#board-link', 'href');
    check(href === `#/board/analysis/${analysisId}?ply=${before}`, `the "Analysis board" link of position ${before} is ${href}`);
    await page.click('#board-link');
    await page.waitForURL(/#\/board\/analysis\//);

    // What the board shows: the pieces of a position, as "cell:owner:kind", sorted.
    const drawn = () => page.$$eval('svg.board .pieces .piece:not(.preview)', (els) => els.map((e) => `${e.dataset.at}:${e.dataset.owner}:${e.dataset.kind}`).sort().join(' '));
    const wanted = (pieces) => pieces.map((p) => `${cells[p.cell].name}:${p.owner === 'black' ? 'black' : 'white'}:${p.kind}`).sort().join(' ');
    const shows = async (pieces, what) => {
      const want = wanted(pieces);
      try {
        await page.waitForFunction(
          (w) => [...document.querySelectorAll('svg.board .pieces .piece:not(.preview)')].map((e) => `${e.dataset.at}:${e.dataset.owner}:${e.dataset.kind}`).sort().join(' ') === w,
          want,
          { timeout: 10_000 },
        );
      } catch {
        throw new Failure(`the board does not show ${what}:\n     drawn  ${await drawn()}\n     wanted ${want}`);
      }
    };
    const treeText = () => page.$eval('#tree', (el) => el.textContent.replace(/\s+/g, ' ').trim());
    const currentMove = () => page.$eval('#tree', (el) => (el.querySelector('.move.current') || { textContent: '' }).textContent);
    const navIs = async (text, what) => {
      try {
        await page.waitForFunction((t) => document.querySelector('#nav-ply').textContent === t, text, { timeout: 10_000 });
      } catch {
        throw new Failure(`${what}: the buttons under the board say "${await page.textContent('#nav-ply')}", not "${text}"`);
      }
    };
    const positionBefore = await api('GET', `/api/analyses/${analysisId}/positions/${before}`);
    await shows(positionBefore.pieces, `the position before ${worst.played} (ply ${before})`);
    await navIs(`${before} / ${played.length}`, 'on the position before the blunder');
    check((await currentMove()) === played[before - 1], `the move on show in the tree is ${await currentMove()}, not ${played[before - 1]}`);

    // The engine's depths as they come, with the tree's node they are for.
    await page.evaluate(() => {
      window.depthsSeen = [];
      const note = () => {
        const el = document.querySelector('#engine-depth');
        const node = document.querySelector('#tree .move.current');
        if (!el) return;
        const seen = { node: node ? node.dataset.node : 'root', depth: Number(el.dataset.depth) };
        const last = window.depthsSeen[window.depthsSeen.length - 1];
        if (!last || last.node !== seen.node || last.depth !== seen.depth) window.depthsSeen.push(seen);
      };
      new MutationObserver(note).observe(document.getElementById('engine-state'), { childList: true, subtree: true, characterData: true });
    });
    // The better move, clicked on the board: a variation beside the blunder.
    const better = positionBefore.legal_moves.find((m) => m.text === worst.best);
    check(better, `the better move ${worst.best} is not legal before ${worst.played}`);
    await clickMove(page, { board: analysis.board }, better);
    await navIs(`${before + 1} / ${before + 1}`, `after the better move ${worst.best}`);
    check((await currentMove()) === worst.best, `after ${worst.best} the tree's current move is ${await currentMove()}`);
    const line = [...played.slice(0, before), worst.best];
    const afterBetter = await api('POST', '/api/positions', { analysis: analysisId, moves: line });
    await shows(afterBetter.pieces, `the position after ${worst.best}`);
    const node = await page.$eval('#tree .move.current', (el) => el.dataset.node);
    try {
      await page.waitForFunction((n) => {
        const depths = window.depthsSeen.filter((d) => d.node === n).map((d) => d.depth);
        return depths.length >= 2 && document.querySelector('#engine-line .pv-move');
      }, node, { timeout: 25_000 });
    } catch {
      throw new Failure(`the engine did not show two depths and a best line within 25 s: "${await page.textContent('#engine-card')}", depths ${JSON.stringify(await page.evaluate(() => window.depthsSeen))}`);
    }
    const depths = (await page.evaluate(() => window.depthsSeen)).filter((d) => d.node === node).map((d) => d.depth);
    check(depths.every((d, i) => i === 0 || d > depths[i - 1]) && depths[0] >= 1, `the depths shown for the position after ${worst.best} go ${depths.join(', ')}, not upwards`);
    const pvFirst = (await page.textContent('#engine-line .pv-move')).trim();
    const legal = afterBetter.legal_moves.map((m) => m.text);
    check(legal.includes(pvFirst), `the best line starts with ${pvFirst}, not a legal move after ${worst.best}`);
    const score = await page.textContent('#engine-score');
    check(/for (White|Black) to move/.test(score) && (await page.textContent('#engine-score-text')).trim(), `the engine's score reads "${score}"`);
    check(await page.$('.eval-bar:not([hidden]):not(.stale)'), 'the evaluation bar does not show the position after the better move');

    // A second move: the best line's first, clicked; back one with ←, and another move instead.
    await page.click('#engine-line .pv-move');
    await navIs(`${before + 2} / ${before + 2}`, `after the best line's ${pvFirst}`);
    check((await currentMove()) === pvFirst, `after a click on the best line's ${pvFirst} the tree's current move is ${await currentMove()}`);
    await page.keyboard.press('ArrowLeft');
    await navIs(`${before + 1} / ${before + 2}`, 'after ←');
    await shows(afterBetter.pieces, `the position after ${worst.best} again, after ←`);
    const other = afterBetter.legal_moves.find((m) => m.text !== pvFirst && m.from !== null && afterBetter.legal_moves.filter((o) => clickPath(o).join() === clickPath(m).join()).length === 1);
    check(other, `no other move to click after ${worst.best}`);
    await clickMove(page, { board: analysis.board }, other);
    await navIs(`${before + 2} / ${before + 2}`, `after ${other.text} instead of ${pvFirst}`);
    const num = (ply) => `${Math.floor((ply - 1) / 2) + 1}${(ply - 1) % 2 ? '...' : '.'}`;
    const label = (ply, move, numbered) => (numbered || (ply - 1) % 2 === 0 ? `${num(ply)} ${move}` : move);
    const expectTree = (variation) => played.map((move, i) => {
      const ply = i + 1;
      const text = label(ply, move, ply === 1 || ply === before + 2);
      return ply === before + 1 ? `${text} (${variation})` : text;
    }).join(' ');
    const both = `${label(before + 1, worst.best, true)} ${label(before + 2, pvFirst, false)} (${label(before + 2, other.text, true)})`;
    check((await treeText()) === expectTree(both), `the tree reads\n     ${await treeText()}\n     not\n     ${expectTree(both)}`);
    // The arrows step along the line just after a move clicked on the board (which has the focus).
    for (const [key, at] of [['ArrowLeft', before + 1], ['ArrowRight', before + 2], ['ArrowUp', 0], ['ArrowDown', before + 2]]) {
      await page.keyboard.press(key);
      await navIs(`${at} / ${before + 2}`, `after ${key} on the board`);
    }
    // The address keeps the line on show: a reload shows it (the other line is gone).
    check(/[?&]moves=/.test(page.url()) && page.url().includes(`ply=${before + 2}`), `the address on a variation is ${page.url()}`);
    await page.reload();
    await navIs(`${before + 2} / ${before + 2}`, 'after a reload');
    const one = `${label(before + 1, worst.best, true)} ${label(before + 2, other.text, false)}`;
    check((await treeText()) === expectTree(one), `after a reload the tree reads\n     ${await treeText()}\n     not\n     ${expectTree(one)}`);
    check((await currentMove()) === other.text, `after a reload the tree's current move is ${await currentMove()}, not ${other.text}`);
    // The game's own move in the tree: back on the main line.
    await page.click(`#tree > .move:text-is("${played[before]}")`);
    await navIs(`${before + 1} / ${played.length}`, `after a click on the game's ${played[before]} in the tree`);
    await shows((await api('GET', `/api/analyses/${analysisId}/positions/${before + 1}`)).pieces, `the game's position after ${played[before]}`);
    check(page.url().endsWith(`#/board/analysis/${analysisId}?ply=${before + 1}`), `back on the game's moves the address is ${page.url()}`);
    // The variation made the main line, then the game's moves (now a variation) deleted.
    const gameLine = played.slice(before).map((move, k) => label(before + 1 + k, move, k === 0)).join(' ');
    const opening = played.slice(0, before).map((move, i) => label(i + 1, move, i === 0));
    await page.click(`#tree .variation .move:text-is("${other.text}")`);
    await navIs(`${before + 2} / ${before + 2}`, `after a click on ${other.text} in the tree`);
    await page.click('#promote');
    const promoted = [...opening, label(before + 1, worst.best, false), `(${gameLine})`, label(before + 2, other.text, true)].join(' ');
    check((await treeText()) === promoted, `after "Make main line" the tree reads\n     ${await treeText()}\n     not\n     ${promoted}`);
    await page.click(`#tree .variation .move:text-is("${played[before]}")`);
    await navIs(`${before + 1} / ${played.length}`, `after a click on the game's ${played[before]}, now a variation`);
    check((await page.textContent('#delete-variation')) === 'Delete variation', `the delete button of a variation says "${await page.textContent('#delete-variation')}"`);
    await page.click('#delete-variation');
    const deleted = [...opening, label(before + 1, worst.best, false), label(before + 2, other.text, false)].join(' ');
    check((await treeText()) === deleted, `after "Delete variation" the tree reads\n     ${await treeText()}\n     not\n     ${deleted}`);
    await navIs(`${before} / ${before + 2}`, 'after "Delete variation"');

    // A position set up by hand: a rook alone is refused by the rules, kings added it is played.
    await page.goto(`${base}/#/board/chad`);
    await page.waitForSelector('#setup:not([disabled])');
    await page.waitForFunction(() => document.querySelectorAll('svg.board .pieces .piece').length === 18);
    await page.click('#setup');
    await page.waitForSelector('#editor:not([hidden])');
    check((await page.$$('#palette button[data-token]')).length >= 7, 'the palette lacks the pieces of Chad and the eraser');
    check((await page.getAttribute('#palette [data-token="R"]', 'title')) === 'rook', `the white rook's button is titled "${await page.getAttribute('#palette [data-token="R"]', 'title')}"`);
    await page.click('#editor-clear');
    await shows([], 'an empty board after "Clear board"');
    const place = async (token, cell) => {
      await page.click(`#palette [data-token="${token}"]`);
      await page.click(cellSelector(cell));
    };
    await place('R', 'A1');
    await shows([{ cell: cells.findIndex((c) => c.name === 'A1'), owner: 'white', kind: 'rook' }], 'a white rook on A1');
    await page.click('#editor-done');
    try {
      await page.waitForSelector('#editor-error:not([hidden])', { timeout: 5000 });
    } catch {
      throw new Failure('"Done" on a board with a white rook alone shows no refusal');
    }
    const refusal = await page.textContent('#editor-error');
    check(/king/i.test(refusal), `the refusal of a rook alone says "${refusal}"`);
    check(await page.isVisible('#editor'), 'the editor closed after a refusal');
    await place('K', 'D4');
    await place('k', 'I9');
    await page.click('#editor-done');
    try {
      await page.waitForSelector('#editor', { state: 'hidden', timeout: 5000 });
    } catch {
      throw new Failure(`"Done" with both kings and a rook was not accepted: "${await page.textContent('#editor-error')}"`);
    }
    await shows(['A1:rook:white', 'D4:king:white', 'I9:king:black'].map((t) => {
      const [at, kind, owner] = t.split(':');
      return { cell: cells.findIndex((c) => c.name === at), owner, kind };
    }), 'the position set up');
    check(/#\/board\/chad\?position=/.test(page.url()), `the address of the position set up is ${page.url()}`);
    check((await treeText()) === 'No moves yet: make one on the board.', `the tree of a new position reads "${await treeText()}"`);
    try {
      await page.waitForSelector('#engine-depth', { timeout: 20_000 });
      await page.waitForSelector('#engine-line .pv-move', { timeout: 20_000 });
    } catch {
      throw new Failure(`the engine did not analyse the position set up: "${await page.textContent('#engine-card')}"`);
    }

    // On a phone: nothing wider than the screen; the board, its bar and the palette on it.
    await page.setViewportSize({ width: 375, height: 667 });
    await page.reload();
    await page.waitForSelector('.eval-bar:not([hidden])', { timeout: 20_000 });
    await page.click('#setup');
    await page.waitForSelector('#editor:not([hidden])');
    const phone = await page.evaluate(() => {
      const right = (selector) => Math.max(...[...document.querySelectorAll(selector)].map((el) => el.getBoundingClientRect().right));
      return {
        scrollWidth: document.documentElement.scrollWidth,
        board: right('svg.board'),
        bar: right('.eval-bar'),
        palette: right('#palette button'),
        buttons: right('.editor button'),
        panel: right('.analysis-panel .card'),
      };
    });
    check(phone.scrollWidth <= 375, `the analysis board is ${phone.scrollWidth} px wide on a 375 px screen`);
    check(Math.max(phone.board, phone.bar, phone.palette, phone.buttons, phone.panel) <= 375, `on a phone something ends beyond 375 px: ${JSON.stringify(phone)}`);
  } finally {
    await context.close();
  }
});

// ---------------------------------------------------------------------------------------------
// Puzzles (docs/api.md, "Puzzles")

const PUZZLE_FILES = path.resolve(here, '../../puzzles');
const PROBLEM_FILES = path.join(PUZZLE_FILES, 'problems');

/**
 * The puzzles shipped in puzzles/FAMILY.jsonl (or the problems of `dir`,
 * puzzles/problems/FAMILY.jsonl), as [{family, puzzles}] (families in name order, puzzles in
 * file order). A line that does not parse is left out: a file may be being written.
 */
function shippedPuzzles(dir = PUZZLE_FILES) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => {
      const puzzles = [];
      for (const line of readFileSync(path.join(dir, f), 'utf8').split('\n')) {
        if (!line.trim()) continue;
        try {
          puzzles.push(JSON.parse(line));
        } catch {
          // half written
        }
      }
      return { family: f.replace(/\.jsonl$/, ''), puzzles };
    })
    .filter((f) => f.puzzles.length);
}

/** A puzzle's position after `moves` of its line, with the board (its cells' names). */
const puzzleView = (puzzle, moves) => api('POST', '/api/positions', { ruleset: puzzle.ruleset, position: puzzle.position, moves, with_board: true });

/**
 * Makes `move` on the board of `page` as a person would: its cells clicked, then the button
 * that tells it from the moves that share them (a tile's orientation), or its button alone (a
 * move without cells).
 */
async function clickAnyMove(page, view, move) {
  const cells = clickPath(move);
  const button = `.choices button[data-move="${move.text.replace(/["\\]/g, '\\$&')}"]`;
  if (cells.length) {
    await clickMove(page, view, move);
    const sharing = (view.legal_moves || []).filter((m) => {
      const p = clickPath(m);
      return p.length >= cells.length && cells.every((c, i) => p[i] === c);
    });
    if (sharing.length === 1) return;
  }
  try {
    await page.click(button, { timeout: 10_000 });
  } catch {
    throw new Failure(`no button for ${move.text} after clicking its cells`);
  }
}

/** The text of the page's puzzle status once it says how the attempt ended. */
async function puzzleResult(page, what, timeout = 15_000) {
  try {
    await page.waitForSelector('#puzzle-result', { timeout });
  } catch {
    const status = await page.textContent('#puzzle-status').catch(() => '?');
    const error = await page.textContent('#puzzle-error').catch(() => '');
    throw new Failure(`${what}: the attempt did not end; the page says "${status.trim()}" ${error.trim()}`);
  }
  return (await page.textContent('#puzzle-result')).replace(/\s+/g, ' ').trim();
}

/**
 * Solves `puzzle` (a line of a puzzle file) on `page`, where it is open: each of the solver's
 * moves of its line clicked on the board, the replies left to the page. Returns the result's words.
 */
async function solveByClicks(page, puzzle, what) {
  let view = await puzzleView(puzzle, []);
  const solver = view.to_move;
  for (let i = 0; i < puzzle.line.length; i += 1) {
    if (view.to_move === solver) {
      const move = (view.legal_moves || []).find((m) => m.text === puzzle.line[i]);
      check(move, `${what}: the solution's ${puzzle.line[i]} is not among the legal moves: ${(view.legal_moves || []).map((m) => m.text).join(' ')}`);
      await clickAnyMove(page, view, move);
    }
    if (i + 1 < puzzle.line.length) view = await puzzleView(puzzle, puzzle.line.slice(0, i + 1));
  }
  return puzzleResult(page, what);
}

/** The words of the puzzle page's panel that show (hidden parts left out). */
const panelWords = (page) => page.$eval('.puzzle-panel', (el) => el.innerText.replace(/\s+/g, ' ').trim());

test('O. puzzles: a guest solves one of every game by clicking, and sees a solution; a problem collection followed, its first problem solved unrated, then the next; signed in, a wrong move rated and shown, a solve rated, a problem not', async (problems) => {
  const families = shippedPuzzles();
  check(families.length, `no puzzle files in ${PUZZLE_FILES}`);
  // The server embeds the files it was built with: every one must be served (a 404 means the
  // binary is older than the files: rebuild it).
  const served = [];
  for (const f of families) {
    const r = await fetch(`${base}/api/puzzles/${encodeURIComponent(f.puzzles[0].id)}`);
    if (!r.ok) throw new Failure(`GET /api/puzzles/${f.puzzles[0].id} (${f.family}) answered ${r.status}: is the binary older than puzzles/?`);
    served.push({ ...f, first: await r.json() });
  }
  let book = null; // the problem collection tried: {family, title, count}
  let problemOne = null; // its first problem, as in puzzles/problems/FAMILY.jsonl

  const context = await newContext();
  try {
    const page = await context.newPage();
    watchPage(page, 'O', problems);
    // The list: every game with its count, and what a guest's attempts are.
    await page.goto(`${base}/#/puzzles`);
    await page.waitForSelector('.puzzle-families a[data-family]');
    const listed = await page.$$eval('.puzzle-families a[data-family]', (els) => els.map((e) => e.dataset.family));
    for (const f of served) check(listed.includes(f.family), `the puzzles page lists ${listed.join(', ')}, not ${f.family}`);
    const guest = (await page.textContent('#player-rating')).trim();
    check(/^Sign in to get a puzzle rating; as a guest your attempts are not rated\.$/.test(guest), `a guest's puzzles page says "${guest}"`);
    check(/exactly one move wins/.test(await page.textContent('.puzzles-page')), 'the puzzles page does not say what a puzzle is');

    // One of each game, solved by clicking its solution's moves.
    for (const f of served) {
      const puzzle = f.puzzles[0];
      await page.goto(`${base}/#/puzzle/${encodeURIComponent(puzzle.id)}`);
      await page.waitForSelector('svg.board .cell');
      const goal = await shownText(page, '#puzzle-goal', 10_000);
      check(goal === f.first.goal && / to play wins in \d+ moves?$/.test(goal), `${f.family} ${puzzle.id}: the goal reads "${goal}", not "${f.first.goal}"`);
      check(await page.isVisible('#show-solution') && await page.isHidden('#solution-warning'), `${f.family}: a guest is warned that the solution counts, or has no "Show solution"`);
      const result = await solveByClicks(page, puzzle, `${f.family} ${puzzle.id}`);
      check(result === 'Solved!', `${f.family} ${puzzle.id}: after the solution's moves the page says "${result}"`);
      check(await page.isHidden('#rating-change'), `${f.family}: a guest's solve shows a rating change`);
      const href = await page.getAttribute('#board-link', 'href');
      check(await page.isVisible('#board-link') && href.startsWith(`#/board/${puzzle.ruleset}?position=`), `${f.family}: the analysis board's link is ${href}`);
    }

    // A game's puzzles by its address: one chosen, its own address taken; given up, the
    // solution stepped through; the next one another.
    const family = served[0].family;
    await page.goto(`${base}/#/puzzles/${family}`);
    await page.waitForURL(/#\/puzzle\/[^/?]+$/, { timeout: 10_000 });
    const firstId = decodeURIComponent(/#\/puzzle\/([^/?]+)$/.exec(page.url())[1]);
    const shown = served[0].puzzles.find((p) => p.id === firstId) || (await api('GET', `/api/puzzles/${encodeURIComponent(firstId)}`));
    await page.waitForSelector('#show-solution:not([disabled])');
    await page.click('#show-solution');
    const given = await puzzleResult(page, `${family}: "Show solution"`);
    if (shown.line) check(given === `The solution: the winning move was ${shown.line[0]}`, `after "Show solution" the page says "${given}"`);
    const plies = served[0].puzzles.find((p) => p.id === firstId)?.line.length;
    await page.waitForSelector('#solution-nav:not([hidden])');
    const navIs = async (text) => {
      try {
        await page.waitForFunction((t) => document.querySelector('#nav-ply').textContent === t, text, { timeout: 5000 });
      } catch {
        throw new Failure(`the solution's buttons say "${await page.textContent('#nav-ply')}", not "${text}"`);
      }
    };
    if (plies) {
      await navIs(`0 / ${plies}`);
      await page.click('#nav-last');
      await navIs(`${plies} / ${plies}`);
      await page.click('#nav-prev');
      await navIs(`${plies - 1} / ${plies}`);
    }
    if (served[0].puzzles.length > 1) {
      await page.click('#next-puzzle');
      await page.waitForFunction((id) => /#\/puzzle\/[^/?]+$/.test(location.hash) && !location.hash.endsWith(`/${id}`), firstId, { timeout: 10_000 });
      await page.waitForSelector('#show-solution:not([disabled]):not([hidden])');
    }

    // Problems: the collections on the puzzles page; Shakti's (or the first listed) followed,
    // its numbered list, problem 1 solved by clicking (not rated), then "Next problem": number 2.
    const data = await api('GET', '/api/puzzles');
    const books = (data && data.problems) || [];
    check(books.length, `GET /api/puzzles lists no problem collections: ${JSON.stringify(data).slice(0, 200)}`);
    book = books.find((b) => b.family === 'shakti') || books[0];
    const file = shippedPuzzles(PROBLEM_FILES).find((f) => f.family === book.family);
    check(file, `the server has ${book.family}'s problems, ${PROBLEM_FILES} has no ${book.family}.jsonl`);
    const { problems: list } = await api('GET', `/api/problems/${encodeURIComponent(book.family)}`);
    check(list.length === book.count && list.every((p, i) => p.number === i + 1), `GET /api/problems/${book.family} has ${list.length} problems numbered ${list.map((p) => p.number).join(',')}, the collection says ${book.count}`);
    await page.goto(`${base}/#/puzzles`);
    await page.waitForSelector('.problem-collections a[data-problems]');
    const booksListed = await page.$$eval('.problem-collections a[data-problems]', (els) => els.map((e) => e.dataset.problems));
    check(booksListed.join() === books.map((b) => b.family).join(), `the puzzles page lists the problems of ${booksListed.join(', ')}, not ${books.map((b) => b.family).join(', ')}`);
    const about = (await page.textContent('#problems-section')).replace(/\s+/g, ' ');
    check(/not rated/.test(about) && /shortest win/.test(about) && new RegExp(`${book.title} ${book.count} problems`).test(about), `the puzzles page's Problems section says "${about}"`);
    await page.click(`.problem-collections a[data-problems="${book.family}"]`);
    await page.waitForURL(new RegExp(`#/problems/${book.family}$`), { timeout: 10_000 });
    await page.waitForSelector('.problem-list a[data-problem]', { timeout: 10_000 });
    const entries = await page.$$eval('.problem-list a[data-problem]', (els) => els.map((e) => ({ id: e.dataset.problem, text: e.textContent.trim(), href: e.getAttribute('href') })));
    check(entries.length === list.length, `the list of ${book.family}'s problems has ${entries.length}, not ${list.length}`);
    entries.forEach((e, i) => {
      check(e.id === list[i].id && e.text === `Problem ${i + 1}: ${list[i].goal}` && / to play wins in \d+ moves$/.test(e.text) && e.href === `#/puzzle/${list[i].id}`, `${book.family}'s problem ${i + 1} is listed as "${e.text}" (${e.href}), not "Problem ${i + 1}: ${list[i].goal}"`);
    });
    const listTitle = (await page.textContent('#problems-title')).trim();
    check(listTitle === `${book.title} problems`, `the list's heading is "${listTitle}"`);
    problemOne = file.puzzles.find((p) => p.id === list[0].id);
    check(problemOne, `${book.family}'s problem 1 (${list[0].id}) is not in ${book.family}.jsonl`);
    check(problemOne.line.length >= 5, `${book.family}'s problem 1 is a win of ${problemOne.line.length} plies, not a long one`);
    await page.click(`.problem-list a[data-problem="${list[0].id}"]`);
    await page.waitForURL(new RegExp(`#/puzzle/${list[0].id}$`), { timeout: 10_000 });
    await page.waitForSelector('svg.board .cell');
    const unrated = async (what) => {
      const words = await panelWords(page);
      check(!/rating/i.test(words) && await page.isHidden('#rating-change') && await page.isHidden('#rating-card'), `${what}: the problem's page speaks of ratings: "${words}"`);
    };
    const problemShown = async (n, what) => {
      const want = `Problem ${n} of ${list.length} — ${book.title}`;
      try {
        await page.waitForFunction((w) => document.querySelector('#puzzle-title').textContent === w, want, { timeout: 10_000 });
      } catch {
        throw new Failure(`${what}: the heading reads "${await page.textContent('#puzzle-title')}", not "${want}"`);
      }
      const goal = await shownText(page, '#puzzle-goal', 10_000);
      check(goal === list[n - 1].goal, `${what}: the goal reads "${goal}", not "${list[n - 1].goal}"`);
      await page.waitForSelector('#show-solution:not([disabled]):not([hidden])', { timeout: 10_000 });
      check(await page.isHidden('#solution-warning'), `${what}: "Show solution" is said to count as a failure`);
      check(await page.getAttribute('#problem-collection', 'href') === `#/problems/${book.family}` && await page.isVisible('#problem-collection'), `${what}: no link back to the collection`);
    };
    await problemShown(1, `${book.family}'s problem 1`);
    await unrated(`${book.family}'s problem 1`);
    const solvedProblem = await solveByClicks(page, problemOne, `${book.family}'s problem 1 (${problemOne.id})`);
    check(solvedProblem === 'Solved!', `after ${book.family}'s problem 1's solution the page says "${solvedProblem}"`);
    await unrated(`${book.family}'s problem 1 solved`);
    if (list.length > 1) {
      check((await page.textContent('#next-puzzle')).trim() === 'Next problem' && await page.isVisible('#next-puzzle'), `after problem 1 the button says "${(await page.textContent('#next-puzzle')).trim()}"`);
      await page.click('#next-puzzle');
      await page.waitForURL(new RegExp(`#/puzzle/${list[1].id}$`), { timeout: 10_000 });
      await problemShown(2, `"Next problem" after ${book.family}'s problem 1`);
      await unrated(`${book.family}'s problem 2`);
    }
    // The last has no next one.
    await page.goto(`${base}/#/puzzle/${encodeURIComponent(list[list.length - 1].id)}`);
    await problemShown(list.length, `${book.family}'s last problem`);
    check(await page.isHidden('#next-puzzle'), `${book.family}'s last problem offers a next one`);
  } finally {
    await context.close();
  }

  // Signed in: a wrong move is a rated failure; then a puzzle solved, rated too; a problem
  // tried, not rated.
  const name = 'Olga_O';
  const session = await signUpApi(name);
  const signed = await signedInContext(session);
  try {
    const page = await signed.newPage();
    watchPage(page, 'O signed in', problems);
    const [first, second] = served.length > 1 ? [served[0].puzzles[0], served[1].puzzles[0]] : served[0].puzzles;
    check(second, `only one puzzle of ${served[0].family} to try signed in`);
    await page.goto(`${base}/#/puzzle/${encodeURIComponent(first.id)}`);
    await headerShows(page, name);
    try {
      await page.waitForFunction(() => /^No puzzle rating yet/.test(document.querySelector('#player-rating').textContent.trim()), null, { timeout: 10_000 });
    } catch {
      throw new Failure(`before any attempt, the rating reads "${(await page.textContent('#player-rating')).trim()}"`);
    }
    check(await page.isVisible('#solution-warning'), 'signed in, "Show solution" is not said to count as a failure');
    const view = await puzzleView(first, []);
    const wrong = (view.legal_moves || []).find((m) => m.text !== first.line[0] && m.from !== null && view.legal_moves.filter((o) => clickPath(o).join() === clickPath(m).join()).length === 1)
      || (view.legal_moves || []).find((m) => m.text !== first.line[0]);
    check(wrong, `${first.id}: no legal move but the solution's ${first.line[0]}`);
    await page.waitForSelector('svg.board .cell.movable');
    await clickAnyMove(page, view, wrong);
    const result = await puzzleResult(page, `${first.id}, the wrong move ${wrong.text}`);
    check(result === `Wrong: the winning move was ${first.line[0]}`, `after the wrong move ${wrong.text} the page says "${result}"`);
    const { player } = await apiAs(session, 'GET', '/api/puzzles');
    check(player && player.attempts === 1 && player.solved === 0, `after a wrong move the player's puzzle record is ${JSON.stringify(player)}`);
    const ratingShown = async (rating, what) => {
      const want = `${rating.rating}${rating.provisional ? '?' : ''}`;
      try {
        await page.waitForFunction((w) => {
          const el = document.querySelector('#player-rating .rating');
          return el && el.textContent === w;
        }, want, { timeout: 5000 });
      } catch {
        throw new Failure(`${what}: the player's puzzle rating reads "${await page.textContent('#player-rating')}", not ${want}`);
      }
    };
    await ratingShown(player.rating, 'after the wrong move');
    const lost = (await shownText(page, '#player-change')).replace(/\s+/g, ' ');
    check(/^Your puzzle rating: \d+\?? → \d+\?? -\d+$/.test(lost), `after the wrong move the change reads "${lost}"`);

    // A second puzzle, solved: the change shown, upwards.
    await page.goto(`${base}/#/puzzle/${encodeURIComponent(second.id)}`);
    await page.waitForSelector('svg.board .cell');
    await ratingShown(player.rating, 'on the next puzzle');
    const solved = await solveByClicks(page, second, `${second.id}, signed in`);
    check(solved === 'Solved!', `signed in, after the solution's moves the page says "${solved}"`);
    const won = (await shownText(page, '#player-change')).replace(/\s+/g, ' ');
    check(/^Your puzzle rating: \d+\?? → \d+\?? \+\d+$/.test(won), `after solving, the change reads "${won}"`);
    const { player: after } = await apiAs(session, 'GET', '/api/puzzles');
    check(after.attempts === 2 && after.solved === 1 && after.rating.rating > player.rating.rating, `after solving, the player's puzzle record is ${JSON.stringify(after)}`);
    await ratingShown(after.rating, 'after solving');

    // A problem, given a wrong move: nothing rated, nothing said of ratings.
    await page.goto(`${base}/#/puzzle/${encodeURIComponent(problemOne.id)}`);
    await page.waitForSelector('svg.board .cell.movable', { timeout: 10_000 });
    await page.waitForFunction(() => /^Problem 1 of /.test(document.querySelector('#puzzle-title').textContent), null, { timeout: 10_000 });
    check(await page.isHidden('#solution-warning'), 'signed in, a problem\'s "Show solution" is said to count as a failure');
    const problemView = await puzzleView(problemOne, []);
    const miss = (problemView.legal_moves || []).find((m) => m.text !== problemOne.line[0] && m.from !== null && problemView.legal_moves.filter((o) => clickPath(o).join() === clickPath(m).join()).length === 1)
      || (problemView.legal_moves || []).find((m) => m.text !== problemOne.line[0]);
    check(miss, `${problemOne.id}: no legal move but the solution's ${problemOne.line[0]}`);
    await clickAnyMove(page, problemView, miss);
    const missed = await puzzleResult(page, `problem ${problemOne.id}, the wrong move ${miss.text}`);
    check(missed === `Wrong: the winning move was ${problemOne.line[0]}`, `after the wrong move ${miss.text} in a problem the page says "${missed}"`);
    const words = await panelWords(page);
    check(!/rating/i.test(words) && await page.isHidden('#rating-change'), `signed in, a problem tried speaks of ratings: "${words}"`);
    const { player: unchanged } = await apiAs(session, 'GET', '/api/puzzles');
    check(unchanged && unchanged.attempts === after.attempts && unchanged.solved === after.solved && unchanged.rating.rating === after.rating.rating, `a problem tried changed the player's puzzle record from ${JSON.stringify(after)} to ${JSON.stringify(unchanged)}`);
  } finally {
    await signed.close();
  }
});

async function main() {
  const started = Date.now();
  const guard = setTimeout(async () => {
    console.error(`FAIL: the browser tests took longer than ${TOTAL_LIMIT_MS / 1000} s`);
    await cleanup();
    process.exit(1);
  }, TOTAL_LIMIT_MS);
  let passed = 0;
  let failed = 0;
  try {
    await startServer();
    console.log(`server: ${binary} on ${base}${webDir ? ` (interface from ${webDir})` : ''}`);
    // Pages fulfilled from disk (--web) have no network address of their own, and chromium's
    // local network access checks would then block their WebSocket to the loopback server.
    const args = webDir ? [...CHROMIUM_ARGS, '--disable-features=LocalNetworkAccessChecks'] : CHROMIUM_ARGS;
    browser = await chromium.launch({ executablePath: CHROMIUM, args, headless: true });
    for (const { name, fn } of checks) {
      if (only && !only.includes(name.split('.')[0])) continue;
      const t0 = Date.now();
      const problems = [];
      try {
        await fn(problems);
        check(!problems.length, problems.join('\n'));
        passed += 1;
        console.log(`ok   ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      } catch (e) {
        failed += 1;
        console.log(`FAIL ${name}\n     ${e instanceof Failure ? e.message : e.stack || e}`);
        if (problems.length) console.log(`     also: ${problems.join('\n     ')}`);
      }
    }
  } catch (e) {
    failed += 1;
    console.log(`FAIL setting up: ${e.message || e}`);
  } finally {
    clearTimeout(guard);
    if (failed && serverLog.length) {
      console.log('--- the last lines of the server log ---');
      console.log(serverLog.slice(-40).join('\n'));
    }
    await cleanup();
  }
  console.log(`browser tests: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

let cleaned = false;
async function cleanup() {
  if (cleaned) return;
  cleaned = true;
  try {
    if (browser) await browser.close();
  } catch {
    // already gone
  }
  await stopServer();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    await cleanup();
    process.exit(130);
  });
}

main();
