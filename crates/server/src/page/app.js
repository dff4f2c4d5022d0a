// The page of `ludus serve`: sets a game up, draws the server's view of it and sends what the
// player does. Every rule lives on the server; the page only matches clicks to the legal moves
// the server lists (the protocol's MOVE form) and shows the positions it sends (STATE and SVG).
"use strict";

const $ = (id) => document.getElementById(id);

let rules = [];        // the bundled games
let view = null;       // the server's latest view of the game
let paused = false;    // computer against computer, held
let picked = null;     // tables: the point (or "bar") a step starts from
let chosen = [];       // tables: the steps chosen so far, [from, to] each
let log = [];          // the move list: the server sends the steps from `log_from` on
let events = null;     // the game's changes as the server announces them (server-sent events)
let announced = 0;     // the count of changes the server last announced
let showing = null;    // a move being played out on the board: { skip } ends it

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const text = await response.text();
  let data = {};
  try { data = text ? JSON.parse(text) : {}; } catch (_) { data = { error: text }; }
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.data = data;
    throw error;
  }
  return data;
}

function busy(on) {
  document.body.dataset.busy = on ? "1" : "0";
}

function say(text) {
  $("message").textContent = text || "";
}

// ---- setting a game up ----

async function loadRules() {
  const data = await api("GET", "/api/rules");
  rules = data.rules;
  const select = $("rules-select");
  for (const r of rules) {
    const option = document.createElement("option");
    option.value = r.name;
    option.textContent = `${r.name} (${r.family})`;
    select.appendChild(option);
  }
  select.value = "oware";
  showSeats();
}

function ownRules() {
  const text = $("rules-text").value;
  return $("own-rules").open && text.trim() !== "" ? text : null;
}

function showSeats() {
  const r = rules.find((g) => g.name === $("rules-select").value);
  const names = r ? r.players : ["Player 0", "Player 1"];
  $("rules-title").textContent = r && !ownRules() ? r.title : "";
  for (const p of [0, 1]) {
    $(`seat${p}-name`).textContent = names[p];
    $("first").options[p + 1].textContent = names[p];
    $(`seat${p}-spec`).hidden = $(`seat${p}-kind`).value !== "computer";
  }
}

function seats() {
  // "human", "friend" (a person elsewhere, by a link) or a computer player.
  return [0, 1].map((p) => {
    const kind = $(`seat${p}-kind`).value;
    return kind === "computer" ? $(`seat${p}-spec`).value.trim() : kind;
  });
}

function showDiagnostics(list) {
  const ol = $("diagnostics");
  ol.replaceChildren();
  for (const d of list || []) {
    const li = document.createElement("li");
    li.className = d.severity;
    const notes = (d.notes || []).map((n) => `\n  ${n}`).join("");
    li.textContent = `line ${d.line}, column ${d.column}: ${d.severity}: ${d.message}${notes}`;
    li.addEventListener("click", () => goToLine(d.line, d.column));
    ol.appendChild(li);
  }
}

// Selects the place of a diagnostic in the text area.
function goToLine(line, column) {
  const area = $("rules-text");
  const lines = area.value.split("\n");
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  offset += Math.max(0, column - 1);
  area.focus();
  area.setSelectionRange(offset, Math.min(area.value.length, offset + 1));
  const height = area.scrollHeight / Math.max(1, lines.length);
  area.scrollTop = Math.max(0, (line - 4) * height);
}

async function check() {
  const text = $("rules-text").value;
  try {
    const data = await api("POST", "/api/check", { text });
    showDiagnostics(data.diagnostics);
    $("setup-error").textContent = data.errors
      ? `${data.errors} error(s): see the list above.`
      : `No errors: ${data.game.title}`;
    return data.errors === 0;
  } catch (e) {
    $("setup-error").textContent = e.message;
    return false;
  }
}

async function start(record) {
  $("setup-error").textContent = "";
  const text = ownRules();
  const request = { seats: seats() };
  if (record !== undefined) {
    request.record = record;
    if (text) request.text = text;
  } else {
    if (text) request.text = text; else request.rules = $("rules-select").value;
    if ($("first").value !== "") request.first = Number($("first").value);
    const seed = $("seed").value.trim();
    if (seed !== "") {
      if (!/^\d+$/.test(seed)) { $("setup-error").textContent = "The seed is a whole number."; return; }
      request.seed = Number(seed);
    }
  }
  if (text && !(await check())) return;
  busy(true);
  try {
    const created = await api("POST", "/api/games", request);
    enter(created);
    if (record !== undefined) await show(created.id, 0);
  } catch (e) {
    $("setup-error").textContent = e.message;
  } finally {
    busy(false);
  }
  advance();
}

function readFile(input) {
  return new Promise((resolve, reject) => {
    const file = input.files[0];
    if (!file) { reject(new Error("choose a file first")); return; }
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(new Error("the file could not be read"));
    reader.readAsText(file);
  });
}

// ---- the game ----

// Shows a game (new, or opened by its link) and follows its changes. The link stays in the
// address, so that a reload resumes the game.
function enter(v) {
  paused = false;
  $("setup").hidden = true;
  $("play").hidden = false;
  $("download").href = `/api/games/${v.id}/record`;
  history.replaceState(null, "", `#game=${v.id}`);
  draw(v);
  follow(v.id);
}

// Every change of the game made elsewhere (a friend's move, a spectator's view of both) is drawn
// as soon as the server announces it; a lost connection is retried by the browser.
function follow(id) {
  if (events) events.close();
  announced = 0;
  events = new EventSource(`/api/games/${id}/events`);
  events.addEventListener("change", (e) => {
    $("connection").hidden = true;
    announced = JSON.parse(e.data).changes;
    catchUp();
  });
  events.addEventListener("error", () => {
    if (!events || events.readyState === EventSource.CLOSED) {
      say("This game is no longer on the server.");
    } else {
      $("connection").hidden = false;
    }
  });
}

// Fetches the latest view when the server has announced changes the page has not drawn.
async function catchUp() {
  const v = view;
  if (!v || !v.live || announced <= v.changes || document.body.dataset.busy === "1") return;
  try {
    const latest = await api("GET", `/api/games/${v.id}?from=${v.steps}`);
    if (view && view.id === v.id && view.live && latest.changes > view.changes) await present(latest);
  } catch (e) {
    say(e.message);
  }
  advance();
}

// Opens the game whose link is in the address (`#game=…`), if any.
async function resume() {
  const found = /game=([0-9a-f]{32})/.exec(location.hash);
  if (!found || (view && view.id === found[1])) return;
  try {
    enter(await api("GET", `/api/games/${found[1]}`));
    advance();
  } catch (e) {
    leave();
    $("setup-error").textContent = e.message;
  }
}

// Back to setting a game up; the game shown is no longer followed.
function leave() {
  view = null;
  if (events) events.close();
  events = null;
  history.replaceState(null, "", "#");
  $("play").hidden = true;
  $("setup").hidden = false;
}

// Shows step `at` (the latest if undefined); a step on from the one shown plays its move out.
async function show(id, at) {
  if (showing) { showing.skip(); return; }
  const query = at === undefined ? "" : `?at=${at}`;
  const before = view;
  const v = await api("GET", `/api/games/${id}${query}`);
  if (before && before.id === id && v.at === before.at + 1) {
    await playStep(before, v, v.at);
    if (view !== before) return;
  }
  draw(v);
}

// Sends a request that changes the game and draws the answer; a refusal is shown and changes
// nothing.
async function act(path, body) {
  if (!view) return;
  // A move still being played out is finished first: nothing is done on a board not yet seen.
  if (showing) { showing.skip(); return; }
  const id = view.id;
  busy(true);
  say("");
  try {
    const answer = await api("POST", `/api/games/${id}/${path}`, body);
    // A game left for a new one while the request was under way stays left.
    if (view && view.id === id) await present(answer);
    return answer;
  } catch (e) {
    say(e.message);
    return null;
  } finally {
    busy(false);
    catchUp();
    advance();
  }
}

// Draws a new view of the game. A move new to this page is first played out on the board, stone
// by stone (sowing games), its line already in the move list; "Skip", a click on the board or a
// key ends it at once.
async function present(v) {
  const before = view;
  if (before && before.id === v.id && before.live && v.live && v.steps > before.steps) {
    await playStep(before, v, v.steps - 1);
    // The game was left while its move was shown.
    if (view !== before) return;
  }
  draw(v);
}

// Plays the move of step `step` out on the board shown for `before`, where the pace asks for it
// and the move has moments; `v` is the view that follows.
async function playStep(before, v, step) {
  // The pace is offered, and moves played out, in sowing games only.
  const pace = Number($("pace").value);
  if (pace <= 0 || $("pace").hidden) return;
  const was = document.body.dataset.busy;
  busy(true);
  try {
    const shown = await api("GET", `/api/games/${v.id}/moments?step=${step}`);
    if (view !== before || !shown.moments.length) return;
    $("thinking").hidden = true;
    if (v.live) {
      log = log.filter((entry) => entry.step < v.log_from).concat(v.log);
      drawLog();
    }
    await playOut(before.state, shown.moments, pace, log.find((entry) => entry.step === step));
  } catch (_) {
    // The moments are a nicety: without them the move is drawn whole.
  } finally {
    document.body.dataset.busy = was;
  }
}

// Shows each moment of a move for `pace` milliseconds, the pits it changed outlined and the
// stones in hand said, until the last or a skip.
async function playOut(state, moments, pace, line) {
  let skip;
  const skipped = new Promise((resolve) => { skip = () => resolve(true); });
  showing = { skip };
  $("skip").hidden = false;
  try {
    for (const m of moments) {
      $("board").innerHTML = m.svg;
      markChanges(state, m.state);
      state = m.state;
      const hand = m.hand ? ` (${m.hand} in hand)` : "";
      $("last-words").textContent = line ? `${line.text}${hand}` : hand;
      const wait = new Promise((resolve) => setTimeout(() => resolve(false), pace));
      if (await Promise.race([wait, skipped])) break;
    }
  } finally {
    showing = null;
    $("skip").hidden = true;
  }
}

function draw(v) {
  const before = view && view.id === v.id ? view.state : null;
  const offered = view && view.id === v.id ? view.offer : null;
  if (!view || view.id !== v.id) log = [];
  log = log.filter((entry) => entry.step < v.log_from).concat(v.log);
  view = v;
  picked = null;
  chosen = [];
  $("title").textContent = `${v.game.name}: ${v.game.players[0]} (${v.seats[0]}) – ${v.game.players[1]} (${v.seats[1]})`;
  $("description").textContent = v.game.description;
  const reviewing = !v.live;
  $("status").textContent = (reviewing ? `Reviewing step ${v.at} of ${v.steps - 1}. ` : "") +
    (v.access === "watcher" ? "Watching: " : "") + v.status + waiting(v);
  // The last thing that happened, in words (a capture, a turn that goes on).
  const last = log.length ? log[log.length - 1] : null;
  $("last-words").textContent = v.live && last && last.step > 0 ? `Last: ${last.text}.` : "";
  drawLinks(v);
  drawOffer(v, offered);
  $("board").innerHTML = v.svg;
  if (before) markChanges(before, v.state);
  $("review-position").textContent = `step ${v.at} of ${v.steps - 1}`;
  $("first-step").disabled = v.at === 0;
  $("prev-step").disabled = v.at === 0;
  $("next-step").disabled = v.live;
  $("last-step").disabled = v.live;
  // The seat whose turn it is is played from this page.
  const mine = v.live && v.turn !== null && v.you[v.turn];
  const person = mine && !v.computer;
  const owner = v.access === "owner";
  const rolling = v.live && v.awaiting === "roll" && (person || (v.computer && owner && $("real-dice").checked));
  $("roll").disabled = !(v.live && v.awaiting === "roll" && person);
  $("dice-typed").disabled = !rolling;
  $("roll-typed").disabled = !rolling;
  const moving = person && v.awaiting === "move";
  $("move-text").disabled = !moving;
  $("play-typed").disabled = !moving;
  $("controls").hidden = !v.game.dice;
  $("clear-steps").hidden = v.game.family !== "tables";
  $("clear-steps").disabled = true;
  $("steps-chosen").textContent = "";
  $("hint").disabled = !moving;
  $("undo").disabled = !v.undoable;
  $("offer-end").hidden = !v.may_end;
  $("resigning").hidden = !v.may_resign;
  $("next-game").disabled = !(v.live && v.awaiting === "next game" && v.access !== "watcher");
  const both = v.seats.every((s) => s !== "human" && s !== "friend");
  $("pause").hidden = !both || !owner;
  $("speed").hidden = !both || !owner;
  $("pace").hidden = v.game.family !== "sowing";
  $("pause").textContent = paused ? "Go on" : "Pause";
  $("hints").replaceChildren();
  drawChoices(moving ? v.legal : [], moving ? v.legal_count : 0);
  drawLog();
  if (moving) makeClickable();
}

// Who the page waits for, when a person elsewhere is to play.
function waiting(v) {
  if (!v.live || v.turn === null || v.you[v.turn] || v.computer || v.access === "watcher") return "";
  return ` (waiting for ${v.game.players[v.turn]}, who plays from their own link)`;
}

// The links of a game begun here: the friend's seat, and the spectators'.
function drawLinks(v) {
  const friends = v.links ? v.links.friends.filter((k) => k) : [];
  $("links").hidden = !v.links;
  if (!v.links) return;
  const at = (key) => `${location.origin}/#game=${key}`;
  $("friend-link-row").hidden = friends.length === 0;
  $("friend-link").value = friends.map(at).join("  ");
  $("watch-link").value = at(v.links.watch);
}

// An offer to end the game, or a resignation, made to a person elsewhere: they answer it here;
// the one who made it waits for the answer.
function drawOffer(v, offered) {
  const names = v.game.players;
  const o = v.live ? v.offer : null;
  $("offer").hidden = !o;
  if (o) {
    const to = 1 - o.by;
    const what = o.what === "end"
      ? `${names[o.by]} offers to end the game here.`
      : `${names[o.by]} resigns, conceding ${{ single: "the game", gammon: "a gammon", backgammon: "a backgammon" }[o.what]}.`;
    const answers = v.you[to];
    $("offer-text").textContent = answers ? `${what} Do you accept?` : `${what} Waiting for ${names[to]}'s answer…`;
    $("accept-offer").hidden = !answers;
    $("decline-offer").hidden = !answers;
  } else if (offered && v.you[offered.by] && !v.you[1 - offered.by] && v.awaiting !== "nothing" && v.awaiting !== "next game") {
    say(`${names[1 - offered.by]} declines; play on.`);
  }
}

// The moves to click; a turn with more legal moves than a view lists says so, and any other
// is typed.
function drawChoices(moves, count = moves.length) {
  const box = $("choices");
  box.replaceChildren();
  if (count > moves.length) {
    const note = document.createElement("p");
    note.id = "more-moves";
    note.textContent = `${count} legal moves: the first ${moves.length} are listed; type any other below.`;
    box.appendChild(note);
  }
  for (const m of moves) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = m.text;
    b.className = "move";
    b.addEventListener("click", () => act("move", { move: m.text }));
    box.appendChild(b);
  }
}

function drawLog() {
  const ol = $("log");
  ol.replaceChildren();
  for (const entry of log) {
    const li = document.createElement("li");
    li.value = entry.step;
    li.textContent = entry.text;
    if (entry.step === view.at) li.className = "here";
    li.addEventListener("click", () => show(view.id, entry.step));
    ol.appendChild(li);
  }
  // The step shown is scrolled into the list's view (never the page: the board stays put).
  const here = ol.querySelector(".here");
  if (here) {
    const top = here.offsetTop - ol.offsetTop;
    if (top < ol.scrollTop || top + here.offsetHeight > ol.scrollTop + ol.clientHeight) {
      ol.scrollTop = top - ol.clientHeight / 2;
    }
  }
}

// What the computer does next, when it is its turn: roll, or think and move.
async function advance() {
  const v = view;
  if (!v || !v.live || !v.computer || paused || v.access !== "owner") return;
  const both = v.seats.every((s) => s !== "human" && s !== "friend");
  if (both) await new Promise((r) => setTimeout(r, Number($("speed").value)));
  if (view !== v || paused) return;
  if (v.awaiting === "roll") {
    if (!$("real-dice").checked) await act("roll");
  } else if (v.awaiting === "move") {
    $("thinking").hidden = false;
    try { await act("computer"); } finally { $("thinking").hidden = true; }
  }
}

// Outlines what changed since the position shown before: the pits, stores and points whose
// counts differ, so that the answer to a move is easy to see.
function markChanges(before, after) {
  const differs = (a, b) => JSON.stringify(a) !== JSON.stringify(b);
  for (const spot of spots()) {
    const d = spot.dataset;
    let changed = false;
    if (d.pit !== undefined && before.pits && after.pits) {
      const k = Number(d.pit) - 1;
      changed = differs(before.pits[d.side]?.[k], after.pits[d.side]?.[k]);
    } else if (d.store !== undefined && before.stores) {
      changed = differs(before.stores[d.store], after.stores[d.store]);
    } else if (d.p0 !== undefined && before.points) {
      changed = [0, 1].some((p) => {
        const n = Number(d["p" + p]) - 1;
        return differs(before.points[p]?.[n], after.points[p]?.[n]);
      });
    } else if (d.spot === "bar" || d.spot === "off" || d.spot === "pool") {
      changed = differs(before[d.spot], after[d.spot]);
    }
    if (changed) spot.classList.add("changed");
  }
}

// ---- clicking on the board ----

function spots() {
  return Array.from($("board").querySelectorAll(".spot"));
}

function clearMarks() {
  for (const s of spots()) s.classList.remove("from", "to", "lands", "taken");
}

function makeClickable() {
  if (view.game.family === "sowing") sowingClicks(); else tablesClicks();
}

// Sowing: a pit that can be sown (or picked, after a capture) is clickable; hovering shows where
// its stones go (the pits the move fills) and what it takes; a click plays it. A move names its
// pit's side when the pit is across the board (`o3`).
function sowingClicks() {
  const mover = view.state.to_move;
  for (const spot of spots()) {
    if (spot.dataset.pit === undefined) continue;
    const side = Number(spot.dataset.side);
    const pit = Number(spot.dataset.pit);
    const moves = view.legal.filter((m) => m.pit === pit && (m.side ?? mover) === side);
    if (moves.length === 0) continue;
    spot.classList.add("movable");
    spot.addEventListener("mouseenter", () => markSowing(moves[0].after, side === mover ? pit : 0));
    spot.addEventListener("mouseleave", clearMarks);
    spot.addEventListener("click", () => {
      if (moves.length === 1) act("move", { move: moves[0].text });
      else {
        drawChoices(moves);
        say("Choose the way round: " + moves.map((m) => m.text).join(" or "));
      }
    });
  }
}

function markSowing(after, pit) {
  clearMarks();
  const before = view.state;
  const mover = before.to_move;
  for (const spot of spots()) {
    if (spot.dataset.pit !== undefined) {
      const side = Number(spot.dataset.side);
      const k = Number(spot.dataset.pit) - 1;
      const was = before.pits[side][k];
      const now = after.pits[side][k];
      if (now > was) spot.classList.add("lands");
      else if (now < was && !(side === mover && k === pit - 1)) spot.classList.add("taken");
    } else if (spot.dataset.store !== undefined) {
      const p = Number(spot.dataset.store);
      if (after.stores[p] > before.stores[p]) spot.classList.add("lands");
    }
  }
}

// Tables: click a checker's point (or the bar, or the pool), then where it goes; the steps add up to a
// move, played once they make one of the legal moves.
function key(spot) {
  if (spot.dataset.spot) return spot.dataset.spot; // "bar", "off" or "pool"
  // Steps are in the numbering of the player whose checkers move (the opponent's in a first
  // turn played with them).
  const n = spot.dataset["p" + (view.numbering ?? view.state.to_move)];
  return n === undefined ? null : Number(n);
}

const same = (a, b) => a[0] === b[0] && a[1] === b[1];

// The steps of `move` left once `steps` are taken out; null when `steps` are not all in it.
function rest(move, steps) {
  const left = move.steps.slice();
  for (const s of steps) {
    const i = left.findIndex((t) => same(t, s));
    if (i < 0) return null;
    left.splice(i, 1);
  }
  return left;
}

// Where a checker at `from` can go by the steps left in some legal move: each destination with
// the steps of its path.
function targets(from) {
  const found = new Map();
  for (const m of view.legal) {
    const left = rest(m, chosen);
    if (!left) continue;
    const walk = (at, path, pool) => {
      pool.forEach((s, i) => {
        if (s[0] !== at) return;
        const next = path.concat([s]);
        if (!found.has(s[1])) found.set(s[1], next);
        walk(s[1], next, pool.filter((_, j) => j !== i));
      });
    };
    walk(from, [], left);
  }
  return found;
}

function tablesClicks() {
  const movable = new Set();
  for (const m of view.legal) {
    const left = rest(m, chosen);
    if (left) for (const s of left) movable.add(s[0]);
  }
  for (const spot of spots()) {
    const k = key(spot);
    if (k === null) continue;
    if (movable.has(k)) spot.classList.add("movable");
    spot.addEventListener("click", () => tablesClick(k));
  }
}

function tablesClick(k) {
  if (picked !== null) {
    const paths = targets(picked);
    if (paths.has(k)) {
      chosen = chosen.concat(paths.get(k));
      picked = null;
      return afterStep();
    }
    if (k === picked) { picked = null; clearMarks(); return; }
  }
  const reach = targets(k);
  if (reach.size === 0) {
    say(k === "off" ? "Pick a checker first." : "No checker of yours can move from there now.");
    return;
  }
  say("");
  picked = k;
  clearMarks();
  for (const spot of spots()) {
    const s = key(spot);
    if (s === k) spot.classList.add("from");
    else if (reach.has(s)) spot.classList.add("to");
  }
}

function afterStep() {
  clearMarks();
  const text = chosen.map((s) => `${s[0]}/${s[1]}`).join(" ");
  const done = view.legal.find((m) => m.steps.length === chosen.length && rest(m, chosen) !== null);
  if (done) { act("move", { move: done.text }); return; }
  $("steps-chosen").textContent = `so far: ${text}`;
  $("clear-steps").disabled = false;
  drawChoices(view.legal.filter((m) => rest(m, chosen) !== null));
  // Points with a step still to play stay clickable.
  for (const spot of spots()) spot.classList.remove("movable");
  for (const m of view.legal) {
    const left = rest(m, chosen);
    if (!left) continue;
    for (const spot of spots()) if (left.some((s) => s[0] === key(spot))) spot.classList.add("movable");
  }
}

// ---- the controls ----

function parseDice(text) {
  const digits = text.trim().split(/[\s,\-]+/).filter((t) => t !== "");
  if (digits.length === 1 && /^\d{2,}$/.test(digits[0])) return digits[0].split("").map(Number);
  return digits.map(Number);
}

async function hint() {
  busy(true);
  say("Thinking of a hint…");
  try {
    const h = await api("POST", `/api/games/${view.id}/hint`);
    say(`Hint by ${h.player}:`);
    const ol = $("hints");
    ol.replaceChildren();
    for (const m of h.moves || []) {
      const li = document.createElement("li");
      li.textContent = `${m.move.text}  (value ${m.value}, ${m.visits} ${h.player.startsWith("mcts") ? "visits" : "nodes"})`;
      li.addEventListener("click", () => act("move", { move: m.move.text }));
      ol.appendChild(li);
    }
  } catch (e) {
    say(e.message);
  } finally {
    busy(false);
  }
}

// An offer to end the game here: a person at the same screen answers it; a computer accepts
// when it is ahead or level.
async function offerEnd() {
  const names = view.game.players;
  const p = view.state.to_move;
  const body = {};
  if (view.seats[1 - p] === "human" && view.you[1 - p]) {
    body.accepted = window.confirm(`${names[p]} offers to end the game here. ${names[1 - p]}, do you accept?`);
  }
  answered(await act("end", body), names[1 - p]);
}

function answered(answer, other) {
  if (!answer || answer.accepted === null) return;
  say(answer.accepted ? `${other} accepts.` : `${other} declines; play on.`);
}

async function resign() {
  const names = view.game.players;
  const p = view.state.to_move;
  const level = $("resign-level").value;
  const what = { single: "the game", gammon: "a gammon", backgammon: "a backgammon" }[level];
  const body = { resign: level };
  if (view.seats[1 - p] === "human" && view.you[1 - p]) {
    body.accepted = window.confirm(`${names[p]} resigns, conceding ${what}. ${names[1 - p]}, do you accept?`);
  }
  answered(await act("resign", body), names[1 - p]);
}

// Keys for a turn: a pit's number sows it (sowing games), r rolls, u undoes, h asks for a hint,
// m goes to the move box, the arrows step through the game; never while typing in a field.
function onKey(e) {
  if (!view || $("play").hidden || e.ctrlKey || e.altKey || e.metaKey) return;
  if (showing) { e.preventDefault(); showing.skip(); return; }
  if (["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement?.tagName)) return;
  const press = (id) => { if (!$(id).disabled && !$(id).hidden) { e.preventDefault(); $(id).click(); } };
  if (/^[1-9]$/.test(e.key) && view.game.family === "sowing" && !$("play-typed").disabled) {
    const move = view.legal.find((m) => m.text === e.key);
    if (move) { e.preventDefault(); act("move", { move: move.text }); }
    return;
  }
  switch (e.key) {
    case "r": return press("roll");
    case "u": return press("undo");
    case "h": return press("hint");
    case "m": e.preventDefault(); $("move-text").focus(); return;
    case "ArrowLeft": return press("prev-step");
    case "ArrowRight": return press("next-step");
  }
}

function wire() {
  document.addEventListener("keydown", onKey);
  $("rules-select").addEventListener("change", showSeats);
  $("seat0-kind").addEventListener("change", showSeats);
  $("seat1-kind").addEventListener("change", showSeats);
  $("own-rules").addEventListener("toggle", showSeats);
  $("rules-file").addEventListener("change", async () => {
    try { $("rules-text").value = await readFile($("rules-file")); await check(); } catch (e) { $("setup-error").textContent = e.message; }
  });
  $("check").addEventListener("click", check);
  $("start").addEventListener("click", () => start());
  $("replay").addEventListener("click", async () => {
    try { await start(await readFile($("record-file"))); } catch (e) { $("setup-error").textContent = e.message; }
  });
  $("roll").addEventListener("click", () => act("roll"));
  $("roll-typed").addEventListener("click", () => act("roll", { dice: parseDice($("dice-typed").value) }));
  $("dice-typed").addEventListener("keydown", (e) => { if (e.key === "Enter") $("roll-typed").click(); });
  $("play-typed").addEventListener("click", () => act("move", { move: $("move-text").value }));
  $("move-text").addEventListener("keydown", (e) => { if (e.key === "Enter") $("play-typed").click(); });
  $("clear-steps").addEventListener("click", () => draw(view));
  $("undo").addEventListener("click", () => act("undo"));
  $("hint").addEventListener("click", hint);
  $("offer-end").addEventListener("click", offerEnd);
  $("resign").addEventListener("click", resign);
  $("next-game").addEventListener("click", () => act("next"));
  $("pause").addEventListener("click", () => { paused = !paused; draw(view); advance(); });
  $("skip").addEventListener("click", () => showing?.skip());
  $("board").addEventListener("click", () => showing?.skip());
  $("pace").value = localStorage.getItem("ludus-pace") || $("pace").value;
  $("pace").addEventListener("change", () => localStorage.setItem("ludus-pace", $("pace").value));
  $("accept-offer").addEventListener("click", () => act("answer", { accepted: true }));
  $("decline-offer").addEventListener("click", () => act("answer", { accepted: false }));
  const copy = (input) => { $(input).select(); navigator.clipboard?.writeText($(input).value).catch(() => {}); };
  $("copy-friend").addEventListener("click", () => copy("friend-link"));
  $("copy-watch").addEventListener("click", () => copy("watch-link"));
  $("new-game").addEventListener("click", leave);
  $("first-step").addEventListener("click", () => show(view.id, 0));
  $("prev-step").addEventListener("click", () => show(view.id, view.at - 1));
  $("next-step").addEventListener("click", () => show(view.id, view.at + 1));
  $("last-step").addEventListener("click", async () => { await show(view.id); advance(); });
}

wire();
window.addEventListener("hashchange", resume);
loadRules().then(resume).catch((e) => { $("setup-error").textContent = e.message; });
