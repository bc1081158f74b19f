#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# inert.py [--json] FILE...: checks that what ftlens printed cannot drive a
# terminal: valid UTF-8, no C0 control but LF and TAB, no DEL, no C1 control,
# no bidi or invisible format character (util/escape.h's policy); with --json
# (or for a FILE named *.json) a non-empty file must also parse as JSON. Prints each violation as
# FILE: offset N: what, and exits 1 when there was one.
import json
import sys
import unicodedata

# bidi embeddings/overrides/isolates and marks, and the separators that
# break a line where a reader does not expect it
HIDDEN = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) | {
    0x200E, 0x200F, 0x061C, 0x2028, 0x2029}


def problems(data, want_json):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        yield e.start, "invalid UTF-8"
        return
    for i, ch in enumerate(text):
        u = ord(ch)
        if 0x20 <= u < 0x7F or ch in "\n\t":
            continue
        if u < 0x20 or u == 0x7F:
            yield i, "raw control U+%04X" % u
        elif 0x80 <= u <= 0x9F:
            yield i, "raw C1 control U+%04X" % u
        elif u in HIDDEN or unicodedata.category(ch) == "Cf":
            yield i, "raw format character U+%04X" % u
    if want_json and text.strip():
        try:
            json.loads(text)
        except ValueError as e:
            yield 0, "invalid JSON: %s" % e


def main(argv):
    want_json = "--json" in argv
    bad = 0
    for path in (a for a in argv if a != "--json"):
        with open(path, "rb") as f:
            data = f.read()
        for at, what in problems(data, want_json or path.endswith(".json")):
            print("%s: offset %d: %s" % (path, at, what))
            bad += 1
            if bad > 20:
                return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
