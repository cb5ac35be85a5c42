// The page's `api(path, body)` (app.js) answered by the engine in the page: the same paths,
// bodies and JSON as `senet serve`, from the WebAssembly engine in a worker
// (engine-worker.js). The static build (crates/senet-wasm/build-static.sh) marks its page
// with <meta name="senet-engine" content="local">, which makes app.js load this module.

let worker = null;
let next = 0;
const waiting = new Map();

function failAll(message) {
  for (const { reject } of waiting.values()) reject(new Error(message));
  waiting.clear();
  worker = null;
}

function ask(message) {
  if (!worker) {
    worker = new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" });
    worker.onmessage = (event) => {
      const { id, ok, result, error } = event.data;
      const promise = waiting.get(id);
      if (!promise) return;
      waiting.delete(id);
      if (ok) promise.resolve(result);
      else promise.reject(new Error(error));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      failAll(`the engine in the page did not start: ${event.message || "the worker failed to load"}`);
    };
  }
  const id = ++next;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ ...message, id });
  });
}

/** What `fetch(path, body)` gives under `senet serve`: the answer's JSON, or an Error. */
export async function api(path, body) {
  const text = await ask({ kind: "call", path, body: body === undefined ? "" : JSON.stringify(body) });
  return JSON.parse(text);
}

/** `games` random games of `rules` in the engine: `{ actions, ms }` (docs/web.md). */
export function playouts(rules, games, seed) {
  return ask({ kind: "playouts", rules, games, seed });
}

/** Resolves once the engine is loaded: `{ loadMs }`, the module's fetch and compile time. */
export function ready() {
  return ask({ kind: "ready" });
}
