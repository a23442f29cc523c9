#!/usr/bin/env bash
# Makes sure promtool exists for the alert rules' test (cmd/towow
# TestAlertRules: promtool check rules, test rules, check metrics).
# Installs Debian's prometheus package, which ships it, when run as root;
# otherwise prints one line saying what to install — the test then skips
# outside CI and fails in CI.
set -euo pipefail
command -v promtool >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-promtool: installing Debian's prometheus package for promtool" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  command -v promtool >/dev/null 2>&1 && exit 0
fi
echo "promtool not found: install it (sudo apt-get install prometheus) for the alert rules' test" >&2
exit 0
