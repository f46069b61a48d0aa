#!/bin/sh
# tools/bochs-com1's batch mode against a fake Bochs (a TCP server here):
# INPUT is sent only after the first prompt, and the bytes after each
# "@after TEXT" line only once TEXT has been printed after the bytes
# before it were sent; never earlier, and "@after" lines are not typed.
# Two "@after" lines in a row wait for both texts, in either order.
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'one\n@after GO 1\ntwo\nthree\n@after GO 2\nfour\n@after [a] up\n@after [b] up\nfive\n' > "$work/input"
exec python3 - "$here/tools/bochs-com1" "$work" <<'PY'
import socket, subprocess, sys, time
tool, work = sys.argv[1], sys.argv[2]
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
port = srv.getsockname()[1]
p = subprocess.Popen([tool, str(port), work + "/log", work + "/input"])
c, _ = srv.accept()
c.settimeout(0.5)
def got():
    out = b""
    try:
        while True:
            b = c.recv(4096)
            if not b:
                break
            out += b
    except socket.timeout:
        pass
    return out
fail = []
def want(step, out, expect):
    if out != expect:
        fail.append("%s: got %r, want %r" % (step, out, expect))
c.sendall(b"booting\n")
want("before the prompt", got(), b"")
c.sendall(b"hv> ")
want("at the prompt", got(), b"one\n")
c.sendall(b"GO ")            # only part of the text: nothing yet
want("part of the trigger", got(), b"")
c.sendall(b"1 and GO 1\n")   # both stages' triggers? only GO 1 is first
want("first trigger", got(), b"two\nthree\n")
c.sendall(b"GO 1 again\n")
want("a repeated trigger", got(), b"")
c.sendall(b"GO 2\n")
want("second trigger", got(), b"four\n")
c.sendall(b"[b] up\n")       # the second of two texts first: wait on
want("one of two triggers", got(), b"")
c.sendall(b"[a] up\n")
want("both triggers", got(), b"five\n")
c.close()
p.wait(timeout=10)
log = open(work + "/log", "rb").read()
want("log", log, b"booting\nhv> GO 1 and GO 1\nGO 1 again\nGO 2\n[b] up\n[a] up\n")
for f in fail:
    print("FAIL", f)
print("bochs-com1: %d checks failed" % len(fail) if fail else "bochs-com1: PASS")
sys.exit(1 if fail else 0)
PY
