#!/usr/bin/env bash
# Prints the Debian package version for a `git describe --tags --always --dirty`
# output (it must start with a digit and sort sensibly):
#   v1.2.3                   → 1.2.3
#   v1.2.3-4-gabc1234-dirty  → 1.2.3+4.gabc1234.dirty   (after 1.2.3)
#   abc1234 / 2cb5924-dirty  → 0.1.0~git.2cb5924.dirty  (no tag yet: wails.json's productVersion,
#                                                         "~" sorting before that release)
set -euo pipefail
v=${1:?usage: deb-version.sh GIT_DESCRIBE}
if [[ $v =~ ^v?([0-9]+(\.[0-9]+)+)(-(.*))?$ ]]; then
  core=${BASH_REMATCH[1]} rest=${BASH_REMATCH[4]}
  if [ -n "$rest" ]; then echo "$core+${rest//-/.}"; else echo "$core"; fi
else
  base=$(sed -n 's/.*"productVersion": *"\([0-9][0-9.]*\)".*/\1/p' "$(dirname "$0")/../../wails.json" 2>/dev/null || true)
  v=${v//[^A-Za-z0-9.-]/}
  echo "${base:-0.0.0}~git.${v//-/.}"
fi
