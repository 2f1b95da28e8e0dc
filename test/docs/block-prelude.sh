# The README runner's wrapper around one shell block (test/docs/readme-runner.test.ts): run as
# bash -c with RUNNER_STATE (what the file's earlier blocks left) and RUNNER_BLOCK (the block).
# Each block runs in its own bash, sourced from a file (so a failure names its line); the variables
# and functions it leaves are written out for the next block of the same file to start with.
set -Eeuo pipefail
__baseline=" $(compgen -v | tr '\n' ' ') "
source "$RUNNER_STATE"
# a status >= 400 is an error the reader would not want to miss: curl fails, showing the body
# (the || keeps the ERR trap for the caller's line)
curl() { command curl --fail-with-body "$@" || { __status=$?; __failed="curl $*"; return $__status; }; }
trap 'echo "FAILED (exit $?) at line $LINENO: ${__failed:-$BASH_COMMAND}" >&2; __failed=' ERR
source "$RUNNER_BLOCK"
trap - ERR
# the variables this file's blocks made (the shell's own and the runner's __ ones aside)
__new() { for __v in $(compgen -v); do case "$__v" in __* | FUNCNAME) continue ;; esac; case "$__baseline" in *" $__v "*) continue ;; esac; echo "$__v"; done; }
# one set to "undefined" is a field the answer did not have (node -p read an error body)
for __v in $(__new); do
  [ "${!__v-}" != undefined ] || { echo "FAILED (exit 1) at line 0: \$$__v is \"undefined\" after this block" >&2; exit 1; }
done
{ for __v in $(__new); do declare -p "$__v"; done
  for __f in $(compgen -A function); do case "$__f" in curl | __*) ;; *) declare -f "$__f" ;; esac; done; } > "$RUNNER_STATE.next"
