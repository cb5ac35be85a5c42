// Rooms: a game with a friend by link. The server keeps the game (and throws, from a seed
// committed at the start and shown at the end); the page joins a room from its address
// (`#room=ID&seat=TOKEN`, the token staying in the fragment, which browsers never send),
// draws the room's state with app.js's own drawing and hears every change over an event
// stream. app.js calls `initRooms` once with the hooks it lends, and routes a seat's
// actions here (`roomAct`) while `state.room` is set.

const $ = (id) => document.getElementById(id);

let app = null; // { state, show, render, showError, api, rulesSpec }
let events = null; // the EventSource of the room

const sideName = (side) => (side === "black" ? "Black" : "White");

// The room named in the address: { id, token } or null.
function roomInAddress() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const id = hash.get("room");
  if (!id || !/^[0-9a-f]{16}$/.test(id)) return null;
  const token = hash.get("seat");
  return { id, token: token && /^[0-9a-f]{32}$/.test(token) ? token : null };
}

// A room's state joined to the page: the game view drawn by app.js, the rest in the panel.
// An older state than the one shown (an action's answer after its event, say) is dropped;
// a state whose log does not follow the one shown is fetched whole.
function applyState(rs, whole = false) {
  const room = app.state.room;
  if (!room || rs.room !== room.id) return;
  const full = whole || rs.view.ruleset !== undefined;
  if (!full && rs.version <= room.version) return;
  const shown = app.state.view ? app.state.view.log.length : 0;
  if (!full && rs.view.log_from !== shown && rs.view.log.length > 0) {
    refetch();
    return;
  }
  room.version = rs.version;
  const news = full || rs.view.log.length > 0 || rs.actions !== room.actions;
  room.actions = rs.actions;
  room.rs = rs;
  if (!news) {
    // Someone came, went or asked for an undo: the board stays as it is (a piece chosen
    // stays chosen).
    renderRoom();
    return;
  }
  app.state.players = {
    black: rs.seats.black.player === "person" ? "human" : rs.seats.black.player,
    white: rs.seats.white.player === "person" ? "human" : rs.seats.white.player,
  };
  app.show(rs.view);
  renderRoom();
}

async function refetch() {
  const room = app.state.room;
  try {
    const rs = room.token
      ? await app.api(`/api/rooms/${room.id}/join`, { token: room.token })
      : await app.api(`/api/rooms/${room.id}`);
    applyState(rs, true);
  } catch (error) {
    app.showError(error);
  }
}

// Joins the room of the address; false when the address names none.
export async function joinRoom() {
  if (!app) return false;
  const named = roomInAddress();
  if (!named) return false;
  document.body.classList.add("in-room");
  app.state.room = { id: named.id, token: named.token, you: null, version: -1, actions: 0, rs: null };
  let rs;
  try {
    rs = named.token
      ? await app.api(`/api/rooms/${named.id}/join`, { token: named.token })
      : await app.api(`/api/rooms/${named.id}`);
  } catch (error) {
    app.showError(error);
    $("room").hidden = false;
    $("room-title").textContent = "This room cannot be opened";
    return true;
  }
  app.state.room.you = rs.you ?? null;
  applyState(rs, true);
  const query = rs.presence ? `?presence=${encodeURIComponent(rs.presence)}` : "";
  events = new EventSource(`/api/rooms/${named.id}/events${query}`);
  events.addEventListener("state", (event) => {
    try {
      applyState(JSON.parse(event.data));
    } catch (error) {
      app.showError(error);
    }
  });
  return true;
}

// A seat's action in the room: app.js's throw and move requests, sent with the seat's token
// and the number of actions seen, so that a second click is refused rather than played.
export async function roomAct(path, extra) {
  const state = app.state;
  const room = state.room;
  if (!room || !room.token || state.busy) return;
  const action = path === "/api/throw" ? "throw" : extra.move;
  state.busy = true;
  try {
    const rs = await app.api(`/api/rooms/${room.id}/act`, { token: room.token, action, expect: room.actions });
    state.busy = false;
    applyState(rs);
    // Its event may have come first and been drawn while the page was busy (no piece
    // framed): draw again now that it is not.
    app.render();
  } catch (error) {
    state.busy = false;
    app.showError(error);
    app.render();
  }
}

async function answerUndo(answer) {
  const room = app.state.room;
  try {
    applyState(await app.api(`/api/rooms/${room.id}/undo`, { token: room.token, answer }), true);
  } catch (error) {
    app.showError(error);
  }
}

function copyButton(text, label) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Copy";
  button.setAttribute("aria-label", `Copy ${label}`);
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {
      button.textContent = "Select and copy it";
    }
  });
  return button;
}

// One line of links: its label, the full address (selectable) and a copy button.
function linkItem(label, path, id) {
  const li = document.createElement("li");
  const url = new URL(path, location.href).href;
  const link = document.createElement("a");
  link.href = url;
  link.id = id;
  link.textContent = url;
  li.append(`${label}: `, link, " ", copyButton(url, label));
  return li;
}

function renderRoom() {
  const room = app.state.room;
  const rs = room.rs;
  $("room").hidden = false;
  const you = room.you ? `you play ${sideName(room.you)}` : "you watch";
  $("room-title").textContent = `Room ${rs.room}: ${you}`;
  const seat = (side) => {
    const s = rs.seats[side];
    const who = s.player === "person" ? (room.you === side ? "you" : "a person") : `the computer, ${s.player}`;
    const there = s.player === "person" ? (s.connected ? ", here" : ", not here") : "";
    return `${sideName(side)}: ${who}${there}`;
  };
  $("room-seats").textContent = `${seat("black")}; ${seat("white")}; ${rs.watchers} watching.`;
  $("room-commitment").textContent = rs.commitment;
  $("room-seed-line").hidden = !rs.seed;
  $("room-seed").textContent = rs.seed ?? "";
  const box = $("room-undo");
  box.textContent = "";
  const people = rs.seats.black.player === "person" && rs.seats.white.player === "person";
  if (room.you && people && !rs.seed) {
    const button = (label, answer) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      b.id = `room-undo-${answer}`;
      b.addEventListener("click", () => answerUndo(answer));
      return b;
    };
    // The server takes back only a seat's own move while it is the last action.
    const last = app.state.view?.log.at(-1);
    const mine = last && last.side === room.you && last.action.startsWith("move");
    if (rs.undo === null) {
      if (mine) box.append(button("Ask to take back my move", "request"));
    } else if (rs.undo === room.you) {
      box.append("You asked to take back your move. ", button("Withdraw", "decline"));
    } else {
      box.append(`${sideName(rs.undo)} asks to take back their last move. `, button("Accept", "accept"), " ", button("Decline", "decline"));
    }
  } else if (rs.undo) {
    box.append(`${sideName(rs.undo)} asks to take back their last move.`);
  }
}

// The form of a new room: the ruleset chosen in the header, who plays each side.
function openForm() {
  const dialog = $("friend-dialog");
  for (const side of ["black", "white"]) {
    const select = $(`friend-${side}`);
    select.textContent = "";
    select.append(new Option("a person", "person"));
    for (const p of app.state.catalogue.players) select.append(new Option(`the computer: ${p.description}`, p.spec));
  }
  $("friend-rules").textContent = app.rulesSpec();
  $("friend-links").textContent = "";
  $("friend-error").textContent = "";
  dialog.showModal();
}

async function createRoom(event) {
  event.preventDefault();
  try {
    const created = await app.api("/api/rooms", {
      rules: app.rulesSpec(),
      black: $("friend-black").value,
      white: $("friend-white").value,
    });
    const list = $("friend-links");
    list.textContent = "";
    if (created.links.black) list.append(linkItem("Black's seat", created.links.black, "link-black"));
    if (created.links.white) list.append(linkItem("White's seat", created.links.white, "link-white"));
    list.append(linkItem("Watch", created.links.watch, "link-watch"));
    $("friend-error").textContent = "Send each player their seat's link (it lets its holder play that side); keep yours. Commitment to the throws: " + created.commitment;
  } catch (error) {
    $("friend-error").textContent = error.message;
  }
}

async function listRooms() {
  if (!$("rooms-list").open) return;
  const list = $("open-rooms");
  list.textContent = "";
  try {
    const { rooms } = await app.api("/api/rooms");
    if (rooms.length === 0) list.append(Object.assign(document.createElement("li"), { textContent: "No open room." }));
    for (const r of rooms) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `/#room=${r.room}`;
      a.textContent = `${r.rules}: ${r.black} against ${r.white}, ${r.actions} actions`;
      li.append(a);
      list.append(li);
    }
  } catch (error) {
    list.append(Object.assign(document.createElement("li"), { textContent: error.message }));
  }
}

export function initRooms(hooks) {
  // The page without a server (crates/senet-wasm's static build) has no rooms to offer.
  if (document.querySelector('meta[name="senet-engine"]')?.content === "local") return;
  app = hooks;
  $("friend").hidden = false;
  $("rooms-list").hidden = false;
  $("friend").addEventListener("click", openForm);
  $("friend-form").addEventListener("submit", createRoom);
  $("friend-close").addEventListener("click", () => $("friend-dialog").close());
  $("rooms-list").addEventListener("toggle", listRooms);
  $("room-leave").addEventListener("click", () => {
    if (events) events.close();
    location.hash = "";
    location.reload();
  });
  // Following a room's link from the page (the list, a pasted link) opens it.
  window.addEventListener("hashchange", () => {
    const named = roomInAddress();
    const room = app.state.room;
    if (named && (!room || named.id !== room.id || named.token !== room.token)) location.reload();
  });
}
