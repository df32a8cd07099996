#!/usr/bin/env bash
# Tests the packages in dist/ (run `make package` first; `make package-test`
# does both):
#   - the Windows app is a PE32+ GUI executable and the NSIS installer exists;
#   - the .tar.gz installs into a prefix with install.sh and uninstalls;
#   - the .deb installs with apt-get (dependencies resolved) and puts the
#     binary, a valid .desktop entry and the icons in place;
#   - the installed app, started the way its .desktop entry says under Xvfb,
#     opens its window (screenshot in artifacts/), logs into its data folder,
#     takes Ctrl+Q from its menu, remembers its window geometry, and a second
#     launch on the same data folder exits 0 and brings the first one back;
#     a launch on another data folder runs alongside; of two launches at the
#     same moment one runs and the other exits 0.
# The .deb is removed again at the end (KEEP_INSTALLED=1 keeps it).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
ARTIFACTS=${AIRLOCK_ARTIFACTS:-$root/artifacts}
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
mkdir -p "$ARTIFACTS"

step() { printf '\n== %s\n' "$*"; }
ok() { printf '   ok: %s\n' "$*"; }
fail() { printf '   FAIL: %s\n' "$*" >&2; exit 1; }

# --- inside the X session: the installed app ------------------------------
if [ "${1:-}" = --session ]; then
  desktop=/usr/share/applications/airlock.desktop
  CONVERT=convert
  [ -x /usr/bin/convert ] && CONVERT=/usr/bin/convert
  # Exec as a launcher runs it: split into words, field codes (%U, %f …) dropped.
  exec_line=$(sed -n 's/^Exec=//p' "$desktop" | head -1)
  read -r -a argv <<<"$(sed 's/ *%[a-zA-Z]//g' <<<"$exec_line")"
  wmclass=$(sed -n 's/^StartupWMClass=//p' "$desktop")
  tmp=$(mktemp -d)
  pids=()
  cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$tmp"
  }
  trap cleanup EXIT

  launch() { # data-dir out-file → pid
    AIRLOCK_DATA_DIR=$1 "${argv[@]}" >"$2" 2>&1 &
    pids+=($!)
    LAUNCHED=$!
  }
  # the visible top-level window of a process
  window_of() {
    local w
    for w in $(xdotool search --onlyvisible --class "$wmclass" 2>/dev/null); do
      [ "$(xdotool getwindowpid "$w" 2>/dev/null)" = "$1" ] && { echo "$w"; return 0; }
    done
    return 1
  }
  wait_for() { # seconds description command...
    local t=$1 what=$2; shift 2
    local end=$((SECONDS + t))
    until "$@" >/dev/null 2>&1; do
      [ $SECONDS -lt $end ] || fail "timed out after ${t}s waiting for $what"
      sleep 0.2
    done
  }
  ready_at_least() { # data-dir n: the page has loaded n times
    [ "$(grep -c 'msg="window ready"' "$1/logs/airlock.log" 2>/dev/null)" -ge "$2" ]
  }
  viewable() { xwininfo -id "$1" | grep -q 'Map State: IsViewable'; }
  alive() { kill -0 "$1" 2>/dev/null; }
  dead() { ! kill -0 "$1" 2>/dev/null; }
  geometry() { # → "W H X Y"
    xwininfo -id "$1" | awk '/Absolute upper-left X/ {x=$NF} /Absolute upper-left Y/ {y=$NF} /^ *Width/ {w=$NF} /^ *Height/ {h=$NF} END {print w, h, x, y}'
  }

  step "start the installed app: Exec=$exec_line (AIRLOCK_DATA_DIR=$tmp/data)"
  t0=$SECONDS
  launch "$tmp/data" "$tmp/first.out"
  first=$LAUNCHED
  wait_for 30 "the window" window_of "$first"
  win=$(window_of "$first")
  wait_for 30 "the page (\"window ready\" in the log)" ready_at_least "$tmp/data" 1
  shot_has_ui() { # the whole screen shows more than a blank page or the loading splash
    import -window root "$ARTIFACTS/package-test-window.png"
    spread=$($CONVERT "$ARTIFACTS/package-test-window.png" -colorspace gray -format '%[fx:standard_deviation]' info:)
    awk -v s="$spread" 'BEGIN { exit !(s > 0.05) }'
  }
  wait_for 20 "the UI to paint (see artifacts/package-test-window.png)" shot_has_ui
  ok "window $win shows the UI after $((SECONDS - t0))s (grey deviation $spread); screenshot: artifacts/package-test-window.png"
  xprop -id "$win" WM_CLASS | grep -q "\"$wmclass\"" || fail "WM_CLASS $(xprop -id "$win" WM_CLASS) lacks StartupWMClass=$wmclass"
  ok "WM_CLASS matches StartupWMClass=$wmclass"
  xprop -id "$win" _NET_WM_ICON | grep -q 'Icon (' || xprop -id "$win" _NET_WM_ICON | grep -q '=' || fail "the window has no icon"
  ok "the window has an icon (_NET_WM_ICON)"
  grep -q 'msg="starting Airlock" version=' "$tmp/data/logs/airlock.log" || fail "no startup line in the log"
  ok "log: $(grep -m1 'msg="starting Airlock"' "$tmp/data/logs/airlock.log" | sed 's/.*msg=//' | cut -c1-110)"

  step "second launch on the same data folder hands over and exits"
  xdotool windowunmap "$win"
  wait_for 5 "the window to be hidden" bash -c "! xwininfo -id $win | grep -q IsViewable"
  t1=$(date +%s%N)
  set +e
  AIRLOCK_DATA_DIR="$tmp/data" timeout 20 "${argv[@]}" >"$tmp/second.out" 2>&1
  rc=$?
  set -e
  ms=$((($(date +%s%N) - t1) / 1000000))
  [ $rc = 0 ] || { cat "$tmp/second.out" >&2; fail "the second launch exited with $rc"; }
  [ $ms -lt 5000 ] || fail "the second launch took ${ms} ms to exit"
  ok "the second process exited 0 after ${ms} ms: $(head -1 "$tmp/second.out")"
  alive "$first" || fail "the first instance is gone"
  wait_for 5 "the first window to come back" viewable "$win"
  ok "the first instance is still running and its window is shown again"
  grep -q 'second launch on this data folder' "$tmp/data/logs/airlock.log" || fail "the first instance did not log the hand-over"

  step "a launch on another data folder runs alongside"
  launch "$tmp/other" "$tmp/other.out"
  other=$LAUNCHED
  wait_for 30 "the other window" window_of "$other"
  alive "$first" || fail "the first instance is gone"
  ok "two windows, pids $first and $other"
  kill -TERM "$other"
  wait_for 10 "the other instance to exit" dead "$other"

  step "two launches at once on a new data folder: one runs, one hands over"
  launch "$tmp/race" "$tmp/race1.out"; r1=$LAUNCHED
  launch "$tmp/race" "$tmp/race2.out"; r2=$LAUNCHED
  wait_for 30 "one of the two to exit" bash -c "! kill -0 $r1 2>/dev/null || ! kill -0 $r2 2>/dev/null"
  if dead "$r1"; then gone=$r1 kept=$r2; else gone=$r2 kept=$r1; fi
  rc=0; wait "$gone" || rc=$?
  [ $rc = 0 ] || fail "the launch that lost exited with $rc"
  wait_for 30 "the window of the one that runs" window_of "$kept"
  ok "pid $kept runs, pid $gone exited 0"
  kill -TERM "$kept"
  wait_for 10 "it to exit" dead "$kept"

  step "Ctrl+Q (native menu) quits and the window geometry is remembered"
  xdotool windowsize "$win" 1000 700
  xdotool windowmove "$win" 60 40
  sleep 0.5
  xdotool key --clearmodifiers ctrl+n # File > New Chat: an event for the UI
  wait_for 5 "the menu event in the log" grep -q 'msg=menu event=menu:new-chat' "$tmp/data/logs/airlock.log"
  ok "Ctrl+N reached the native menu (event menu:new-chat)"
  xdotool windowfocus --sync "$win" 2>/dev/null || true
  xdotool key --clearmodifiers ctrl+q
  wait_for 10 "the app to quit on Ctrl+Q" dead "$first"
  rc=0; wait "$first" || rc=$?
  [ $rc = 0 ] || fail "the app exited with $rc after Ctrl+Q"
  grep 'window geometry saved' "$tmp/data/logs/airlock.log" | tail -1 | grep -q '\\"width\\":1000,\\"height\\":700,\\"x\\":60,\\"y\\":40' ||
    fail "saved geometry: $(grep 'window geometry saved' "$tmp/data/logs/airlock.log" | tail -1)"
  ok "quit with exit 0; saved 1000x700 at 60,40"
  launch "$tmp/data" "$tmp/third.out"
  third=$LAUNCHED
  wait_for 30 "the window after restart" window_of "$third"
  wait_for 30 "the page after restart" ready_at_least "$tmp/data" 2
  win=$(window_of "$third")
  geo=""
  for _ in $(seq 1 25); do geo=$(geometry "$win"); [ "$geo" = "1000 700 60 40" ] && break; sleep 0.2; done
  [ "$geo" = "1000 700 60 40" ] || fail "restarted at $geo (W H X Y), want 1000 700 60 40"
  ok "restarted at 1000x700 at 60,40"
  painted() { # the restored window shows the UI, not a blank page
    import -window root "$ARTIFACTS/package-test-restored.png"
    $CONVERT "$ARTIFACTS/package-test-restored.png" -crop 1000x700+60+40 -colorspace gray -format '%[fx:standard_deviation]' info: |
      awk '{ exit !($1 > 0.05) }'
  }
  wait_for 15 "the restored window to paint the UI" painted
  ok "the UI is painted; screenshot: artifacts/package-test-restored.png"
  kill -TERM "$third"
  wait_for 10 "the app to exit" dead "$third"
  ok "log files: $(ls "$tmp/data/logs" | tr '\n' ' ')"
  exit 0
fi

# --- outside: files and installation ----------------------------------------
T0=$SECONDS
shopt -s nullglob
debs=(dist/airlock_*_amd64.deb); tars=(dist/airlock-*-linux-amd64.tar.gz)
exes=(dist/airlock-*-windows-amd64.exe); setups=(dist/airlock-*-windows-amd64-installer.exe)
[ ${#debs[@]} = 1 ] && [ ${#tars[@]} = 1 ] && [ ${#exes[@]} = 1 ] && [ ${#setups[@]} = 1 ] ||
  fail "dist/ should hold one .deb, .tar.gz, .exe and installer; run 'make package' (found: $(ls dist 2>/dev/null | tr '\n' ' '))"

step "package version from git describe"
for case in "v1.2.3=1.2.3" "v1.2.3-4-gabc1234-dirty=1.2.3+4.gabc1234.dirty" "abc1234=0.1.0~git.abc1234" \
            "2cb5924-dirty=0.1.0~git.2cb5924.dirty" "dev=0.1.0~git.dev"; do
  in=${case%%=*} want=${case#*=}
  got=$(build/scripts/deb-version.sh "$in")
  [ "$got" = "$want" ] || fail "deb-version.sh $in = $got, want $want"
done
deb_version=$(dpkg-deb -f "${debs[0]}" Version)
dpkg --validate-version "$deb_version" 2>/dev/null || fail "invalid Debian version $deb_version"
ok "git describe → Debian version mapping; this build is $deb_version"

step "Windows artifacts"
file -b "${exes[0]}" | grep -q '^PE32+ executable (GUI) x86-64' || fail "${exes[0]}: $(file -b "${exes[0]}")"
ok "$(basename "${exes[0]}"): $(file -b "${exes[0]}" | cut -d, -f1-2)"
file -b "${setups[0]}" | grep -q 'Nullsoft Installer' || fail "${setups[0]}: $(file -b "${setups[0]}")"
[ "$(stat -c %s "${setups[0]}")" -gt 1000000 ] || fail "${setups[0]} is suspiciously small"
ok "$(basename "${setups[0]}"): $(file -b "${setups[0]}" | cut -d, -f1,3)"
zips=(dist/airlock-*-windows-amd64.zip)
[ ${#zips[@]} = 1 ] && python3 -m zipfile -l "${zips[0]}" | grep -q 'Airlock/python.wasm' || fail "the Windows .zip does not carry python.wasm"
ok "$(basename "${zips[0]}"): airlock.exe with python.wasm"
(cd dist && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match"
ok "SHA256SUMS matches"

step "tar.gz: install.sh into a prefix, then --uninstall"
t=$(mktemp -d)
tar -C "$t" -xzf "${tars[0]}"
dir=("$t"/airlock-*-linux-amd64)
"${dir[0]}/install.sh" --prefix "$t/prefix" >"$t/install.out"
sed 's/^/   | /' "$t/install.out"
for f in bin/airlock lib/airlock/python.wasm share/applications/airlock.desktop share/icons/hicolor/256x256/apps/airlock.png share/icons/hicolor/scalable/apps/airlock.svg; do
  [ -e "$t/prefix/$f" ] || fail "install.sh did not install $f"
done
grep -qx "Exec=$t/prefix/bin/airlock" "$t/prefix/share/applications/airlock.desktop" || fail "the installed .desktop does not start $t/prefix/bin/airlock"
! command -v desktop-file-validate >/dev/null || desktop-file-validate "$t/prefix/share/applications/airlock.desktop" || fail "invalid .desktop from install.sh"
"${dir[0]}/install.sh" --prefix "$t/prefix" --uninstall >/dev/null
left=$(find "$t/prefix" -type f -not -name '*.cache') # menu/icon caches may stay
[ -z "$left" ] || fail "--uninstall left: $left"
ok "installed and uninstalled cleanly"
rm -rf "$t"

step "apt-get install ./${debs[0]}"
remove_package() {
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get remove -y -qq airlock >/dev/null 2>&1
}
[ "${KEEP_INSTALLED:-0}" = 1 ] || trap 'remove_package' EXIT
dpkg-deb -f "${debs[0]}" Depends | grep -q 'libwebkit2gtk-4.1-0' || fail "the .deb does not depend on WebKitGTK 4.1"
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --reinstall --allow-downgrades "./${debs[0]}" >"$ARTIFACTS/package-test-apt.log" 2>&1 ||
  { tail -20 "$ARTIFACTS/package-test-apt.log" >&2; fail "apt-get install failed"; }
[ "$(dpkg-query -W -f='${Status} ${Version}' airlock)" = "install ok installed $deb_version" ] || fail "airlock $deb_version is not installed"
for f in /usr/bin/airlock /usr/lib/airlock/python.wasm /usr/share/applications/airlock.desktop /usr/share/icons/hicolor/48x48/apps/airlock.png /usr/share/icons/hicolor/scalable/apps/airlock.svg; do
  [ -e "$f" ] || fail "the package did not install $f"
done
! command -v desktop-file-validate >/dev/null || desktop-file-validate /usr/share/applications/airlock.desktop || fail "invalid .desktop"
ok "airlock $deb_version installed: /usr/bin/airlock, .desktop (valid), icons"
missing=$(ldd /usr/bin/airlock | grep 'not found' || true)
[ -z "$missing" ] || fail "unresolved libraries: $missing"
ok "all shared libraries resolve"

# One D-Bus session and one X server for every launch, as on a desktop.
NO_AT_BRIDGE=1 dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24" "$0" --session

if [ "${KEEP_INSTALLED:-0}" != 1 ]; then
  step "remove the package"
  trap - EXIT
  remove_package
  [ ! -e /usr/bin/airlock ] || fail "/usr/bin/airlock is still there after removal"
  ok "removed"
fi
printf '\npackage-test: all checks passed in %ss\n' $((SECONDS - T0))
