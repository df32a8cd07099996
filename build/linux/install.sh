#!/bin/sh
# Installs Airlock from this folder (the unpacked airlock-*-linux-amd64.tar.gz)
# for distributions without a .deb.
#
#   ./install.sh                 as a user: into ~/.local; as root: into /usr/local
#   ./install.sh --prefix DIR    into DIR (bin/, share/applications/, share/icons/)
#   ./install.sh --uninstall     removes what an install with the same prefix put there
#
# Airlock needs GTK 3 and WebKitGTK 4.1 from the distribution:
#   Debian/Ubuntu: sudo apt install libgtk-3-0 libwebkit2gtk-4.1-0
#   Fedora:        sudo dnf install gtk3 webkit2gtk4.1
#   Arch:          sudo pacman -S gtk3 webkit2gtk-4.1
#   openSUSE:      sudo zypper install libgtk-3-0 libwebkit2gtk-4_1-0
set -eu

here=$(cd "$(dirname "$0")" && pwd)
if [ "$(id -u)" = 0 ]; then prefix=/usr/local; else prefix="$HOME/.local"; fi
action=install
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || { echo "install.sh: --prefix needs a folder" >&2; exit 2; }; prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --uninstall) action=uninstall; shift ;;
    -h|--help) sed -n '2,/^set -eu/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
case "$prefix" in /*) ;; *) prefix="$(pwd)/$prefix" ;; esac

bin="$prefix/bin/airlock"
pywasm="$prefix/lib/airlock/python.wasm" # run_python's runtime, found in ../lib/airlock beside the binary
desktop="$prefix/share/applications/airlock.desktop"
icons="$prefix/share/icons/hicolor"
sizes="16x16 24x24 32x32 48x48 64x64 128x128 256x256 512x512"

refresh() { # let menus and icon themes notice; all optional
  command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$prefix/share/applications" 2>/dev/null || true
  command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$icons/index.theme" ] && gtk-update-icon-cache -q -t "$icons" 2>/dev/null || true
  command -v xdg-desktop-menu >/dev/null 2>&1 && xdg-desktop-menu forceupdate 2>/dev/null || true
}

if [ "$action" = uninstall ]; then
  for f in "$bin" "$pywasm" "$desktop" "$icons/scalable/apps/airlock.svg"; do
    [ -e "$f" ] && rm -f "$f" && echo "removed $f"
  done
  for s in $sizes; do
    f="$icons/$s/apps/airlock.png"
    [ -e "$f" ] && rm -f "$f" && echo "removed $f"
  done
  refresh
  echo "Airlock is uninstalled. Your chats and settings are kept in ${XDG_CONFIG_HOME:-$HOME/.config}/Airlock."
  exit 0
fi

install -d "$prefix/bin" "$prefix/share/applications"
install -m 0755 "$here/airlock" "$bin"
install -d "$(dirname "$pywasm")"
install -m 0644 "$here/python.wasm" "$pywasm"
echo "installed $bin"

for s in $sizes; do
  install -d "$icons/$s/apps"
  install -m 0644 "$here/icons/hicolor/$s/apps/airlock.png" "$icons/$s/apps/airlock.png"
done
install -d "$icons/scalable/apps"
install -m 0644 "$here/icons/hicolor/scalable/apps/airlock.svg" "$icons/scalable/apps/airlock.svg"
echo "installed icons in $icons/{$(echo $sizes | tr ' ' ,),scalable}/apps/"

# The menu entry starts the binary by its full path: ~/.local/bin is not on
# every desktop session's PATH.
sed "s|^Exec=airlock|Exec=$bin|" "$here/airlock.desktop" > "$desktop.tmp"
chmod 0644 "$desktop.tmp" && mv "$desktop.tmp" "$desktop"
echo "installed $desktop (Exec=$bin)"
refresh

# Tell what the system still lacks.
missing=$(LC_ALL=C ldd "$bin" 2>/dev/null | awk '/not found/ {print $1}' | tr '\n' ' ')
if [ -n "$missing" ]; then
  echo
  echo "Airlock is installed, but these libraries are missing: $missing"
  grep -A4 '^# Airlock needs' "$0" | sed 's/^#/ /'
  exit 0
fi
echo
echo "Airlock is installed. Start it from your applications menu, or run: $bin"
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "($prefix/bin is not on your PATH; the menu entry works regardless.)" ;; esac
echo "To remove it: $0 --uninstall${prefix:+ --prefix $prefix}"
