#!/usr/bin/env bash
# Renders every app icon from the two SVG sources in build/:
#   appicon.svg        the master (48 px and up; macOS, Linux, Windows large sizes)
#   appicon-small.svg  the sidebar's logo mark, full bleed, for 16-32 px
# into build/appicon.png (1024 px; Wails makes the macOS .icns from it),
# build/linux/icons/hicolor/*/apps/airlock.{png,svg} and build/windows/icon.ico.
# Needs rsvg-convert (librsvg2-bin) and ImageMagick (imagemagick).
set -euo pipefail
cd "$(dirname "$0")/../.."

command -v rsvg-convert >/dev/null || { echo "icons: rsvg-convert is missing (apt-get install librsvg2-bin)" >&2; exit 1; }
CONVERT=convert
[ -x /usr/bin/convert ] && CONVERT=/usr/bin/convert
"$CONVERT" -version 2>/dev/null | grep -q ImageMagick || { echo "icons: ImageMagick is missing (apt-get install imagemagick)" >&2; exit 1; }

render() { # size out
  local src=build/appicon.svg
  [ "$1" -le 32 ] && src=build/appicon-small.svg
  rsvg-convert -w "$1" -h "$1" "$src" -o "$2"
}

render 1024 build/appicon.png

hicolor=build/linux/icons/hicolor
for s in 16 24 32 48 64 128 256 512; do
  mkdir -p "$hicolor/${s}x${s}/apps"
  render "$s" "$hicolor/${s}x${s}/apps/airlock.png"
done
mkdir -p "$hicolor/scalable/apps"
cp build/appicon.svg "$hicolor/scalable/apps/airlock.svg"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ico=()
for s in 16 20 24 32 40 48 64 128 256; do
  render "$s" "$tmp/$s.png"
  ico+=("$tmp/$s.png")
done
mkdir -p build/windows
"$CONVERT" "${ico[@]}" build/windows/icon.ico

echo "icons: build/appicon.png, $hicolor/{16..512}/apps/airlock.png + scalable, build/windows/icon.ico"
