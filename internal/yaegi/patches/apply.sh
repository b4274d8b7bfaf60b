#!/bin/sh
# The fork's patch series: one NNNN-patch-N.patch per entry of
# internal/yaegi/README.md's list, in its order, unified diffs against upstream
# at the base (with the unsafe2 import path rewritten to the fork's).
#   apply.sh --check      the series reproduces the fork byte for byte, and every
#                         hunk of the fork carries a "toolscript patch N" marker
#   apply.sh --export     regenerate the series from the fork (then --check)
#   apply.sh <version> [-o dir] [--reject]
#                         download upstream <version> (go mod download) and apply
#                         the series onto it in dir (default: a new temporary one)
set -e
cd "$(dirname "$0")/../../.."
exec go run ./internal/yaegi/forktool patches "$@"
