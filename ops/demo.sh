#!/usr/bin/env bash
# npm run demo: the whole service offline, on a simulated market, from a fresh clone.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x node_modules/.bin/tsx ] || [ package.json -nt node_modules/.package-lock.json ]; then
  echo "demo: installing dependencies (npm install)"
  npm install --no-audit --no-fund
fi
export MARKET_SOURCE="${MARKET_SOURCE:-sim}"
# the demo runs on localhost: webhooks to a local receiver (and /api/whsink on this host) must be allowed
export WEBHOOK_ALLOW_PRIVATE="${WEBHOOK_ALLOW_PRIVATE:-true}"
# the demo is served over plain http on localhost: the site's session cookie goes without Secure
export SITE_COOKIE_SECURE="${SITE_COOKIE_SECURE:-false}"
# without SMTP_URL, sign-in links go to the development outbox (the log and npm run cli -- mail outbox)
export MAIL_OUTBOX="${MAIL_OUTBOX:-true}"
exec node --import tsx ops/demo/main.ts
