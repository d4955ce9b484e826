// Denkmeter in the browser: the lobby, a game, a rules page, accounts, players and ratings,
// puzzles.
// Everything comes from the HTTP API (docs/api.md); the browser holds no rules. Hash routes: #/
// (lobby), #/game/{id}[?token=T], #/rules/{name}, #/account[?form=signin|signup],
// #/player/{name}, #/leaderboard[?category=C], #/lab[/{family}], #/study/{id}, #/analysis/{id}
// (a whole game's computer analysis), and the analysis board (analysis-board.js):
// #/board/{ruleset}[?position=P&moves=M] (from the start or a position string, with moves
// separated by spaces), #/board/game/{id}[?ply=N] (a finished game's moves as the main line, at
// ply N) and #/board/analysis/{id}[?ply=N] (an analysed game's); puzzles (puzzles.js): #/puzzles
// (the games that have them, and the problem collections), #/puzzles/{family} (one chosen by
// the server), #/problems/{family} (a game's numbered problems) and #/puzzle/{id} (one given
// puzzle or problem). Each page is a module whose function draws it into the page and returns
// {dispose()}, called when the route changes. The header says who is signed in on every page
// (header.js).

import { accountPage } from './account.js';
import { AnalysisBoardPage } from './analysis-board.js';
import { AnalysisPage } from './analysis.js';
import { GamePage } from './game/page.js';
import { startHeader } from './header.js';
import { labPage, studyPage } from './lab.js';
import { leaderboardPage } from './leaderboard.js';
import { lobbyPage } from './lobby.js';
import { playerPage } from './player.js';
import { problemsPage, PuzzlePage, puzzlesPage } from './puzzles.js';
import { rulesPage } from './rules.js';

const app = document.getElementById('app');
let page = null; // the current page: {dispose()}

function parseHash() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path, search = ''] = raw.split('?');
  const params = new URLSearchParams(search);
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  return { parts, params };
}

function route() {
  if (page && page.dispose) page.dispose();
  page = null;
  window.scrollTo(0, 0);
  const { parts, params } = parseHash();
  if (parts[0] === 'game' && parts[1]) {
    page = new GamePage(app, parts[1], params.get('token'));
  } else if (parts[0] === 'rules' && parts[1]) {
    page = rulesPage(app, parts[1]);
  } else if (parts[0] === 'account') {
    page = accountPage(app, params);
  } else if (parts[0] === 'player' && parts[1]) {
    page = playerPage(app, parts[1]);
  } else if (parts[0] === 'leaderboard') {
    page = leaderboardPage(app, params);
  } else if (parts[0] === 'lab') {
    page = labPage(app, parts[1] || null);
  } else if (parts[0] === 'study' && parts[1]) {
    page = studyPage(app, parts[1]);
  } else if (parts[0] === 'analysis' && parts[1]) {
    page = new AnalysisPage(app, parts[1]);
  } else if (parts[0] === 'board' && parts[1]) {
    page = new AnalysisBoardPage(app, parts.slice(1), params);
  } else if (parts[0] === 'problems' && parts[1]) {
    page = problemsPage(app, parts[1]);
  } else if (parts[0] === 'puzzles' && parts[1]) {
    page = new PuzzlePage(app, { family: parts[1] });
  } else if (parts[0] === 'puzzles' || parts[0] === 'problems') {
    page = puzzlesPage(app);
  } else if (parts[0] === 'puzzle' && parts[1]) {
    page = new PuzzlePage(app, { id: parts[1] });
  } else {
    page = lobbyPage(app);
  }
}

startHeader(document.getElementById('account-nav'));
window.addEventListener('hashchange', route);
route();
