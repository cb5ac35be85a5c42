#!/usr/bin/env bash
# Writes the game as a folder of static files (HTML, CSS, JS and the engine as .wasm) that
# plays every ruleset against the computer players that fit a browser, offline, with no
# server: any static file server will do (it must send .wasm as application/wasm), e.g.
#
#     crates/senet-wasm/build-static.sh            # into target/senet-static
#     crates/senet-wasm/build-static.sh DIR        # into DIR
#     python3 -m http.server -d target/senet-static 8000
#
# Needs the wasm32-unknown-unknown target (`rustup target add wasm32-unknown-unknown`) and
# wasm-bindgen's CLI at the version of wasm-bindgen in Cargo.lock, on PATH or in
# target/tools/bin (`cargo install wasm-bindgen-cli --version V --locked --no-default-features
# --root target/tools`; .ci/run does it). WASM_BINDGEN names another binary.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/target/senet-static}
target_dir=${CARGO_TARGET_DIR:-$root/target}

version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' \
    "$root/Cargo.lock")
bindgen=${WASM_BINDGEN:-}
if [ -z "$bindgen" ]; then
    if [ -x "$root/target/tools/bin/wasm-bindgen" ]; then
        bindgen=$root/target/tools/bin/wasm-bindgen
    else
        bindgen=wasm-bindgen
    fi
fi
install="cargo install wasm-bindgen-cli --version $version --locked --no-default-features --root target/tools"
if ! found=$("$bindgen" --version 2>/dev/null); then
    echo "build-static.sh: no wasm-bindgen CLI; install it with: $install" >&2
    exit 1
fi
if [ "$found" != "wasm-bindgen $version" ]; then
    echo "build-static.sh: $found, but Cargo.lock has wasm-bindgen $version; install it with: $install" >&2
    exit 1
fi

cd "$root"
cargo build --locked --profile wasm-release --target wasm32-unknown-unknown -p senet-wasm
mkdir -p "$out"
rm -rf "$out/pkg"
"$bindgen" --target web --no-typescript --out-dir "$out/pkg" \
    "$target_dir/wasm32-unknown-unknown/wasm-release/senet_wasm.wasm"

# The page of `senet serve`, marked for the engine in the page, with relative addresses so
# that the folder works under any path. Rooms (games with a friend, rooms.js) need a server:
# the static page leaves rooms.js out (app.js then plays alone) and hides their controls.
assets=crates/senet-cli/assets
hide='<style>#friend, #rooms-list { display: none; }</style>'
sed -e 's|<meta charset="utf-8">|<meta charset="utf-8">\n<meta name="senet-engine" content="local">\n'"$hide"'|' \
    -e 's|href="/|href="./|g' -e 's|src="/|src="./|g' "$assets/index.html" >"$out/index.html"
cp "$assets/app.js" "$assets/style.css" "$assets/favicon.svg" "$out/"
cp crates/senet-wasm/www/engine-local.js crates/senet-wasm/www/engine-worker.js "$out/"

wasm=$out/pkg/senet_wasm_bg.wasm
raw=$(wc -c <"$wasm")
gzipped=$(gzip -9 -c "$wasm" | wc -c)
echo "build-static.sh: wrote $out (engine: $raw bytes, $gzipped gzip-compressed)"
