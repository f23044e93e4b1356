#!/usr/bin/env bash
# Regenerates the generated docs: docs/passes.md from the pass tables
# (pb-opt --list-passes --markdown) and docs/options.md from the option
# tables (polyblocks.options.markdown(), which reads
# pb-compile --list-options). With --check, fails if a committed file is
# stale instead.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
check() {  # check FILE TEXT
  local file=$1 generated=$2
  if [ "${MODE:-}" = "--check" ]; then
    if ! diff -u "$file" <(printf '%s\n' "$generated") >/dev/null; then
      echo "$file is stale: run scripts/gen-docs.sh" >&2
      diff -u "$file" <(printf '%s\n' "$generated") | head -40 >&2
      status=1
    fi
  else
    printf '%s\n' "$generated" > "$file"
    echo "wrote $file"
  fi
}
MODE=${1:-}
check docs/passes.md "$(target/debug/pb-opt --list-passes --markdown)"
check docs/options.md "$(POLYBLOCKS_COMPILE=${POLYBLOCKS_COMPILE:-target/debug/pb-compile} .venv/bin/python -c 'import polyblocks.options as o; print(o.markdown(), end="")')"
exit $status
