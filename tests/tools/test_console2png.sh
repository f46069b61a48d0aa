#!/bin/sh
# tools/console2png against hv/shell/screen_ppm.c's own blocks: a small
# host program (built here) prints three pictures the way `screen dump`
# does (a screen of "text" on black, bars, noise), between console lines
# and with an emulator's "[hv] " prefix on a marker; every PNG must hold
# exactly the pixels coded. Then the blocks are damaged 120 ways (bytes
# cut, changed, lines dropped, sizes changed): console2png must say
# "cut short or malformed" (exit 1) or decode a picture of the size the
# marker gives (exit 0), never fail otherwise.
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/gen.c" <<'C'
#include <stdio.h>
#include <stdint.h>
#include "hv/shell/screen_ppm.h"
static void emit(void *arg, const char *s, size_t n)
{
	(void)arg;
	fwrite(s, 1, n, stdout);
}
/* The pixel of picture k at x, y: the same formula as the checker's. */
static uint32_t pixel(int k, uint32_t x, uint32_t y)
{
	if (k == 0)
		return (x / 8 + y / 16) % 5 == 0 && (x * 7 + y * 3) % 4 ? 0xaaaaaa : 0;
	if (k == 1)
		return 0x00ff00u * (x / 40 % 2) + 0x3fu * (x / 40);
	return (x * 2654435761u ^ y * 40503u) & 0xffffffu;
}
int main(void)
{
	static const uint32_t size[3][2] = { { 320, 96 }, { 200, 50 }, { 33, 7 } };
	static const char *const name[3] = { "text", "bars", "noise" };
	uint32_t row[512];
	for (int k = 0; k < 3; k++) {
		struct ppm_out o;
		printf("%sconsole line before %d\n", k == 1 ? "[hv] " : "", k);
		ppm_begin(&o, emit, NULL, name[k], size[k][0], size[k][1]);
		for (uint32_t y = 0; y < size[k][1]; y++) {
			for (uint32_t x = 0; x < size[k][0]; x++)
				row[x] = pixel(k, x, y);
			ppm_pixels(&o, row, size[k][0]);
		}
		ppm_end(&o);
	}
	return 0;
}
C
cc -std=gnu11 -O1 -I"$here" -I"$here/libc-mini/include" -DHOST_BUILD -o "$work/gen" \
	"$work/gen.c" "$here/hv/shell/screen_ppm.c" 2>"$work/cc.err" ||
	{ cat "$work/cc.err"; echo "console2png: FAIL (build)"; exit 1; }
"$work/gen" > "$work/log" || { echo "console2png: FAIL (gen)"; exit 1; }
exec python3 - "$here/tools/console2png" "$work" <<'PY'
import random, struct, subprocess, sys, zlib
tool, work = sys.argv[1], sys.argv[2]
fail = []
def pixel(k, x, y):
    if k == 0:
        return 0xaaaaaa if (x // 8 + y // 16) % 5 == 0 and (x * 7 + y * 3) % 4 else 0
    if k == 1:
        return 0x00ff00 * (x // 40 % 2) + 0x3f * (x // 40)
    return ((x * 2654435761) ^ (y * 40503)) & 0xffffff
def read_png(path):
    d = open(path, "rb").read()
    i, idat, w, h = 8, b"", 0, 0
    while i < len(d):
        n, kind = struct.unpack(">I4s", d[i:i + 8])
        body = d[i + 8:i + 8 + n]
        if kind == b"IHDR":
            w, h = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        i += 12 + n
    raw = zlib.decompress(idat)
    return w, h, b"".join(raw[y * (w * 3 + 1) + 1:(y + 1) * (w * 3 + 1)] for y in range(h))
def run(log, out):
    p = subprocess.run([tool, log, out], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr
rc, out, err = run(work + "/log", work + "/png")
if rc != 0 or err:
    fail.append("clean log: rc %d %s %s" % (rc, out, err))
for k, (name, w, h) in enumerate([("text", 320, 96), ("bars", 200, 50), ("noise", 33, 7)]):
    try:
        pw, ph, pix = read_png("%s/png/%s-%d.png" % (work, name, k + 1))
    except OSError as e:
        fail.append("%s: %s" % (name, e)); continue
    want = b"".join(struct.pack(">I", pixel(k, x, y))[1:] for y in range(h) for x in range(w))
    if (pw, ph) != (w, h) or pix != want:
        fail.append("%s: %dx%d, pixels %s" % (name, pw, ph, "differ" if pix != want else "same"))
log = open(work + "/log").read().splitlines(keepends=True)
rnd = random.Random(29)
for t in range(120):
    lines = list(log)
    i = rnd.randrange(len(lines))
    how = t % 4
    if how == 0:
        lines[i] = lines[i][:rnd.randrange(len(lines[i]) + 1)]
    elif how == 1:
        s = lines[i]
        j = rnd.randrange(max(1, len(s) - 1))
        lines[i] = s[:j] + rnd.choice("A/+=x9-\n ") + s[j + 1:]
    elif how == 2:
        del lines[i]
    else:
        lines = [l.replace("x%d" % rnd.choice((96, 50, 7)), "x%d" % rnd.randrange(100000)) for l in lines]
    open(work + "/bad", "w").write("".join(lines))
    rc, out, err = run(work + "/bad", work + "/badpng")
    if rc not in (0, 1) or err:
        fail.append("damage %d (%d): rc %d: %s" % (t, how, rc, err.strip()[-200:]))
for f in fail[:10]:
    print("FAIL", f)
print("console2png: %d checks failed" % len(fail) if fail else "console2png: PASS")
sys.exit(1 if fail else 0)
PY
