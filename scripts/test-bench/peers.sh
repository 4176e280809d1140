#!/usr/bin/env bash
# Installs the test bench's third-party peers, pinned, into ignored folders of the repository:
# - Python peers into the virtual environment .peers/python, from python-peers.txt (every package
#   pinned with its hashes, installed with --require-hashes);
# - Go peers into .peers/go/bin with `go install module@version`, one per line of go-peers.txt;
# - the throughput bench's Node peers and autocannon into bench/.peers, with `npm ci` from
#   bench/throughput/peers/package-lock.json (bench/throughput/install-peers.mjs).
# Idempotent: a folder whose stamp matches its pin file is left as it is. Nothing unpinned is fetched.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
peers="$root/.peers"
mkdir -p "$peers"

stamp_of() { sha256sum "$1" | cut -d' ' -f1; }

python_pins="$here/python-peers.txt"
venv="$peers/python"
if [ "$(cat "$venv/.stamp" 2>/dev/null)" != "$(stamp_of "$python_pins")" ]; then
  echo "peers: installing Python peers into .peers/python"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --require-hashes -r "$python_pins"
  stamp_of "$python_pins" > "$venv/.stamp"
fi

go_pins="$here/go-peers.txt"
gobin="$peers/go/bin"
if [ "$(cat "$peers/go/.stamp" 2>/dev/null)" != "$(stamp_of "$go_pins")" ]; then
  mkdir -p "$gobin"
  while read -r module _; do
    case "$module" in ''|'#'*) continue ;; esac
    case "$module" in *@v*) ;; *) echo "peers: $module in go-peers.txt has no @version" >&2; exit 1 ;; esac
    echo "peers: go install $module"
    GOBIN="$gobin" GOFLAGS=-mod=mod go install "$module"
  done < "$go_pins"
  stamp_of "$go_pins" > "$peers/go/.stamp"
fi
node "$root/bench/throughput/install-peers.mjs"
echo "peers: ready in .peers/ and bench/.peers/"
