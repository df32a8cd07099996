#!/usr/bin/env bash
# Builds Airlock's installable packages into dist/ and lists them.
#
#   build/scripts/package.sh [linux] [windows]      (default: both)
#
# Run through `make package`, which first builds the frontend and the Linux
# binary (build/bin/airlock) and installs the tools. Environment:
#   VERSION  the app version (git describe); stamped into the Windows build
#   NFPM     nfpm binary (v2.45.0), WAILS  wails CLI (v2.16.0)
#
# Output (dist/ is emptied first):
#   airlock_<debver>_amd64.deb                 Debian/Ubuntu package (nfpm)
#   airlock-<ver>-linux-amd64.tar.gz           binary, .desktop, icons, install.sh
#   airlock-<ver>-windows-amd64.exe            the app (PE32+ GUI, WebView2)
#   airlock-<ver>-windows-amd64-installer.exe  NSIS installer: Start menu entry, uninstaller,
#                                              installs the WebView2 runtime if missing
#   airlock-<ver>-windows-amd64.zip           the .exe and python.wasm, to run without installing
#   SHA256SUMS
#
# Every package carries python.wasm (run_python's runtime, build/bin/python.wasm,
# fetched by `make python-wasm`): /usr/lib/airlock in the .deb, beside the binary
# elsewhere.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

VERSION=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
NFPM=${NFPM:-$(go env GOPATH)/bin/nfpm}
WAILS=${WAILS:-$(go env GOPATH)/bin/wails}
BIN=build/bin/airlock
DIST=dist
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(linux windows)

DEB_VERSION=$(build/scripts/deb-version.sh "$VERSION")
FILE_VERSION=${DEB_VERSION//\~/-} # "~" is awkward in URLs and shells

rm -rf "$DIST"
mkdir -p "$DIST"
built=()

want() { [[ " ${targets[*]} " == *" $1 "* ]]; }

PYWASM=build/bin/python.wasm
[ -f "$PYWASM" ] || { echo "package: $PYWASM is missing; run 'make package' (it fetches it)" >&2; exit 1; }

if want linux; then
  [ -x "$BIN" ] || { echo "package: $BIN is missing; run 'make package' (it builds it)" >&2; exit 1; }
  [ -x "$NFPM" ] || { echo "package: nfpm is missing at $NFPM; run 'make package' (it installs it)" >&2; exit 1; }

  # .deb
  AIRLOCK_DEB_VERSION=$DEB_VERSION "$NFPM" package -f build/linux/nfpm.yaml -p deb -t "$DIST/" >/dev/null
  deb="$DIST/airlock_${DEB_VERSION}_amd64.deb"
  [ -f "$deb" ] || { echo "package: nfpm did not write $deb" >&2; ls "$DIST" >&2; exit 1; }
  built+=("$deb")

  # .tar.gz for other distributions
  name="airlock-${FILE_VERSION}-linux-amd64"
  stage=$(mktemp -d)
  trap 'rm -rf "$stage"' EXIT
  mkdir -p "$stage/$name"
  cp "$BIN" "$stage/$name/airlock"
  cp "$PYWASM" "$stage/$name/python.wasm"
  cp build/linux/airlock.desktop build/linux/install.sh "$stage/$name/"
  mkdir -p "$stage/$name/icons"
  cp -r build/linux/icons/hicolor "$stage/$name/icons/"
  cat > "$stage/$name/README.txt" <<EOF
Airlock ${VERSION} for Linux (x86-64)

Install:    ./install.sh            (as a user: ~/.local; as root: /usr/local)
            ./install.sh --prefix DIR
Uninstall:  ./install.sh --uninstall
Run without installing: ./airlock

Needs GTK 3 and WebKitGTK 4.1 (./install.sh --help lists the package names).
Your chats and settings live in ~/.config/Airlock (or \$AIRLOCK_DATA_DIR);
logs in ~/.config/Airlock/logs/airlock.log.
EOF
  chmod 0755 "$stage/$name/airlock" "$stage/$name/install.sh"
  tar -C "$stage" --owner=0 --group=0 --numeric-owner --sort=name -czf "$DIST/$name.tar.gz" "$name"
  built+=("$DIST/$name.tar.gz")
fi

if want windows; then
  command -v makensis >/dev/null || { echo "package: makensis is missing (apt-get install nsis)" >&2; exit 1; }
  [ -x "$WAILS" ] || { echo "package: the wails CLI is missing at $WAILS; run 'make package'" >&2; exit 1; }
  [ -f frontend/dist/index.html ] || { echo "package: frontend/dist is missing; run 'make package'" >&2; exit 1; }
  # wails build writes into the project (the rendered NSIS include, the
  # WebView2 bootstrapper, frontend/wailsjs), so it runs on a copy; the fixed
  # path keeps Go's build cache warm between runs.
  work="${TMPDIR:-/tmp}/airlock-package-windows"
  rm -rf "$work"
  mkdir -p "$work"
  tar --exclude=./.git --exclude=./frontend/node_modules --exclude=./dist --exclude=./build/bin \
      --exclude=./build/cache --exclude=./artifacts -cf - . | tar -xf - -C "$work"
  # The installer takes python.wasm from beside the exe (project.nsi).
  mkdir -p "$work/build/bin" && cp "$PYWASM" "$work/build/bin/python.wasm"
  (
    cd "$work"
    # -s: the frontend is already built; -m/-nosyncgomod: leave go.mod alone;
    # -skipbindings: the UI has its own typed layer. The default WebView2
    # strategy ("download") offers the runtime's bootstrapper when it is
    # missing; the installer also installs the runtime when missing.
    "$WAILS" build -platform windows/amd64 -nsis -s -m -nosyncgomod -skipbindings -skipembedcreate -trimpath \
      -tags webkit2_41 -ldflags "-s -w -X main.version=$VERSION" -o airlock.exe -nocolour -v 1 >"$work/wails-build.log" 2>&1
  ) || { echo "package: wails build for Windows failed:" >&2; tail -40 "$work/wails-build.log" >&2; exit 1; }
  exe="$DIST/airlock-${FILE_VERSION}-windows-amd64.exe"
  setup="$DIST/airlock-${FILE_VERSION}-windows-amd64-installer.exe"
  cp "$work/build/bin/airlock.exe" "$exe"
  installer=$(ls "$work"/build/bin/*-amd64-installer.exe 2>/dev/null | head -1)
  [ -n "$installer" ] || { echo "package: wails did not make the NSIS installer" >&2; tail -20 "$work/wails-build.log" >&2; exit 1; }
  cp "$installer" "$setup"
  zip="$DIST/airlock-${FILE_VERSION}-windows-amd64.zip"
  mkdir -p "$work/zip/Airlock"
  cp "$work/build/bin/airlock.exe" "$PYWASM" "$work/zip/Airlock/"
  (cd "$work/zip" && python3 -m zipfile -c "$root/$zip" Airlock)
  built+=("$exe" "$setup" "$zip")
  rm -rf "$work"
fi

(cd "$DIST" && sha256sum -- * > SHA256SUMS)

echo
echo "Built Airlock $VERSION into $DIST/:"
for f in "${built[@]}"; do
  printf '  %-58s %6s  %s\n' "$(basename "$f")" "$(du -h "$f" | cut -f1)" "$(file -b "$f" | cut -d, -f1-2)"
done
echo "  SHA256SUMS"
