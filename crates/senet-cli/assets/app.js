// The page of `senet serve`. The server keeps no game: every call sends the record, which it
// replays and checks; the page keeps the record, the redo stack and who plays each side, and
// keeps them across reloads (localStorage, and the address: `#record=` links reopen a game).

const $ = (id) => document.getElementById(id);

// How long the computer waits before it acts, so that a person can follow; `?pace=0` in the
// address (the browser test) plays at full speed.
const PACE = Number(new URLSearchParams(location.search).get("pace") ?? 350) || 0;

// The computer's levels, weakest first, each one of the catalogue's players; their measured
// strengths are in docs/players.md ("Ratings"). Expert needs the ruleset's learned weights.
const LEVELS = [
  { name: "easy", spec: "greedy" },
  { name: "medium", spec: "expectiminimax:2" },
  { name: "hard", spec: "expectiminimax:3" },
  { name: "expert", spec: "learned:2" },
];
const DEFAULT_OPPONENT = "expectiminimax:2";
const STORE = "senet.game";

const state = {
  catalogue: null,
  ruleset: null, // the constants of the configuration played (name, pieces, throws, special squares, rules)
  view: null,
  players: { black: "human", white: DEFAULT_OPPONENT },
  redo: [], // chunks of record lines taken back by undo, last taken back last
  selected: null, // the square (or "hand") whose moves are shown
  busy: false,
  replay: null, // { header, actions, at, game, redo } while the replay viewer is open; `game` is the view left
  analysis: null, // { record, header, actions, data } of the game last analysed
  analysing: false,
  generation: 0, // bumped by every new game, so a stale computer reply is dropped
};

// The static build (crates/senet-wasm/build-static.sh) marks its page for the engine in the
// page: the same requests, answered by WebAssembly in a worker instead of a server.
const LOCAL_ENGINE = document.querySelector('meta[name="senet-engine"]')?.content === "local";
let localApi = null;

async function api(path, body) {
  if (LOCAL_ENGINE) {
    localApi ??= (await import("./engine-local.js")).api;
    return localApi(path, body);
  }
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const text = await response.text();
  let data = null;
  try {
    data = JSON.parse(text);
  } catch {
    data = null;
  }
  if (!response.ok) {
    // The server's one-line reason; anything else (a proxy's page) by its status alone.
    const reason = data && typeof data.error === "string" ? data.error : `${response.status} ${response.statusText}`;
    throw new Error(reason.split("\n")[0]);
  }
  if (data === null) throw new Error("the server's answer is not JSON");
  return data;
}

function showError(error) {
  const box = $("error");
  box.textContent = error ? String(error.message || error) : "";
  box.hidden = !error;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// Inline Markdown on escaped text: code, bold, emphasis, and links shown as their text.
function inline(text) {
  const codes = [];
  let html = escapeHtml(text).replace(/`([^`]+)`/g, (_, code) => {
    codes.push(code);
    return `\u0000${codes.length - 1}\u0000`;
  });
  html = html
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
    .replace(/__(.+?)__/g, "<strong>$1</strong>")
    .replace(/(^|[^\w*])\*(?!\s)(.+?)\*(?!\w)/g, "$1<em>$2</em>")
    .replace(/(^|[^\w])_(?!\s)(.+?)_(?!\w)/g, "$1<em>$2</em>");
  return html.replace(/\u0000(\d+)\u0000/g, (_, k) => `<code>${codes[Number(k)]}</code>`);
}

// The cells of a Markdown table row: `| a | b |`.
const tableCells = (line) => line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());

// A small Markdown renderer for the rules' prose: headings, paragraphs, lists (with
// continuation lines), tables, code blocks and inline markup; every text is escaped.
function renderMarkdown(text) {
  const out = [];
  const lines = text.split("\n");
  let list = null; // "ul" or "ol"
  let item = null;
  let para = [];
  const flushItem = () => {
    if (item !== null) out.push(`<li>${inline(item)}</li>`);
    item = null;
  };
  const flushList = () => {
    flushItem();
    if (list) out.push(`</${list}>`);
    list = null;
  };
  const flushPara = () => {
    if (para.length) out.push(`<p>${inline(para.join(" "))}</p>`);
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const bullet = line.match(/^\s{0,3}([-*+]|\d+[.)])\s+(.*)$/);
    if (line.startsWith("```")) {
      flushPara();
      flushList();
      const code = [];
      for (i++; i < lines.length && !lines[i].startsWith("```"); i++) code.push(lines[i]);
      out.push(`<pre><code>${escapeHtml(code.join("\n"))}</code></pre>`);
    } else if (/^\s*\|/.test(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1])) {
      flushPara();
      flushList();
      const head = tableCells(line);
      const rows = [];
      for (i += 2; i < lines.length && /^\s*\|/.test(lines[i]); i++) rows.push(tableCells(lines[i]));
      i--;
      out.push(`<div class="table-wrap"><table><thead><tr>${head.map((c) => `<th scope="col">${inline(c)}</th>`).join("")}</tr></thead>`
        + `<tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join("")}</tr>`).join("")}</tbody></table></div>`);
    } else if (/^#{1,6}\s/.test(line)) {
      flushPara();
      flushList();
      const level = Math.min(6, line.match(/^#+/)[0].length + 1);
      out.push(`<h${Math.max(3, level)}>${inline(line.replace(/^#+\s*/, ""))}</h${Math.max(3, level)}>`);
    } else if (bullet) {
      flushPara();
      const kind = /\d/.test(bullet[1]) ? "ol" : "ul";
      if (list !== kind) {
        flushList();
        out.push(`<${kind}>`);
        list = kind;
      }
      flushItem();
      item = bullet[2];
    } else if (/^\s+\S/.test(line) && item !== null) {
      item += " " + line.trim();
    } else if (!line.trim()) {
      flushPara();
      flushList();
    } else {
      flushList();
      para.push(line.trim());
    }
  }
  flushPara();
  flushList();
  return out.join("\n");
}

// Squares 1-10 left to right, 11-20 right to left, 21-30 left to right.
function cell(square) {
  if (square <= 10) return { row: 1, col: square };
  if (square <= 20) return { row: 2, col: 21 - square };
  return { row: 3, col: square - 20 };
}

// ---- The signs of the squares: simple line drawings of our own, traditional for each house.
const SIGNS = {
  // The House of Rebirth: an ankh.
  15: { name: "House of Rebirth", draw: '<ellipse cx="12" cy="6.5" rx="3.6" ry="4.3"/><path d="M5 12.5H19M12 10.8V22"/>' },
  // The House of Happiness (of Beauty): nefer, a heart and windpipe.
  26: { name: "House of Happiness", draw: '<circle cx="12" cy="16" r="5"/><path d="M12 2.5V11M8.5 6.5H15.5"/>' },
  // The House of Water: three zigzag waves.
  27: { name: "House of Water", draw: '<path d="M2.5 7l3.2-2.6 3.2 2.6 3.1-2.6 3.2 2.6 3.1-2.6 3.2 2.6M2.5 13l3.2-2.6 3.2 2.6 3.1-2.6 3.2 2.6 3.1-2.6 3.2 2.6M2.5 19l3.2-2.6 3.2 2.6 3.1-2.6 3.2 2.6 3.1-2.6 3.2 2.6"/>' },
  // The House of the Three Truths: three strokes.
  28: { name: "House of the Three Truths", draw: '<path d="M6.5 5V19M12 5V19M17.5 5V19"/>' },
  // The House of Re-Atum (the Two Truths): two strokes.
  29: { name: "House of Re-Atum (the Two Truths)", draw: '<path d="M9 5V19M15 5V19"/>' },
  // The last square: a sun disc.
  30: { name: "the last square", draw: '<circle cx="12" cy="12" r="7.5"/><circle cx="12" cy="12" r="1.8" class="fill"/>' },
};

function signSvg(square, size = 24) {
  const sign = SIGNS[square];
  if (!sign) return "";
  return `<svg class="sign" width="${size}" height="${size}" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${sign.draw}</svg>`;
}

// The direction of travel: an arrow drawn pointing right, turned by the stylesheet.
const ARROW = '<svg class="dir" viewBox="0 0 10 10" aria-hidden="true" focusable="false"><path d="M1.5 5H8M5.5 2.5 8 5 5.5 7.5"/></svg>';

const sideName = (side) => (side === "black" ? "Black" : "White");
const pieceCode = (side) => (side === "black" ? "B" : "W");

function isComputer(side) {
  // In a room (rooms.js) only the page's own seat is played here.
  if (state.room) return state.room.you !== side;
  return state.players[side] !== "human";
}

const humans = () => ["black", "white"].filter((s) => !isComputer(s));

// A player as the page names it: a person, or the computer at a level or by algorithm.
function playerName(spec) {
  if (spec === "human") return "a person";
  const level = LEVELS.find((l) => l.spec === spec);
  return level ? `the computer, ${level.name}` : `the computer, ${spec}`;
}

function buildBoard() {
  const board = $("board");
  board.textContent = "";
  for (let square = 1; square <= 30; square++) {
    const button = document.createElement("button");
    button.type = "button";
    const { row, col } = cell(square);
    button.className = "square";
    button.id = `sq-${square}`;
    button.dataset.square = String(square);
    button.style.setProperty("--row", row);
    button.style.setProperty("--col", col);
    button.addEventListener("click", () => clickPlace(String(square)));
    board.append(button);
  }
}

// The direction class of a square's arrow: on along its row, or down to the next row.
function direction(square) {
  if (square === 10 || square === 20) return "turn";
  if (square === 30) return "";
  return square > 10 && square < 20 ? "back" : "fwd";
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

// The steps of a move as the record writes it (`move 9-12`, `move 3-5,8-10`, `move 12-14/2`,
// `move enter`, `move hand-3`, `move 28-off`, `move pass/4`): [from, to] places, the throw
// suffix (`/n`, the throw spent) left out.
function moveSteps(action) {
  const text = action.replace(/^move\s+/, "").replace(/\/\d+$/, "");
  if (text === "pass") return [];
  return text.split(",").map((step) => (step === "enter" ? ["hand", "1"] : step.split("-")));
}

function renderSquares() {
  const v = state.view;
  const special = new Map(v.special.map((s) => [s.square, s]));
  const selectedMoves = state.selected === null ? [] : movesFrom(state.selected);
  const targets = new Set(selectedMoves.map(ending));
  const movable = new Set(humanToMove() ? v.moves.filter((m) => m.steps.length).map(origin) : []);
  const lastMove = [...v.log].reverse().find((e) => e.action.startsWith("move "));
  const lastSquares = new Set(lastMove ? moveSteps(lastMove.action).flat() : []);
  for (let square = 1; square <= 30; square++) {
    const button = $(`sq-${square}`);
    const piece = v.board[square - 1];
    const mark = special.get(square);
    const place = String(square);
    button.className = `square ${direction(square)}`;
    if (mark) button.classList.add("special");
    if (movable.has(place)) button.classList.add("movable");
    if (state.selected === place) button.classList.add("selected");
    if (targets.has(place)) button.classList.add("target");
    if (lastSquares.has(place)) button.classList.add("last");
    button.dataset.piece = piece === "." ? "" : piece;
    const who = piece === "B" ? "Black piece" : piece === "W" ? "White piece" : "empty";
    const meaning = mark ? `: ${mark.text}` : "";
    button.title = `${square}${SIGNS[square] && mark ? ` (${SIGNS[square].name})` : ""}${meaning}`;
    let label = `square ${square}, ${who}${mark ? `, ${mark.text}` : ""}`;
    if (movable.has(place)) label += ", can move";
    if (targets.has(place)) label += ", a destination";
    button.setAttribute("aria-label", label);
    const sign = mark ? (SIGNS[square] ? signSvg(square) : `<span class="text-mark">${escapeHtml(mark.mark)}</span>`) : "";
    button.innerHTML = `<span class="num">${square}</span>`
      + (direction(square) ? ARROW : "")
      + (sign ? `<span class="mark">${sign}</span>` : "")
      + (piece === "." ? "" : `<span class="piece ${piece}"></span>`);
  }
}

// The way the pieces go, then one line per kind of special square: its sign, what it does and where.
function renderLegend() {
  const items = [`<li class="way">${ARROW.replace('class="dir"', 'class="dir legend-dir"')}`
    + "The pieces go 1 to 10 left to right, 11 to 20 right to left, 21 to 30 left to right, then off the board.</li>"];
  for (const s of state.view.special) {
    const sign = SIGNS[s.square] ? signSvg(s.square, 20) : `<b>${escapeHtml(s.mark)}</b>`;
    const name = SIGNS[s.square] ? ` (${SIGNS[s.square].name})` : "";
    items.push(`<li><span class="legend-sign">${sign}</span><b>${s.square}</b>${escapeHtml(name)}: ${escapeHtml(s.text)}</li>`);
  }
  $("legend").innerHTML = items.join("");
}

function renderTrays() {
  const v = state.view;
  const selectedMoves = state.selected === null ? [] : movesFrom(state.selected);
  const one = humans().length === 1;
  for (const side of ["black", "white"]) {
    const tray = $(`tray-${side}`);
    const who = one && !isComputer(side) ? "you" : playerName(state.players[side]);
    const parts = [`<span class="piece ${pieceCode(side)}"></span> <strong>${sideName(side)}</strong> (${escapeHtml(who)})`,
      `off ${v.off[side]}/${v.pieces}`];
    if (v.in_hand[side] > 0) parts.push(`in hand ${v.in_hand[side]}`);
    if (v.captured[side] > 0) parts.push(`captured ${v.captured[side]}`);
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

const isDie = (v) => v.throws.every((t) => t.weight === v.throws[0].weight);

// Four sticks, the marked (flat) sides dark; a throw of 5 or 6 shows none marked. A die
// (equal weights) is drawn as a square with its value.
function sticksSvg(value, die) {
  if (die) {
    return `<svg width="48" height="48" viewBox="0 0 48 48" role="img" aria-label="die showing ${value}">`
      + `<rect class="die" x="2" y="2" width="44" height="44" rx="8"/>`
      + `<text x="24" y="33" text-anchor="middle" font-size="24" font-weight="700">${value}</text></svg>`;
  }
  const marked = value <= 4 ? value : 0;
  let svg = `<svg width="92" height="56" viewBox="0 0 92 56" role="img" aria-label="${marked} of 4 sticks marked side up: a throw of ${value}">`;
  for (let i = 0; i < 4; i++) {
    const x = 4 + i * 22;
    const up = i < marked;
    svg += `<rect class="stick${up ? " up" : ""}" x="${x}" y="4" width="14" height="48" rx="7"/>`;
    if (!up) svg += `<line class="grain" x1="${x + 7}" y1="10" x2="${x + 7}" y2="46"/>`;
  }
  return svg + "</svg>";
}

function renderSticks() {
  const v = state.view;
  const die = isDie(v);
  const box = $("sticks");
  const device = die ? "die" : "sticks";
  // The throw the side to move spends: the one it holds, else the last thrown.
  const value = v.held.length === 1 ? v.held[0] : v.last_throw;
  if (v.outcome) {
    box.innerHTML = `<span>The game is over: no more throws</span>`;
  } else if (value === null || value === undefined) {
    box.innerHTML = `<span>${sideName(v.phase.side)} to throw the ${device}</span>`;
  } else {
    const held = v.held.length > 1 || (v.held.length === 1 && v.phase.kind === "throw")
      ? `<span class="held">holding ${v.held.join(", ")}</span>` : "";
    box.innerHTML = sticksSvg(value, die) + `<span class="value">${value}</span>` + held;
  }
  const total = v.throws.reduce((sum, t) => sum + t.weight, 0);
  const row = (f) => v.throws.map(f).join("");
  const now = v.outcome ? null : value;
  $("chances").innerHTML = `<tr><th scope="row">throw</th>${row((t) => `<td class="${t.value === now ? "now" : ""}">${t.value}</td>`)}</tr>`
    + `<tr><th scope="row">chance</th>${row((t) => `<td title="${(100 * t.weight / total).toFixed(2)}%">${t.weight}/${total}</td>`)}</tr>`;
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

// The throws the side to move may spend, in words.
function heldWords(v) {
  if (v.held.length === 0) return "the throws stored";
  if (v.held.length === 1) return `a throw of ${v.held[0]}`;
  return `the throws ${v.held.join(", ")}`;
}

function renderStatus() {
  const v = state.view;
  let text;
  if (v.outcome) text = `The game is over: ${v.outcome.summary}.`;
  else if (v.phase.kind === "throw") text = `${sideName(v.phase.side)} to throw`;
  else text = `${sideName(v.phase.side)} to move with ${heldWords(v)}`;
  if (state.replay) text = `Replay: ${text}`;
  $("status").textContent = text;
  $("guide").textContent = guide(v);
}

// One line for a first-time player: what to do now.
function guide(v) {
  if (state.replay) return "Replay: step through the game with ◀ and ▶; “Back to the game” returns to it.";
  if (v.outcome) return "";
  const side = v.phase.side;
  const who = sideName(side);
  if (isComputer(side)) return `${who} (${playerName(state.players[side])}) is thinking…`;
  const you = humans().length === 1 ? `You are ${who}` : `${who} to play`;
  const device = isDie(v) ? "die" : "sticks";
  if (v.phase.kind === "throw") return `${you}: throw the ${device} (the Throw button, or the key t).`;
  if (state.selected !== null) return `${you}: click a square framed in green to move there (Esc to choose again).`;
  if (v.moves.length > 0 && v.moves.every((m) => m.steps.length === 0)) return `${you}: no piece can move; click ${moveLabel(v.moves[0])}.`;
  if (movesFrom("hand").length > 0 && !v.moves.some((m) => m.steps.length && origin(m) !== "hand")) {
    return `${you}: click “Enter from hand”, then the piece's destination.`;
  }
  return `${you}: click a framed piece, then its destination.`;
}

// The result banner: who won in the players' terms, what decided it, and the score where the
// ruleset keeps one.
function renderResult() {
  const v = state.view;
  const box = $("result");
  const o = v.outcome;
  box.hidden = !o || state.replay !== null;
  if (!o) return;
  const people = humans();
  let title;
  if (!o.winner) title = "A draw";
  else if (people.length === 1) title = o.winner === people[0] ? "You won" : "You lost";
  else title = `${sideName(o.winner)} wins`;
  box.className = o.winner && people.length === 1 ? (o.winner === people[0] ? "won" : "lost") : "";
  $("result-title").textContent = title;
  $("result-summary").textContent = `${o.summary}.`;
  $("result-score").textContent = o.score ? `${o.score}.` : "";
  $("result-score").hidden = !o.score;
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

// The log: only the new entries are added when the game went on from the one drawn.
let logDrawn = []; // the entries the list shows
function renderLog() {
  const log = $("log");
  const entries = state.view.log;
  let from = logDrawn.length <= entries.length && logDrawn.every((e, k) => e === entries[k]) ? logDrawn.length : 0;
  if (from !== log.children.length) from = 0;
  if (from === 0) log.textContent = "";
  for (const entry of entries.slice(from)) {
    const li = document.createElement("li");
    li.className = entry.side;
    li.textContent = entry.text;
    log.append(li);
  }
  logDrawn = entries;
  if (from < entries.length) log.scrollTop = log.scrollHeight;
}

function render() {
  renderStatus();
  renderResult();
  renderSquares();
  renderTrays();
  renderSticks();
  renderMoves();
  renderControls();
  renderLog();
  $("record").textContent = state.view.record;
  renderAnalysisPlace();
}

// A record split into its header lines and its actions (`throw 3`, `move 9-12`).
function splitRecord(record) {
  const lines = record.split("\n").filter((l) => l.trim() !== "");
  const first = lines.findIndex((l) => /^(throw|move)\s/.test(l));
  const at = first < 0 ? lines.length : first;
  return { header: lines.slice(0, at).join("\n"), actions: lines.slice(at) };
}

// An answer of the API joined to what the page holds: the configuration's constants come
// once, with a game loaded or started (`ruleset`), and the answer to an action carries only
// the log lines from `log_from` on. The board is the position's first 30 characters, and the
// header and actions are the record's lines.
function joined(view) {
  if (view.ruleset) state.ruleset = view.ruleset;
  const earlier = state.view && view.log_from > 0 ? state.view.log.slice(0, view.log_from) : [];
  const { ruleset, ...rest } = view;
  return {
    ...rest,
    ...state.ruleset,
    board: view.position.slice(0, 30),
    ...splitRecord(view.record),
    log: [...earlier, ...view.log],
  };
}

const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// Slides the pieces of the moves among `entries` from where they stood to where they landed.
function animate(entries) {
  if (reducedMotion()) return;
  for (const entry of entries) {
    if (!entry.action.startsWith("move ")) continue;
    const steps = moveSteps(entry.action);
    if (steps.length === 0) continue;
    const from = steps[0][0];
    const to = steps[steps.length - 1][1];
    const target = /^\d+$/.test(to) ? $(`sq-${to}`) : null;
    const piece = target && target.querySelector(".piece");
    if (!piece) continue;
    if (/^\d+$/.test(from)) {
      const a = $(`sq-${from}`).getBoundingClientRect();
      const b = target.getBoundingClientRect();
      piece.animate([
        { transform: `translate(${a.left - b.left}px, ${a.top - b.top}px)` },
        { transform: "translate(0, 0)" },
      ], { duration: 260, easing: "ease-out" });
    } else {
      piece.animate([{ transform: "scale(0.3)", opacity: 0 }, { transform: "scale(1)", opacity: 1 }], { duration: 220, easing: "ease-out" });
    }
  }
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
  if (answer.log_from > 0) animate(answer.log);
  persist();
  computerTurn();
}

// ---- Keeping the game: in localStorage and in the address, so that a reload or a link
// reopens it.

function base64url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

function persist() {
  if (state.room) return; // a room is kept by the server, its link in the address
  const game = theGame();
  if (!game) return;
  try {
    localStorage.setItem(STORE, JSON.stringify({ record: game.record, players: state.players }));
  } catch {
    // Storage full or refused: the address still holds the game.
  }
  // The address at most every 300 ms: browsers ignore history calls made faster for long.
  clearTimeout(addressTimer);
  addressTimer = setTimeout(() => {
    const now = theGame();
    if (!now) return;
    const params = new URLSearchParams({ black: state.players.black, white: state.players.white });
    history.replaceState(null, "", `${location.pathname}${location.search}#record=${base64url(now.record)}&${params}`);
  }, 300);
}
let addressTimer = null;

// The game the address or the storage holds: { record } or { rules }, with the players.
function savedGame() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const players = {};
  for (const side of ["black", "white"]) if (hash.get(side)) players[side] = hash.get(side);
  if (hash.get("record")) {
    try {
      return { record: fromBase64url(hash.get("record")), players };
    } catch {
      return { players };
    }
  }
  if (hash.get("rules")) return { rules: hash.get("rules"), players };
  try {
    const stored = JSON.parse(localStorage.getItem(STORE) || "null");
    if (stored && typeof stored.record === "string") return { record: stored.record, players: stored.players || {} };
  } catch {
    // Nothing usable stored.
  }
  return { players };
}

// Whether starting afresh would lose a game under way; asks the person if so.
function mayDiscard() {
  const game = theGame();
  if (!game || game.outcome || game.actions.length === 0) return true;
  return window.confirm("Discard the game under way? (Save record keeps it.)");
}

async function act(path, extra, keepRedo = false) {
  if (state.room) return rooms.roomAct(path, extra);
  if (state.busy) return;
  state.busy = true;
  const generation = state.generation;
  try {
    const view = await api(path, { record: state.view.record, ...extra });
    if (generation !== state.generation) return;
    state.busy = false;
    show(view, keepRedo);
  } catch (error) {
    if (generation !== state.generation) return;
    state.busy = false;
    showError(error);
    render();
  }
}

const play = (move) => act("/api/move", { move });
const doThrow = (value) => act("/api/throw", value === undefined ? {} : { value });

// The computer acts once the page has drawn the last action, one action at a time.
function computerTurn() {
  if (state.room) return; // a room's computer seats play on the server
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
    return true;
  } catch (error) {
    state.busy = false;
    showError(error);
    return false;
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
      + `<table><tr><th scope="col">move</th><th scope="col">value</th></tr>${rows}</table>`;
    for (const button of box.querySelectorAll(".hint-move")) {
      button.addEventListener("click", () => play(button.dataset.move));
    }
  } catch (error) {
    box.textContent = "";
    showError(error);
  }
}

function save() {
  // A room's record keeps its commitment, and its seed once revealed, for `senet replay --seed`.
  const rs = state.room?.rs;
  const notes = !rs ? "" : `# commitment ${rs.commitment}\n`
    + (rs.seed ? `# seed revealed at the end: senet replay FILE --seed ${rs.seed}\n` : "");
  const blob = new Blob([notes + state.view.record], { type: "text/plain" });
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
  if (!mayDiscard()) return;
  state.generation++;
  state.replay = null;
  closeAnalysis();
  if (await load(text)) syncSetup(state.view.rules);
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

const rulesetInfo = () => state.catalogue.rulesets.find((r) => r.id === $("ruleset").value);

function rulesSpec() {
  const info = rulesetInfo();
  const options = info.options
    .map((o) => [o.name, $(`option-${o.name}`).value, o.values[0]])
    .filter(([, value, byDefault]) => value !== byDefault)
    .map(([name, value]) => `${name}=${value}`);
  return options.length ? `${info.id}(${options.join(",")})` : info.id;
}

function renderOptions() {
  const info = rulesetInfo();
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
    // A change of option is a new game of the new configuration.
    select.addEventListener("change", rulesChosen);
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

// Each side's menu: a person, the computer's levels, and the other players by algorithm.
function fillPlayers(info) {
  const players = offeredPlayers(info);
  const offered = new Set(players.map((p) => p.spec));
  const levels = LEVELS.filter((l) => offered.has(l.spec));
  for (const side of ["black", "white"]) {
    const select = $(`player-${side}`);
    const before = state.players[side];
    select.textContent = "";
    select.append(new Option("a person", "human"));
    const group = document.createElement("optgroup");
    group.label = "the computer";
    for (const l of levels) group.append(new Option(`computer: ${l.name}`, l.spec));
    select.append(group);
    const others = document.createElement("optgroup");
    others.label = "other players";
    for (const p of players.filter((p) => !levels.some((l) => l.spec === p.spec))) {
      others.append(new Option(p.description, p.spec));
    }
    select.append(others);
    if (![...select.options].some((o) => o.value === before)) {
      // A player this configuration lacks (the learned one): the nearest level there is.
      state.players[side] = before === "human" ? "human" : (levels.at(-1)?.spec ?? DEFAULT_OPPONENT);
    }
    select.value = state.players[side];
  }
  // Hints come from the strongest player there is for the ruleset unless another was chosen.
  const strongest = players.some((p) => p.spec === LEARNED_HINTS) ? LEARNED_HINTS : "expectiminimax:2";
  const hints = $("hint-player");
  const before = hints.value;
  hints.textContent = "";
  for (const p of players.filter((p) => p.spec !== "random")) hints.append(new Option(`hint: ${p.spec}`, p.spec));
  hints.value = [...hints.options].some((o) => o.value === before) && before !== "expectiminimax:2" ? before : strongest;
}

// The menus set to the configuration `spec` (`kendall(pieces=5)`): after a record is loaded,
// they show the loaded game's ruleset.
function syncSetup(spec) {
  const match = spec.match(/^([^(]+)(?:\((.*)\))?$/);
  if (!match || !state.catalogue.rulesets.some((r) => r.id === match[1])) return;
  $("ruleset").value = match[1];
  renderOptions();
  for (const pair of (match[2] || "").split(",").filter(Boolean)) {
    const [name, value] = pair.split("=");
    const select = $(`option-${name.trim()}`);
    if (select && [...select.options].some((o) => o.value === value.trim())) select.value = value.trim();
  }
  fillPlayers(rulesetInfo());
}

// The ruleset or an option changed: a new game of it, once the person agrees to leave the
// game under way; else the menus go back to the game's configuration.
async function rulesChosen() {
  if (!mayDiscard()) {
    syncSetup(theGame().rules);
    return;
  }
  if (this && this.id === "ruleset") renderOptions();
  else fillPlayers(rulesetInfo());
  await newGame(null, true);
}

// Who plays a side changes at once, in the game under way.
function playerChosen(side) {
  state.players[side] = $(`player-${side}`).value;
  if (!state.view) return;
  persist();
  render();
  computerTurn();
}

async function newGame(event, agreed = false) {
  if (event) event.preventDefault();
  if (!agreed && !mayDiscard()) return;
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
  if (state.room && "urh".includes(event.key)) return; // no undo, redo or hints in a room
  if (action) {
    event.preventDefault();
    action();
  }
}

// Light or dark: the system's choice unless the person picked one with the button (kept).
function applyTheme(theme) {
  const dark = theme ? theme === "dark" : window.matchMedia("(prefers-color-scheme: dark)").matches;
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  const button = $("theme");
  button.setAttribute("aria-pressed", String(dark));
  button.textContent = dark ? "Light" : "Dark";
  button.title = dark ? "Switch to light colours" : "Switch to dark colours";
}

function toggleTheme() {
  const dark = $("theme").getAttribute("aria-pressed") === "true";
  const theme = dark ? "light" : "dark";
  try {
    localStorage.setItem("senet.theme", theme);
  } catch {
    // Not kept: it still applies now.
  }
  applyTheme(theme);
}

let rooms = null; // rooms.js, loaded at start

async function start() {
  let theme = null;
  try {
    theme = localStorage.getItem("senet.theme");
  } catch {
    theme = null;
  }
  applyTheme(theme);
  $("theme").addEventListener("click", toggleTheme);
  buildBoard();
  try {
    state.catalogue = await api("/api/rulesets");
  } catch (error) {
    showError(error);
    return;
  }
  const rules = $("ruleset");
  for (const r of state.catalogue.rulesets) rules.append(new Option(r.name, r.id));
  rules.addEventListener("change", rulesChosen);
  const saved = savedGame();
  for (const side of ["black", "white"]) {
    if (saved.players[side]) state.players[side] = saved.players[side];
  }
  renderOptions();
  $("setup").addEventListener("submit", newGame);
  for (const side of ["black", "white"]) {
    $(`player-${side}`).addEventListener("change", () => playerChosen(side));
  }
  $("play-again").addEventListener("click", () => newGame(null, true));
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
  // A room's link (`#room=…`) opens the room rather than the game kept (rooms.js).
  try {
    rooms = await import("./rooms.js");
    rooms.initRooms({ state, show, render, showError, api, rulesSpec });
    if (await rooms.joinRoom()) return;
  } catch (error) {
    rooms = null; // a page without rooms.js plays alone
  }
  // The game of the address or the storage, else a new one.
  if (saved.record && await load(saved.record)) {
    syncSetup(state.view.rules);
    return;
  }
  if (saved.rules) syncSetup(saved.rules);
  await newGame(null, true);
}

start();
