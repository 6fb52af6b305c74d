#!/usr/bin/env bash
# `npm run setup`: makes a Debian/Ubuntu machine ready for `npm test`. Idempotent: what is
# already there is skipped, so a second run only checks.
#
# 1. System packages the integration tests use (list below). Missing ones are installed with
#    apt-get when run as root; otherwise the script prints the apt-get line to run and exits 1.
#    The tests start their own services (redis-server, dockerd, …) on free 127.0.0.1 ports and
#    stop them by pid; nothing here starts a service or enables one at boot.
# 2. Node dependencies: `npm ci` when node_modules is missing or older than package-lock.json
#    (npm ci writes node_modules/.package-lock.json last, so a completed install is newer than
#    the lockfile it installed; a pull or checkout that changes the lockfile makes it older).
#
# Exit status: 0 when everything needed is present afterwards; 1 when something is missing
# (the message says what to run).
set -euo pipefail
cd "$(dirname "$0")/.."

# The system packages, one line each: <apt package> <check> <what needs it>.
# <check> is a command that must be on PATH, or `static:<path>` for a statically linked file.
# Add a line here when a test needs a new tool.
PACKAGES=(
  "redis-server    redis-server          session-redis, worker-bullmq, the durable example, bench R1/W1"
  "docker.io       dockerd               sandbox-docker (a private dockerd per test run)"
  "busybox-static  static:/bin/busybox   sandbox-docker's offline test image"
  "bubblewrap      bwrap                 sandbox's local backend (isolation: 'bwrap')"
  "chromium        chromium              browser tests of the devtools page (playwright-core)"
  "espeak-ng       espeak-ng             voice pipeline tests (speech to WAV)"
  "sox             sox                   voice pipeline tests (audio measure/convert)"
)

present() {
  local check=$1
  if [[ $check == static:* ]]; then
    local file=${check#static:}
    # A static binary has no program interpreter: ldd says "not a dynamic executable".
    [[ -x $file ]] && ! ldd "$file" >/dev/null 2>&1
  else
    command -v "$check" >/dev/null 2>&1
  fi
}

missing=()
for line in "${PACKAGES[@]}"; do
  read -r pkg check _ <<<"$line"
  if present "$check"; then
    echo "✔ $pkg"
  else
    echo "✘ $pkg (no ${check#static:})"
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} > 0)); then
  if [[ $(id -u) -ne 0 ]]; then
    echo
    echo "Missing system packages: ${missing[*]}. Install them as root, then run npm run setup again:"
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}"
    exit 1
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "Missing system packages: ${missing[*]}, and no apt-get here (setup knows Debian/Ubuntu only)."
    echo "Install the equivalents with your package manager, then run npm run setup again."
    exit 1
  fi
  echo "== apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  unknown=()
  for pkg in "${missing[@]}"; do
    apt-cache show "$pkg" >/dev/null 2>&1 || unknown+=("$pkg")
  done
  if ((${#unknown[@]} > 0)); then
    echo "apt has no package named: ${unknown[*]}. Nothing was installed."
    if [[ " ${unknown[*]} " == *" chromium "* ]]; then
      echo "(Ubuntu ships Chromium as a snap: install it so that \`chromium\` is on PATH, then run npm run setup again.)"
    fi
    exit 1
  fi
  apt-get install -y -qq "${missing[@]}" >/dev/null
  failed=()
  for line in "${PACKAGES[@]}"; do
    read -r pkg check _ <<<"$line"
    present "$check" || failed+=("$pkg")
  done
  if ((${#failed[@]} > 0)); then
    echo "apt-get installed ${missing[*]}, but these are still missing: ${failed[*]}"
    exit 1
  fi
  echo "✔ installed ${missing[*]}"
fi

installed=node_modules/.package-lock.json
if [[ ! -f $installed ]]; then
  echo "== npm ci (no node_modules/.package-lock.json: never installed)"
  npm ci --no-audit --no-fund
elif [[ package-lock.json -nt $installed ]]; then
  echo "== npm ci (package-lock.json changed since the last install)"
  npm ci --no-audit --no-fund
else
  echo "✔ node_modules (installed after the last change of package-lock.json)"
fi
