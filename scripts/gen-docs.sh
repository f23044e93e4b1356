#!/usr/bin/env bash
# Regenerates docs/passes.md from the pass tables (pb-opt --list-passes
# --markdown). With --check, fails if the committed file is stale instead.
set -euo pipefail
cd "$(dirname "$0")/.."
generated=$(target/debug/pb-opt --list-passes --markdown)
if [ "${1:-}" = "--check" ]; then
  if ! diff -u docs/passes.md <(printf '%s\n' "$generated") >/dev/null; then
    echo "docs/passes.md is stale: run scripts/gen-docs.sh" >&2
    diff -u docs/passes.md <(printf '%s\n' "$generated") | head -40 >&2
    exit 1
  fi
else
  printf '%s\n' "$generated" > docs/passes.md
  echo "wrote docs/passes.md"
fi
