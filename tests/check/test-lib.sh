# Sourced by the checker's shell tests: a scratch directory $work, removed
# on exit, and fail(), which counts into $failures.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
        echo "FAIL: $*"
        failures=$((failures + 1))
}
