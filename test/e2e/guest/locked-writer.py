#!/usr/bin/env python3
"""e2e client (boot "replace"): holds a file on the NFS mount open for writing under a POSIX lock for the
whole run, appending CHUNKS chunks of random data one second apart, each flushed to the server (fsync);
the same bytes go to a local copy. Prints "chunk <n> <seconds the write took>" per chunk and "done" at the
end; any I/O error (a lock the client gave up as lost turns every later write into EIO) ends it non-zero.
Usage: locked-writer.py <file on NFS> <local copy> <chunks>"""
import fcntl
import os
import sys
import time

path, local, chunks = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(path, "wb") as f, open(local, "wb") as copy:
    fcntl.lockf(f, fcntl.LOCK_EX)
    for i in range(chunks):
        data = os.urandom(256 * 1024)
        t0 = time.monotonic()
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
        copy.write(data)
        print(f"chunk {i + 1} {time.monotonic() - t0:.1f}", flush=True)
        time.sleep(1)
    fcntl.lockf(f, fcntl.LOCK_UN)
print("done", flush=True)
