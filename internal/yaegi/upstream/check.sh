#!/bin/sh
# Runs upstream yaegi's interp tests against internal/yaegi's interpreter and
# fails on a failure internal/yaegi/upstream/baseline.txt does not list.
# Flags: -short (skip the native builds of TestInterpConsistencyBuild),
# -baseline (rerun upstream as is and rewrite its list), -run re, -keep,
# -nocache. See internal/yaegi/README.md.
set -e
cd "$(dirname "$0")/../../.."
exec go run ./internal/yaegi/forktool upstream "$@"
