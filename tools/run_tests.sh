#!/usr/bin/env bash
# Every test (`make test`), in streams that share this machine's two cores:
# - the site is built (strict) while the library's tests and the notebooks run; the few of those
#   that read the built site wait for it (tests/conftest.py, $RULES_LIB_SITE_STATUS);
# - once it is built, the browser tests (mostly waiting on Chromium) run in two halves.
# The Python tests report on the console; the build's and the browser tests' reports follow them.
set -u
BIN=${BIN:-.venv/bin}
SITE=.site-test
export RULES_LIB_SITE_DIR=$SITE RULES_LIB_SITE_STATUS=$SITE.status
LOGS=(.site-build.log .browser-tests.log .browser-tests-2.log)

"$BIN/ruff" check . || exit 1
rm -f "$RULES_LIB_SITE_STATUS" "${LOGS[@]}"
echo "site build, then browser tests: in the background, their reports follow the others' (${LOGS[*]})"
(
  "$BIN/mkdocs" build --strict --site-dir "$SITE" > .site-build.log 2>&1
  built=$?
  # written whole, then renamed: a waiting test never reads half of it
  echo "$built" > "$RULES_LIB_SITE_STATUS.partial" && mv "$RULES_LIB_SITE_STATUS.partial" "$RULES_LIB_SITE_STATUS"
  [ "$built" = 0 ] || exit "$built"
  # halves of about equal time (on 2026-12-04: tests/test_browser.py took 224 s, the rest 660 s)
  FIRST_HALF=(tests/test_browser.py tests/test_browser_a11y.py tests/test_browser_layout.py)
  "$BIN/pytest" -m browser --durations=5 "${FIRST_HALF[@]}" > .browser-tests.log 2>&1 & first=$!
  "$BIN/pytest" -m browser --durations=5 "${FIRST_HALF[@]/#/--ignore=}" > .browser-tests-2.log 2>&1 & second=$!
  wait $first; first_status=$?
  wait $second; second_status=$?
  exit $(( first_status || second_status ))
) & site=$!

"$BIN/pytest" --nbval --nbval-current-env -m "not browser" --durations=10; rest=$?
wait $site; site_status=$?
for log in "${LOGS[@]}"; do
  [ -f "$log" ] && { echo "== $log"; cat "$log"; }
done
[ "$site_status" = 0 ] || echo "the site build or the browser tests failed (exit $site_status): see above"
exit $(( rest || site_status ))
