#!/usr/bin/env bash
# The load test three times on fresh servers, side by side: once alone, once with whole-game
# analyses kept going (two at a time, the most one address may have) on the server's search
# pool, and once with two analysis boards kept searching (the engine socket, two searches being
# the most one address may have). It shows what analyses do to people's games: move and
# delivery latency, and the computer's replies, which share the pool with the analyses.
#
#   scripts/analysis-load.sh [BINARY]     (default target/release/denkmeter)
#   CLIENTS=100 DURATION=30 scripts/analysis-load.sh
#
# Needs python3 (the analysis feeder), node 20 or later (the boards' feeder, with its
# experimental WebSocket) and a release build. Loopback only; bounded in time.
set -euo pipefail
BIN=${1:-target/release/denkmeter}
CLIENTS=${CLIENTS:-100}
DURATION=${DURATION:-30}
PORT=${PORT:-8960}
work=$(mktemp -d)
server=""
feeder=""
cleanup() {
    [ -n "$feeder" ] && kill "$feeder" 2>/dev/null || true
    [ -n "$server" ] && kill "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

echo "games to analyse: 20 Chad games between computer:4 players"
"$BIN" match chad --first computer:4 --second computer:4 --games 20 --random-plies 4 \
    --seed 9 --concurrency 2 --pgn "$work/games.pgn" >/dev/null

# Posts the games' analyses one after another for SECONDS, waiting while two are unfinished;
# prints how many were finished and their positions.
cat > "$work/feeder.py" <<'PY'
import json, re, sys, time, urllib.error, urllib.request
url, pgn, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
games = []
for chunk in open(pgn).read().split('[Game ')[1:]:
    tags, body = chunk.split('\n\n', 1)
    position = re.search(r'\[Position "([^"]*)"\]', tags)
    body = re.sub(r'\{[^}]*\}', '', body)
    moves = [m for m in body.split() if not re.match(r'^\d+\.+$', m)
             and m not in ('1-0', '0-1', '*', '1/2-1/2')]
    games.append({"ruleset": "chad", "position": position.group(1) if position else None,
                  "moves": moves})
end = time.time() + seconds
asked, i = [], 0
while time.time() < end and i < len(games):
    request = urllib.request.Request(url + '/api/analyses', data=json.dumps(games[i]).encode(),
                                     headers={'content-type': 'application/json'})
    try:
        asked.append(json.load(urllib.request.urlopen(request))['id'])
        i += 1
    except urllib.error.HTTPError as e:
        if e.code != 429:
            raise
        time.sleep(0.5)
done = positions = 0
for id in asked:
    a = json.load(urllib.request.urlopen(url + '/api/analyses/' + id))
    done += a['status'] == 'done'
    positions += a['done']
print(f"analyses asked for: {len(asked)}, finished: {done}; "
      f"{positions} positions analysed in {seconds:.0f} s")
PY

# Keeps two analysis boards searching Chad positions for SECONDS, a new position whenever a
# search ends; prints the searches finished and the depths reached.
cat > "$work/boards.mjs" <<'JS'
const [url, seconds] = [process.argv[2], Number(process.argv[3])];
const lines = [[], ['E3-G3'], ['E3-G3', 'H10-F10'], ['D3-D6'], ['C4-C7']];
let searches = 0, depths = 0, deepest = 0;
const end = Date.now() + seconds * 1000;
function board(n) {
  const socket = new WebSocket(url.replace('http', 'ws') + '/api/analysis/ws');
  let id = n * 1000;
  const ask = () => {
    id += 1;
    socket.send(JSON.stringify({ type: 'analyse', id, ruleset: 'chad', moves: lines[id % lines.length] }));
  };
  socket.onopen = ask;
  socket.onmessage = (event) => {
    const m = JSON.parse(event.data);
    if (m.type === 'depth') { depths += 1; deepest = Math.max(deepest, m.depth); }
    if (m.type === 'done' || m.type === 'error') {
      searches += 1;
      if (Date.now() < end) ask();
    }
  };
  return socket;
}
const sockets = [board(1), board(2)];
setTimeout(() => {
  for (const s of sockets) s.close();
  console.log(`analysis boards: ${searches} searches ended, ${depths} depths sent, deepest ${deepest}`);
}, seconds * 1000);
JS

run() {
    local label=$1 analyses=$2
    rm -f "$work/db.sqlite"*
    "$BIN" serve --host 127.0.0.1 --port "$PORT" --database "sqlite://$work/db.sqlite" \
        --games-per-minute 0 --moves-per-second 0 --max-connections-per-address 0 \
        2>"$work/server.log" &
    server=$!
    for _ in $(seq 50); do
        curl -fs "http://127.0.0.1:$PORT/api/health" >/dev/null 2>&1 && break
        sleep 0.1
    done
    if [ "$analyses" = yes ]; then
        python3 "$work/feeder.py" "http://127.0.0.1:$PORT" "$work/games.pgn" "$DURATION" &
        feeder=$!
    elif [ "$analyses" = boards ]; then
        node --experimental-websocket --no-warnings "$work/boards.mjs" \
            "http://127.0.0.1:$PORT" "$DURATION" &
        feeder=$!
    fi
    echo "== $label"
    "$BIN" loadtest --url "http://127.0.0.1:$PORT" --server-pid "$server" \
        --clients "$CLIENTS" --duration "$DURATION"
    if [ -n "$feeder" ]; then
        wait "$feeder" || true
        feeder=""
    fi
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=""
}

run "without analyses" no
run "with analyses going" yes
run "with analysis boards searching" boards
