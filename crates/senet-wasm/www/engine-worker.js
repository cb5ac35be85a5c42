// The engine in the page (crates/senet-wasm), in a worker of its own so that a search or a
// solve never freezes the page. Messages: { id, kind: "call", path, body } answered with the
// JSON text `senet serve` would send, { id, kind: "playouts", rules, games, seed } with the
// actions played and the milliseconds taken, { id, kind: "ready" } with the milliseconds
// the module took to load. Every refusal comes back as a one-line message.

import init, { Engine, playouts } from "./pkg/senet_wasm.js";

const started = performance.now();
let loadMs = 0;
let engine = null;

// The engine's one source of randomness: a ChaCha8 seed from the browser's generator.
function fresh() {
  const seed = new Uint8Array(32);
  crypto.getRandomValues(seed);
  return new Engine(seed);
}

const ready = init().then(() => {
  loadMs = performance.now() - started;
  engine = fresh();
});

function answer(data) {
  switch (data.kind) {
    case "call":
      return engine.call(data.path, data.body);
    case "playouts": {
      const t0 = performance.now();
      const actions = playouts(data.rules, data.games, data.seed);
      return { actions, ms: performance.now() - t0 };
    }
    case "ready":
      return { loadMs };
    default:
      throw new Error(`unknown request ${data.kind}`);
  }
}

self.onmessage = async (event) => {
  const data = event.data;
  try {
    await ready;
    self.postMessage({ id: data.id, ok: true, result: answer(data) });
  } catch (error) {
    const message = String((error && error.message) || error).split("\n")[0];
    // A trap (a bug) leaves the module's state unknown: start a fresh engine for what follows.
    if (error instanceof WebAssembly.RuntimeError) {
      try {
        engine = fresh();
      } catch {
        engine = null;
      }
    }
    self.postMessage({ id: data.id, ok: false, error: `the engine in the page: ${message}` });
  }
};
