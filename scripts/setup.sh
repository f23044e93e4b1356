#!/usr/bin/env bash
# One-time, idempotent set-up of a Debian 12 machine for polyblocks-rs:
# Debian's LLVM/MLIR 22 packages and the libraries the Rust crates link, then
# a build of the workspace. Fast when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools clang-22 lld-22 libomp-22-dev libclang-rt-22-dev
  libzstd-dev libz3-dev libxml2-dev zlib1g-dev
  autoconf automake libtool pkg-config make python3 valgrind
)

missing=()
for package in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1; then
  if [ -x "$HOME/.cargo/bin/cargo" ]; then
    export PATH="$HOME/.cargo/bin:$PATH"
  else
    echo "setup: cargo not found; install Rust with rustup (https://rustup.rs)" >&2
    exit 1
  fi
fi
if ! cargo clippy --version >/dev/null 2>&1; then
  rustup component add clippy
fi

# The Python side (.venv in the repository root): the framework packages,
# test tools and the polyblocks package itself. Reinstalled only when
# requirements.txt or python/pyproject.toml changes.
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
stamp=.venv/.requirements.sha256
wanted=$(sha256sum requirements.txt python/pyproject.toml)
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -r requirements.txt
  # The polyblocks package itself, editable: `import polyblocks` in .venv
  # runs the sources in python/.
  if ! log=$(.venv/bin/python -m pip install --quiet --no-deps -e python 2>&1); then
    printf '%s\n' "$log" >&2
    exit 1
  fi
  printf '%s\n' "$wanted" > "$stamp"
fi

# An ISL built before tools/isl-config.site asked for its small-integer
# optimization (isl-rs's build script does not rerun when the environment
# changes) is rebuilt, in each profile's folder that holds one.
for config in target/*/build/isl-rs-*/out/isl/isl_config.h; do
  if [ -f "$config" ] && ! grep -q '^#define USE_SMALL_INT_OPT' "$config"; then
    folder=${config#target/}
    folder=${folder%%/*}
    case $folder in
      debug) profile=dev ;;
      *) profile=$folder ;;
    esac
    echo "setup: rebuilding ISL ($profile) with its small-integer optimization" >&2
    cargo clean --quiet -p isl-rs --profile "$profile"
  fi
done

cargo build --workspace --quiet
