#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Reads FILE through Python's buffered I/O with buffering=BUFFER, 4 KiB at a time: the file is
# read in requests of BUFFER bytes (Python's buffer), whatever the 4 KiB of each f.read().
#   archivescope-cli bench FILE --command 'python=python3 examples/python_reader.py {file} {buffer}'
import sys

path, buffer = sys.argv[1], int(sys.argv[2])
total = 0
with open(path, "rb", buffering=buffer) as f:
    while chunk := f.read(4096):
        total += len(chunk)
print(total)
