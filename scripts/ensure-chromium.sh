#!/usr/bin/env bash
# Makes sure a headless Chromium exists for the console's browser test
# (cmd/towow TestConsoleInBrowser, driven with chromedp). Installs Debian's
# chromium package (and CJK fonts, so screenshots show the Chinese text)
# when run as root; otherwise prints one line saying what to install — the
# test then skips outside CI and fails in CI.
set -euo pipefail
have() { command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || command -v google-chrome >/dev/null 2>&1; }
have && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: installing Debian's chromium and fonts-noto-cjk for the console's browser test" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
  have && exit 0
fi
echo "chromium not found: install it (sudo apt-get install chromium fonts-noto-cjk) for the console's browser test" >&2
exit 0
