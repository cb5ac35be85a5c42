// The page of `senet serve`. The server keeps no game: every call sends the record, which it
// replays and checks; the page keeps the record, the redo stack and who plays each side.

const $ = (id) => document.getElementById(id);

// How long the computer waits before it acts, so that a person can follow; `?pace=0` in the
// address (the browser test) plays at full speed.
const PACE = Number(new URLSearchParams(location.search).get("pace") ?? 350) || 0;

const state = {
  catalogue: null,
  ruleset: null, // the constants of the configuration played (name, pieces, throws, special squares, rules)
  view: null,
  players: { black: "human", white: "random" },
  redo: [], // chunks of record lines taken back by undo, last taken back last
  selected: null, // the square (or "hand") whose moves are shown
  busy: false,
  replay: null, // { header, actions, at, game, redo } while the replay viewer is open; `game` is the view left
  analysis: null, // { record, header, actions, data } of the game last analysed
  analysing: false,
  generation: 0, // bumped by every new game, so a stale computer reply is dropped
};

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function showError(error) {
  const box = $("error");
  box.textContent = error ? String(error.message || error) : "";
  box.hidden = !error;
}

function escapeHtml(text) {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

// Bold, code and nothing else: the rules' Markdown uses no more inline markup.
function inline(text) {
  return escapeHtml(text)
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
    .replace(/`(.+?)`/g, "<code>$1</code>");
}

function renderMarkdown(text) {
  const out = [];
  let list = false;
  let item = null;
  const flush = () => {
    if (item !== null) out.push(`<li>${inline(item)}</li>`);
    item = null;
  };
  for (const line of text.split("\n")) {
    if (line.startsWith("- ")) {
      if (!list) out.push("<ul>");
      list = true;
      flush();
      item = line.slice(2);
    } else if (line.startsWith("  ") && item !== null) {
      item += " " + line.trim();
    } else {
      flush();
      if (list) out.push("</ul>");
      list = false;
      if (line.startsWith("## ")) out.push(`<h3>${inline(line.slice(3))}</h3>`);
      else if (line.trim()) out.push(`<p>${inline(line)}</p>`);
    }
  }
  flush();
  if (list) out.push("</ul>");
  return out.join("\n");
}

// Squares 1-10 left to right, 11-20 right to left, 21-30 left to right.
function cell(square) {
  if (square <= 10) return { row: 1, col: square };
  if (square <= 20) return { row: 2, col: 21 - square };
  return { row: 3, col: square - 20 };
}

const sideName = (side) => (side === "black" ? "Black" : "White");
const pieceCode = (side) => (side === "black" ? "B" : "W");

function isComputer(side) {
  return state.players[side] !== "human";
}

function buildBoard() {
  const board = $("board");
  board.textContent = "";
  for (let square = 1; square <= 30; square++) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "square";
    button.id = `sq-${square}`;
    button.dataset.square = String(square);
    const { row, col } = cell(square);
    button.style.gridRow = row;
    button.style.gridColumn = col;
    button.addEventListener("click", () => clickPlace(String(square)));
    board.append(button);
  }
}

// Where a move's piece ends: the last step's landing.
const ending = (move) => move.steps[move.steps.length - 1].to;
const origin = (move) => move.steps[0].from;

function movesFrom(place) {
  return state.view.moves.filter((m) => m.steps.length > 0 && origin(m) === place);
}

function humanToMove() {
  const v = state.view;
  return !state.replay && v.phase.kind === "move" && !isComputer(v.phase.side) && !state.busy;
}

function clickPlace(place) {
  if (!humanToMove()) return;
  if (state.selected !== null) {
    const chosen = movesFrom(state.selected).filter((m) => ending(m) === place);
    if (chosen.length === 1) {
      play(chosen[0].text);
      return;
    }
    if (chosen.length > 1) {
      renderMoves(chosen);
      return;
    }
  }
  state.selected = movesFrom(place).length > 0 ? place : null;
  render();
}

function renderSquares() {
  const v = state.view;
  const special = new Map(v.special.map((s) => [s.square, s]));
  const selectedMoves = state.selected === null ? [] : movesFrom(state.selected);
  const targets = new Set(selectedMoves.map(ending));
  const movable = new Set(humanToMove() ? v.moves.filter((m) => m.steps.length).map(origin) : []);
  const lastMove = [...v.log].reverse().find((e) => e.action.startsWith("move "));
  const lastSquares = new Set(lastMove ? lastMove.action.slice(5).split(/[-,/]/) : []);
  for (let square = 1; square <= 30; square++) {
    const button = $(`sq-${square}`);
    const piece = v.board[square - 1];
    const mark = special.get(square);
    const place = String(square);
    button.className = "square";
    if (mark) button.classList.add("special");
    if (movable.has(place)) button.classList.add("movable");
    if (state.selected === place) button.classList.add("selected");
    if (targets.has(place)) button.classList.add("target");
    if (lastSquares.has(place)) button.classList.add("last");
    button.dataset.piece = piece === "." ? "" : piece;
    const who = piece === "B" ? "Black piece" : piece === "W" ? "White piece" : "empty";
    button.title = `${square}${mark ? `: ${mark.text}` : ""}`;
    button.setAttribute("aria-label", `square ${square}, ${who}${mark ? `, ${mark.text}` : ""}`);
    button.innerHTML = `<span class="num">${square}</span>`
      + (piece === "." ? "" : `<span class="piece ${piece}"></span>`)
      + (mark ? `<span class="mark">${escapeHtml(mark.mark)}</span>` : "");
  }
}

// One line per kind of special square: its sign, what it does and where.
function renderLegend() {
  const kinds = new Map();
  for (const s of state.view.special) {
    const key = `${s.mark}\u0000${s.text}`;
    if (!kinds.has(key)) kinds.set(key, { mark: s.mark, text: s.text, squares: [] });
    kinds.get(key).squares.push(s.square);
  }
  $("legend").innerHTML = [...kinds.values()]
    .map((k) => `<li><b>${escapeHtml(k.mark)}</b>${escapeHtml(k.text)}: ${k.squares.join(", ")}</li>`)
    .join("");
}

function renderTrays() {
  const v = state.view;
  const selectedMoves = state.selected === null ? [] : movesFrom(state.selected);
  for (const side of ["black", "white"]) {
    const tray = $(`tray-${side}`);
    const parts = [`<span class="piece ${pieceCode(side)}"></span> <strong>${sideName(side)}</strong>`,
      `off ${v.off[side]}/${v.pieces}`];
    if (v.in_hand[side] > 0) parts.push(`in hand ${v.in_hand[side]}`);
    if (v.captured[side] > 0) parts.push(`captured ${v.captured[side]}`);
    parts.push(`(${escapeHtml(state.players[side])})`);
    tray.innerHTML = parts.join(" · ");
    const toMove = v.phase.kind === "move" && v.phase.side === side && humanToMove();
    if (toMove && movesFrom("hand").length > 0) {
      tray.append(placeButton("hand", "Enter from hand", state.selected === "hand"));
    }
    if (toMove && selectedMoves.some((m) => ending(m) === "off")) {
      tray.append(placeButton("off", "Bear off", true));
    }
  }
}

function placeButton(place, label, target) {
  const button = document.createElement("button");
  button.type = "button";
  button.id = `place-${place}`;
  button.textContent = label;
  if (target) button.classList.add("target");
  button.addEventListener("click", () => clickPlace(place));
  return button;
}

// Four sticks, the marked (flat) sides dark; a throw of 5 or 6 shows none marked. A die
// (equal weights) is drawn as a square with its value.
function renderSticks() {
  const v = state.view;
  const value = v.last_throw;
  const die = v.throws.every((t) => t.weight === v.throws[0].weight);
  const box = $("sticks");
  if (value === null || value === undefined) {
    box.innerHTML = `<span>${die ? "The die" : "The sticks"} wait${die ? "s" : ""} for a throw</span>`;
  } else if (die) {
    box.innerHTML = `<svg width="48" height="48" viewBox="0 0 48 48" role="img" aria-label="die showing ${value}">`
      + `<rect x="2" y="2" width="44" height="44" rx="8" fill="#fffaf0" stroke="#2b2118" stroke-width="3"/>`
      + `<text x="24" y="33" text-anchor="middle" font-size="24" font-weight="700">${value}</text></svg>`
      + `<span class="value">${value}</span>`;
  } else {
    const marked = value <= 4 ? value : 0;
    let svg = `<svg width="92" height="56" viewBox="0 0 92 56" role="img" aria-label="${marked} of 4 sticks marked side up">`;
    for (let i = 0; i < 4; i++) {
      const x = 4 + i * 22;
      const up = i < marked;
      svg += `<rect x="${x}" y="4" width="14" height="48" rx="7" fill="${up ? "#2b2118" : "#f0d9a8"}" stroke="#2b2118" stroke-width="2"/>`;
      if (!up) svg += `<line x1="${x + 7}" y1="10" x2="${x + 7}" y2="46" stroke="#8a6d3b" stroke-width="2"/>`;
    }
    box.innerHTML = svg + `</svg><span class="value">${value}</span>`;
  }
  const total = v.throws.reduce((sum, t) => sum + t.weight, 0);
  const row = (f) => v.throws.map(f).join("");
  $("chances").innerHTML = `<tr><th>throw</th>${row((t) => `<td class="${t.value === value ? "now" : ""}">${t.value}</td>`)}</tr>`
    + `<tr><th>chance</th>${row((t) => `<td title="${(100 * t.weight / total).toFixed(2)}%">${t.weight}/${total}</td>`)}</tr>`;
}

function moveLabel(move) {
  if (move.steps.length === 0) {
    return move.throw ? `Give up the ${move.throw}` : "Pass (no move)";
  }
  return move.text;
}

function renderMoves(list) {
  const box = $("moves");
  box.textContent = "";
  if (!humanToMove()) return;
  const moves = list || state.view.moves;
  for (const move of moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.dataset.move = move.text;
    button.textContent = moveLabel(move);
    button.addEventListener("click", () => play(move.text));
    box.append(button);
  }
}

function renderStatus() {
  const v = state.view;
  let text;
  if (v.outcome) text = v.outcome.text;
  else if (v.phase.kind === "throw") text = `${sideName(v.phase.side)} to throw`;
  else text = `${sideName(v.phase.side)} to move with ${v.last_throw ?? "the throws stored"}`;
  if (state.replay) text = `Replay: ${text}`;
  else if (!v.outcome && isComputer(v.phase.side)) text += ` (${state.players[v.phase.side]} is thinking)`;
  $("status").textContent = text;
}

function renderControls() {
  const v = state.view;
  const live = !state.replay && !state.busy && !v.outcome;
  const humanThrow = live && v.phase.kind === "throw" && !isComputer(v.phase.side);
  $("throw").disabled = !humanThrow;
  const manual = $("manual");
  manual.textContent = "";
  if (humanThrow) {
    manual.append("or enter: ");
    for (const t of v.throws) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "manual";
      button.textContent = String(t.value);
      button.setAttribute("aria-label", `a throw of ${t.value}`);
      button.addEventListener("click", () => doThrow(t.value));
      manual.append(button);
    }
  }
  $("undo").disabled = state.replay !== null || state.busy || undoPoint() === null;
  $("redo").disabled = state.replay !== null || state.busy || state.redo.length === 0;
  $("hint").disabled = !humanToMove();
  $("analyse").disabled = state.analysing;
  $("replay").hidden = state.replay !== null;
  $("replay-controls").hidden = state.replay === null;
  if (state.replay) {
    $("replay-at").textContent = `${state.replay.at} / ${state.replay.actions.length}`;
  }
}

function renderLog() {
  const log = $("log");
  log.textContent = "";
  for (const entry of state.view.log) {
    const li = document.createElement("li");
    li.className = entry.side;
    li.textContent = entry.text;
    log.append(li);
  }
  log.scrollTop = log.scrollHeight;
}

function render() {
  renderStatus();
  renderSquares();
  renderTrays();
  renderSticks();
  renderMoves();
  renderControls();
  renderLog();
  $("record").textContent = state.view.record;
  renderAnalysisPlace();
}

// An answer of the API joined to what the page holds: the configuration's constants come
// once, with a game loaded or started (`ruleset`), and the answer to an action carries only
// the log lines from `log_from` on.
function joined(view) {
  if (view.ruleset) state.ruleset = view.ruleset;
  const earlier = state.view && view.log_from > 0 ? state.view.log.slice(0, view.log_from) : [];
  return { ...view, ...state.ruleset, log: [...earlier, ...view.log] };
}

// A new view of the game; `keepRedo` is set by redo itself.
function show(answer, keepRedo = false) {
  const view = joined(answer);
  const rulesChanged = !state.view || state.view.rules !== view.rules;
  state.view = view;
  state.selected = null;
  if (!keepRedo) state.redo = [];
  if (rulesChanged) {
    $("rules").innerHTML = renderMarkdown(view.rules_text);
    renderLegend();
  }
  $("hints").textContent = "";
  showError(null);
  render();
  computerTurn();
}

async function act(path, extra, keepRedo = false) {
  if (state.busy) return;
  state.busy = true;
  const generation = state.generation;
  try {
    const view = await api(path, { record: state.view.record, ...extra });
    if (generation !== state.generation) return;
    state.busy = false;
    show(view, keepRedo);
  } catch (error) {
    state.busy = false;
    showError(error);
    render();
  }
}

const play = (move) => act("/api/move", { move });
const doThrow = (value) => act("/api/throw", value === undefined ? {} : { value });

// The computer acts once the page has drawn the last action, one action at a time.
function computerTurn() {
  const v = state.view;
  if (state.replay || v.outcome || state.busy || !isComputer(v.phase.side)) return;
  if (state.redo.length > 0) return; // after an undo, the person decides
  const generation = state.generation;
  setTimeout(() => {
    if (generation === state.generation && !state.busy && state.view === v) {
      act("/api/computer", { player: state.players[v.phase.side] });
    }
  }, PACE);
}

// Undo takes back the last move a person made, with everything after it; the throw that
// move spent stays, so undoing cannot fish for a better throw.
function undoPoint() {
  const log = state.view.log;
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i].action.startsWith("move ") && !isComputer(log[i].side)) return i;
  }
  return null;
}

function recordOf(header, actions) {
  return [header, ...actions].join("\n") + "\n";
}

async function undo() {
  const at = undoPoint();
  if (at === null || state.busy) return;
  const actions = state.view.actions;
  const chunk = actions.slice(at);
  await load(recordOf(state.view.header, actions.slice(0, at)));
  state.redo.push(chunk);
  renderControls();
}

async function redo() {
  if (state.redo.length === 0 || state.busy) return;
  const chunk = state.redo.pop();
  const redoLeft = state.redo;
  await load(recordOf(state.view.header, [...state.view.actions, ...chunk]), true);
  state.redo = redoLeft;
  renderControls();
  computerTurn();
}

async function load(record, keepRedo = false) {
  state.busy = true;
  try {
    const view = await api("/api/game", { record });
    state.busy = false;
    show(view, keepRedo);
  } catch (error) {
    state.busy = false;
    showError(error);
  }
}

async function hint() {
  if (!humanToMove()) return;
  const player = $("hint-player").value;
  const box = $("hints");
  box.textContent = `${player} is thinking…`;
  try {
    const h = await api("/api/hint", { record: state.view.record, player });
    const rows = h.moves.map((m) => `<tr class="${m.move === h.chosen ? "best" : ""}">`
      + `<td><button type="button" class="hint-move" data-move="${escapeHtml(m.move)}">${escapeHtml(m.move)}</button></td>`
      + `<td>${escapeHtml(m.shown)}</td></tr>`).join("");
    box.innerHTML = `<p>${escapeHtml(h.player)}: the values are ${escapeHtml(h.meaning)}.</p>`
      + `<table><tr><th>move</th><th>value</th></tr>${rows}</table>`;
    for (const button of box.querySelectorAll(".hint-move")) {
      button.addEventListener("click", () => play(button.dataset.move));
    }
  } catch (error) {
    box.textContent = "";
    showError(error);
  }
}

function save() {
  const blob = new Blob([state.view.record], { type: "text/plain" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `senet-${state.view.rules.replace(/[^a-z0-9_=-]+/gi, "_")}.txt`;
  link.click();
  URL.revokeObjectURL(link.href);
}

async function loadFile(event) {
  const file = event.target.files[0];
  if (!file) return;
  const text = await file.text();
  event.target.value = "";
  state.generation++;
  state.replay = null;
  closeAnalysis();
  await load(text);
}

async function replayTo(at) {
  const r = state.replay;
  r.at = Math.max(0, Math.min(at, r.actions.length));
  try {
    const view = await api("/api/game", { record: recordOf(r.header, r.actions.slice(0, r.at)) });
    state.view = joined(view);
    state.selected = null;
    render();
  } catch (error) {
    showError(error);
  }
}

function startReplay() {
  if (state.busy) return;
  state.generation++;
  const v = state.view;
  state.replay = { header: v.header, actions: v.actions, at: 0, game: v, redo: state.redo };
  replayTo(0);
}

async function leaveReplay() {
  const r = state.replay;
  state.replay = null;
  await load(r.game.record);
  state.redo = r.redo;
  renderControls();
}

// The game being played: in a replay, the one the replay left.
const theGame = () => (state.replay ? state.replay.game : state.view);

// ---- The analysis view: `/api/analyse` charted, tabled and listed; a point clicked shows
// its position as a replay of the analysed record.

const LABEL_MARK = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const inPoints = (x) => (100 * x).toFixed(1);
const percent = (x) => `${(100 * x).toFixed(1)}%`;
let analysisRuns = 0; // bumped by each analysis and each new game, so a stale answer is dropped
let pointRuns = 0; // bumped by each point asked for, so only the last is shown

function closeAnalysis() {
  analysisRuns++;
  state.analysis = null;
  state.analysing = false;
  $("analysis").hidden = true;
  if (state.view) renderControls();
}

async function analyseGame() {
  if (state.analysing) return;
  const game = theGame();
  const run = ++analysisRuns;
  state.analysing = true;
  $("analysis").hidden = false;
  $("analysis-body").hidden = true;
  const status = $("analysis-status");
  status.classList.remove("error");
  status.textContent = "analysing…";
  renderControls();
  try {
    const data = await api("/api/analyse", { record: game.record });
    if (run !== analysisRuns) return;
    state.analysis = { record: game.record, header: game.header, actions: game.actions, data };
    status.textContent = "";
    renderAnalysis();
  } catch (error) {
    if (run !== analysisRuns) return;
    status.classList.add("error");
    status.textContent = String(error.message || error);
  } finally {
    if (run === analysisRuns) {
      state.analysing = false;
      renderControls();
    }
  }
}

// The decisions the analysis labelled, in game order.
const costlyMoves = (data) => data.steps.filter((s) => s.kind === "move" && s.label);

// The chart's geometry in pixels: drawn at the width it is shown at, so that its text keeps
// its size on a phone.
function chartBox(width) {
  const height = width < 500 ? 170 : 210;
  const left = 38;
  const top = 8;
  return { width, height, left, top, plotWidth: width - left - 10, plotHeight: height - top - 24 };
}

// Round steps for the action axis: 1, 2 or 5 times a power of ten, about five of them.
function tickStep(n) {
  const rough = Math.max(1, n / 5);
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= rough);
}

function renderChart() {
  const data = state.analysis.data;
  const box = $("analysis-chart");
  const c = chartBox(Math.max(280, Math.floor(box.clientWidth)));
  const n = Math.max(1, data.points.length - 1);
  const x = (k) => c.left + (c.plotWidth * k) / n;
  const y = (v) => c.top + c.plotHeight * (1 - v);
  const f = (v) => v.toFixed(1);
  const xy = data.points.map((p, k) => [f(x(k)), f(y(p.black))]);
  const parts = [
    `<rect class="plot" x="${c.left}" y="${c.top}" width="${c.plotWidth}" height="${c.plotHeight}"/>`,
  ];
  for (const v of [0, 0.25, 0.75, 1]) {
    parts.push(`<line class="grid" x1="${c.left}" x2="${c.left + c.plotWidth}" y1="${f(y(v))}" y2="${f(y(v))}"/>`);
  }
  parts.push(`<line class="half" x1="${c.left}" x2="${c.left + c.plotWidth}" y1="${f(y(0.5))}" y2="${f(y(0.5))}"/>`);
  for (const v of [0, 0.5, 1]) {
    parts.push(`<text x="${c.left - 4}" y="${f(y(v) + 4)}" text-anchor="end">${100 * v}%</text>`);
  }
  const step = tickStep(n);
  for (let k = 0; k < data.points.length; k += step) {
    parts.push(`<text x="${f(x(k))}" y="${c.height - 8}" text-anchor="middle">${k}</text>`);
  }
  parts.push(`<line id="analysis-cursor" class="cursor" y1="${c.top}" y2="${c.top + c.plotHeight}" visibility="hidden"/>`);
  parts.push(`<path class="line" d="${xy.map(([px, py], k) => `${k ? "L" : "M"}${px} ${py}`).join("")}"/>`);
  let exact = "";
  data.points.forEach((p, k) => {
    if (k > 0 && p.exact && data.points[k - 1].exact) exact += `M${xy[k - 1].join(" ")}L${xy[k].join(" ")}`;
  });
  if (exact) parts.push(`<path class="exact-line" d="${exact}"/>`);
  data.points.forEach((p, k) => {
    parts.push(`<circle class="point${p.exact ? " exact" : ""}" data-at="${k}" cx="${xy[k][0]}" cy="${xy[k][1]}" r="${p.exact ? 2.2 : 1.3}"/>`);
  });
  for (const m of costlyMoves(data)) {
    const [px, py] = xy[m.action];
    parts.push(`<circle class="mark ${m.label}" data-at="${m.action}" cx="${px}" cy="${py}" r="4.5"/>`);
  }
  box.innerHTML = `<svg id="analysis-svg" width="${c.width}" height="${c.height}" viewBox="0 0 ${c.width} ${c.height}"`
    + ` tabindex="0" role="img" aria-label="Black's chance to win over the ${n} actions;`
    + ` click a point, or use the arrow keys, to see its position">${parts.join("")}</svg>`;
  const svg = $("analysis-svg");
  // The point under the pointer: the across position picks the points drawn within a pixel
  // or two of it (in a long game several share a pixel), and of those the one nearest
  // up or down is taken.
  const last = data.points.length - 1;
  const nearest = (event) => {
    const local = svg.createSVGPoint();
    local.x = event.clientX;
    local.y = event.clientY;
    const at = local.matrixTransform(svg.getScreenCTM().inverse());
    const reach = Math.max(1.5, c.plotWidth / n / 2);
    const guess = Math.max(0, Math.min(last, Math.round(((at.x - c.left) / c.plotWidth) * n)));
    let best = guess;
    let bestY = Infinity;
    let bestX = Infinity;
    const span = Math.ceil((reach * n) / c.plotWidth);
    for (let k = Math.max(0, guess - span); k <= Math.min(last, guess + span); k++) {
      const dx = Math.abs(x(k) - at.x);
      const dy = Math.abs(y(data.points[k].black) - at.y);
      if (dx <= reach && (dy < bestY || (dy === bestY && dx < bestX))) {
        best = k;
        bestY = dy;
        bestX = dx;
      }
    }
    return best;
  };
  svg.addEventListener("click", (event) => showPoint(nearest(event)));
  svg.addEventListener("pointermove", (event) => describePoint(nearest(event)));
  svg.addEventListener("pointerleave", () => describePoint(shownPoint()));
  svg.addEventListener("keydown", (event) => {
    const shown = shownPoint() ?? 0;
    const to = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: data.points.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    event.stopPropagation();
    showPoint(Math.max(0, Math.min(to, data.points.length - 1)));
  });
  state.analysis.geometry = { x, y };
}

function renderSides() {
  const data = state.analysis.data;
  const [black, white] = data.sides;
  const result = (r) => {
    if (!data.finished) return percent(r);
    return `${inPoints(r)} (${r === 1 ? "won" : r === 0 ? "lost" : "drawn"})`;
  };
  const signed = (x) => (x > 0 ? "+" : "") + inPoints(x);
  const rows = [
    ["decisions with a choice", (s) => s.decisions],
    ["forced moves", (s) => s.forced],
    ["mean loss, points a decision", (s) => inPoints(s.error_rate)],
    ["inaccuracies", (s) => s.inaccuracies],
    ["mistakes", (s) => s.mistakes],
    ["blunders", (s) => s.blunders],
    ["throws", (s) => s.throws],
    ["luck, points", (s) => signed(s.luck)],
    [data.finished ? "result" : "chance now", (s) => result(s.result)],
    ["luck-adjusted result", (s) => inPoints(s.luck_adjusted)],
  ];
  $("analysis-sides").innerHTML = `<tr><th></th><th scope="col">Black</th><th scope="col">White</th></tr>`
    + rows.map(([name, f]) => `<tr><th scope="row">${name}</th><td>${f(black)}</td><td>${f(white)}</td></tr>`).join("");
}

function renderCostly() {
  const list = $("analysis-costly");
  list.textContent = "";
  const costly = costlyMoves(state.analysis.data);
  if (costly.length === 0) {
    const li = document.createElement("li");
    li.textContent = "No costly move.";
    list.append(li);
  }
  for (const m of costly) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "costly";
    button.dataset.at = String(m.action);
    button.innerHTML = `<span class="dot ${m.label}"></span><b>Action ${m.action + 1}</b> · ${sideName(m.side)}`
      + ` played ${escapeHtml(m.played)}${LABEL_MARK[m.label]}, best ${escapeHtml(m.best)}`
      + ` · loss ${inPoints(m.loss)} points · ${m.label}${m.exact ? " · exact" : ""}`;
    button.title = "Show the position where this move was chosen";
    button.addEventListener("click", () => showPoint(m.action));
    li.append(button);
    list.append(li);
  }
}

function renderAnalysis() {
  const { data } = state.analysis;
  $("analysis-body").hidden = false;
  const tables = data.tables ? `endgame tables: ${data.tables}` : "no endgame tables: every value is the evaluator's";
  $("analysis-about").textContent = `${data.points.length - 1} actions, valued by ${data.evaluator}; ${tables}.`
    + (data.finished ? "" : " The game is not over: the last point is the chance now.");
  renderChart();
  renderSides();
  $("analysis-summary").textContent = data.summary;
  renderCostly();
  renderAnalysisPlace();
}

// The point of the analysis the board shows: a replay of the analysed record, or none.
function shownPoint() {
  const r = state.replay;
  const a = state.analysis;
  if (!r || !a || recordOf(r.header, r.actions) !== a.record) return null;
  return r.at;
}

// What point `k` is: the action that led to it and Black's chance there.
function describePoint(k) {
  const box = $("analysis-at");
  const a = state.analysis;
  if (k === null || !a) {
    box.textContent = "Click the chart or a costly move to see its position on the board.";
    return;
  }
  const p = a.data.points[k];
  const step = a.data.steps[k - 1];
  let what = "The start";
  if (step) {
    const did = step.kind === "throw" ? `threw ${step.throw}` : `played ${step.played}`;
    what = `After action ${k} (${sideName(step.side)} ${did}${step.label ? `, a ${step.label}` : ""})`;
  }
  box.textContent = `${what}: Black ${percent(p.black)} to win${p.exact ? ", exact" : ""}.`;
}

// The chart's cursor and the list's highlight at the point shown, and whether the game has
// moved on since the analysis.
function renderAnalysisPlace() {
  const a = state.analysis;
  if (!a || !a.geometry) return;
  const shown = shownPoint();
  const cursor = $("analysis-cursor");
  if (cursor) {
    cursor.setAttribute("visibility", shown === null ? "hidden" : "visible");
    const px = a.geometry.x(shown ?? 0).toFixed(1);
    cursor.setAttribute("x1", px);
    cursor.setAttribute("x2", px);
  }
  for (const button of document.querySelectorAll("#analysis-costly button")) {
    button.classList.toggle("shown", Number(button.dataset.at) === shown);
  }
  describePoint(shown);
  const stale = theGame().record !== a.record;
  const status = $("analysis-status");
  if (!state.analysing && !status.classList.contains("error")) {
    status.textContent = stale ? "The game has changed since this analysis: analyse again to include it." : "";
  }
}

// Shows point `at` of the analysis on the board: the analysed record replayed to `at`
// actions, read-only until "Back to the game".
async function showPoint(at) {
  const a = state.analysis;
  if (!a) return;
  const run = ++pointRuns;
  // A move or computer action in flight finishes first, so that nothing is lost.
  while (state.busy) await new Promise((resolve) => setTimeout(resolve, 30));
  if (run !== pointRuns || a !== state.analysis) return;
  if (!state.replay) {
    state.generation++;
    const v = state.view;
    state.replay = { header: a.header, actions: a.actions, at, game: v, redo: state.redo };
  } else {
    state.replay.header = a.header;
    state.replay.actions = a.actions;
  }
  await replayTo(at);
  const board = $("board").getBoundingClientRect();
  if (board.bottom < 0 || board.top > window.innerHeight) {
    $("board").scrollIntoView({ block: "nearest", behavior: "smooth" });
  }
}

/** The hint player where the ruleset has learned weights. */
const LEARNED_HINTS = "learned:2";

function rulesSpec() {
  const id = $("ruleset").value;
  const info = state.catalogue.rulesets.find((r) => r.id === id);
  const options = info.options
    .map((o) => [o.name, $(`option-${o.name}`).value, o.values[0]])
    .filter(([, value, byDefault]) => value !== byDefault)
    .map(([name, value]) => `${name}=${value}`);
  return options.length ? `${id}(${options.join(",")})` : id;
}

function renderOptions() {
  const id = $("ruleset").value;
  const info = state.catalogue.rulesets.find((r) => r.id === id);
  const box = $("options");
  box.textContent = "";
  $("options-box").hidden = info.options.length === 0;
  $("options-box").querySelector("summary").textContent = `Options (${info.options.length})`;
  for (const option of info.options) {
    const label = document.createElement("label");
    label.title = `${option.doc} [${option.rules}]`;
    label.append(`${option.name} `);
    const select = document.createElement("select");
    select.id = `option-${option.name}`;
    for (const value of option.values) select.append(new Option(value, value));
    // The learned player has weights for some option values only.
    select.addEventListener("change", () => fillPlayers(info));
    label.append(select);
    box.append(label);
  }
  fillPlayers(info);
}

/** The players the page offers for the ruleset and options chosen now. */
function offeredPlayers(info) {
  const learned = info.learned.includes(rulesSpec());
  return state.catalogue.players.filter((p) =>
    (!p.spec.startsWith("perfect") || info.perfect) && (!p.spec.startsWith("learned") || learned));
}

function fillPlayers(info) {
  const players = offeredPlayers(info);
  for (const side of ["black", "white"]) {
    const select = $(`player-${side}`);
    const before = select.value || state.players[side];
    select.textContent = "";
    select.append(new Option("human", "human"));
    for (const p of players) select.append(new Option(p.description, p.spec));
    select.value = [...select.options].some((o) => o.value === before) ? before : "human";
  }
  // Hints come from the strongest player there is for the ruleset unless another was chosen.
  const strongest = players.some((p) => p.spec === LEARNED_HINTS) ? LEARNED_HINTS : "expectiminimax:2";
  const hints = $("hint-player");
  const before = hints.value;
  hints.textContent = "";
  for (const p of players.filter((p) => p.spec !== "random")) hints.append(new Option(`hint: ${p.spec}`, p.spec));
  hints.value = [...hints.options].some((o) => o.value === before) && before !== "expectiminimax:2" ? before : strongest;
}

async function newGame(event) {
  if (event) event.preventDefault();
  state.generation++;
  state.busy = false;
  state.replay = null;
  closeAnalysis();
  state.players = { black: $("player-black").value, white: $("player-white").value };
  try {
    const view = await api("/api/game", { rules: rulesSpec() });
    state.view = null;
    show(view);
  } catch (error) {
    showError(error);
  }
}

function keys(event) {
  if (event.target.closest("select, input, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
  const actions = {
    t: () => !$("throw").disabled && doThrow(),
    u: undo,
    r: redo,
    h: hint,
    a: analyseGame,
    Escape: () => { state.selected = null; render(); },
  };
  const action = actions[event.key];
  if (action) {
    event.preventDefault();
    action();
  }
}

async function start() {
  buildBoard();
  try {
    state.catalogue = await api("/api/rulesets");
  } catch (error) {
    showError(error);
    return;
  }
  const rules = $("ruleset");
  for (const r of state.catalogue.rulesets) rules.append(new Option(r.name, r.id));
  rules.addEventListener("change", renderOptions);
  renderOptions();
  $("player-black").value = "human";
  $("player-white").value = "random";
  $("setup").addEventListener("submit", newGame);
  $("throw").addEventListener("click", () => doThrow());
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("hint").addEventListener("click", hint);
  $("save").addEventListener("click", save);
  $("load").addEventListener("change", loadFile);
  $("replay").addEventListener("click", startReplay);
  $("replay-first").addEventListener("click", () => replayTo(0));
  $("replay-back").addEventListener("click", () => replayTo(state.replay.at - 1));
  $("replay-forward").addEventListener("click", () => replayTo(state.replay.at + 1));
  $("replay-last").addEventListener("click", () => replayTo(state.replay.actions.length));
  $("replay-leave").addEventListener("click", leaveReplay);
  $("analyse").addEventListener("click", analyseGame);
  $("analysis-close").addEventListener("click", closeAnalysis);
  // The chart is drawn at its width in pixels, so again when that changes.
  let resized = null;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(() => {
      if (state.analysis && !$("analysis-body").hidden) {
        renderChart();
        renderAnalysisPlace();
      }
    }, 100);
  });
  document.addEventListener("keydown", keys);
  await newGame();
}

start();
