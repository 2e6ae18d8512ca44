#!/bin/bash
# Build a UML kernel from Debian's linux-source-6.1 with the MRC KUnit suites
# dropped into the tree, run them, and print KTAP on stdout.
#
# The extracted tree and the UML build directory are cached under
# $MRC_CACHE (default /var/cache/mrc) so reruns are incremental.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${MRC_CACHE:-/var/cache/mrc}
tarball=/usr/src/linux-source-6.1.tar.xz
src=$cache/linux-source-6.1
build=$cache/kunit-build

if [ ! -r "$tarball" ]; then
	echo "run-kunit: $tarball missing (run scripts/setup-deps.sh)" >&2
	exit 2
fi

mkdir -p "$cache"
stamp="$src/.mrc-extracted-$(stat -c %Y "$tarball")"
if [ ! -e "$stamp" ]; then
	echo "run-kunit: extracting $tarball into $cache" >&2
	rm -rf "$src"
	tar -C "$cache" -xJf "$tarball"
	touch "$stamp"
fi

# Hook a driver directory holding our sources into the tree, once.
drv=$src/drivers/mrc_kunit
mkdir -p "$drv"
if ! grep -q mrc_kunit "$src/drivers/Kconfig"; then
	sed -i '$i source "drivers/mrc_kunit/Kconfig"' "$src/drivers/Kconfig"
	echo 'obj-$(CONFIG_MRC_KUNIT_TEST) += mrc_kunit/' >> "$src/drivers/Makefile"
fi
cat > "$drv/Kconfig" <<'KCONFIG'
config MRC_KUNIT_TEST
	bool "KUnit tests for the MRC transport core" if !KUNIT_ALL_TESTS
	depends on KUNIT && NET
	default KUNIT_ALL_TESTS
KCONFIG

# The protocol core (all of kernel/core/, which must build anywhere) and
# its test suites. Copy only when content changed so make's timestamps
# stay useful; what left kernel/core/ leaves the copy too.
sync_file() {
	cmp -s "$1" "$2" 2>/dev/null || cp "$1" "$2"
}
mkdir -p "$drv/tests" "$drv/core"
objs=""
for f in "$top"/kernel/tests/*_test.c; do
	sync_file "$f" "$drv/tests/$(basename "$f")"
	objs="$objs tests/$(basename "${f%.c}").o"
done
for f in "$drv"/core/*.[ch]; do
	[ -e "$top/kernel/core/${f##*/}" ] || rm -f "$f"
done
for f in "$top"/kernel/core/*.[ch]; do
	sync_file "$f" "$drv/core/${f##*/}"
	case $f in *.c) objs="$objs core/$(basename "${f%.c}").o" ;; esac
done
echo "obj-y +=$objs" > "$drv/Makefile.new"
sync_file "$drv/Makefile.new" "$drv/Makefile"

cd "$src"
python3 tools/testing/kunit/kunit.py run \
	--kunitconfig="$here/mrc.kunitconfig" \
	--build_dir="$build" --jobs="$(nproc)" --raw_output=kunit
