# Shared by the shell tests that check exits and messages: sourced after
# `strata=$1; src=$2`. Gives $tmp (a scratch folder removed on exit),
# fail MESSAGE, and expect RC MESSAGE CMD...: CMD exits RC and prints
# MESSAGE (a fixed string); otherwise its output is shown and the test fails.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect() {
  local want=$1 msg=$2
  shift 2
  "$@" >"$tmp/out" 2>&1
  local rc=$?
  [ $rc -eq "$want" ] || { cat "$tmp/out"; fail "exit $rc, not $want: $*"; }
  grep -q -F -e "$msg" "$tmp/out" || { cat "$tmp/out"; fail "no '$msg' from: $*"; }
}
