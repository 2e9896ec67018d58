#!/bin/bash
# Every mutant of tests/mutants/*.patch still applies to the sources
# (docs/mutants.md): scripts/mutants applies each with `git apply` in a
# scratch copy, and a patch that no longer applies tests nothing (seven had
# stopped applying before this test). Runs `git apply --check` for each
# against the source tree, which it does not change, and fails naming every
# patch that does not apply, with git's reason.
# Skipped (exit 77, ctest's SKIP_RETURN_CODE) without git, or when the
# source directory is not the top of a git checkout (a source tarball inside
# another repository would have git apply skip the paths outside it).
# Usage: mutant_patches_test.sh SOURCE_DIR
set -u
src=$1
if ! command -v git >/dev/null 2>&1; then
  echo "SKIP mutant_patches: no git"
  exit 77
fi
top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null) || top=
if [ -z "$top" ] || [ "$(cd "$top" && pwd -P)" != "$(cd "$src" && pwd -P)" ]; then
  echo "SKIP mutant_patches: $src is not the top of a git checkout"
  exit 77
fi
shopt -s nullglob
patches=("$src"/tests/mutants/*.patch)
[ "${#patches[@]}" -gt 0 ] || { echo "FAIL: no patches in $src/tests/mutants"; exit 1; }
bad=()
for p in "${patches[@]}"; do
  if ! out=$(git -C "$src" apply --check "$p" 2>&1); then
    bad+=("$(basename "$p")")
    printf '%s does not apply:\n%s\n' "$(basename "$p")" "$out"
  fi
done
if [ "${#bad[@]}" -gt 0 ]; then
  echo "FAIL: ${#bad[@]} of ${#patches[@]} mutant patches do not apply: ${bad[*]}"
  exit 1
fi
echo "${#patches[@]} of ${#patches[@]} mutant patches apply"
echo "PASS mutant_patches"
