# SPDX-License-Identifier: GPL-2.0-or-later
# funclen.py [--max N] [--all] FILE...: lists the C function definitions
# longer than N lines (default 80), counted as ctags counts them: from the
# line with the function's name to its closing brace. A function may be
# longer when the comment above it gives the reason as "/* long: why */".
# Prints "file:line: name: N lines" (with "(long: why)" for those that say
# why; --all lists every function) and exits 1 when one does not say why.
#
# A brace counter, not a C parser: comments, strings, character constants
# and preprocessor lines are blanked first; a brace at file level after a
# closing parenthesis, with no '=' since the last declaration, opens a
# function body. That is enough for code that clang-format keeps in the
# house style.
import re
import sys

LONG_RE = re.compile(r"/\*.*?\blong:\s*(\S[^*]*?)\s*\*/", re.S)


def blank(text):
    """Returns text with comments, strings, char constants and preprocessor
    lines replaced by blanks (newlines kept, so offsets and lines still
    match), and the comments' spans."""
    out = list(text)
    comments = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#":
            # a preprocessor line, with its continuations
            j = i
            while j < n and text[j] != "\n":
                if text[j] == "\\" and j + 1 < n and text[j + 1] == "\n":
                    j += 2
                    continue
                j += 1
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
            continue
        if c == "\n":
            at_line_start = True
            i += 1
            continue
        if c in " \t":
            i += 1
            continue
        at_line_start = False
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            comments.append((i, j))
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            comments.append((i, j))
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
        else:
            i += 1
            continue
        for k in range(i, j):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out), comments


def functions(text):
    """Yields (name, name_line, end_line, reason) for each function
    definition; reason is the "long:" comment's text or None."""
    code, comments = blank(text)
    depth = 0
    start = 0  # where the current file-level item began
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        if c == "{" and depth == 0:
            head = code[start:i]
            if head.rstrip().endswith(")") and "=" not in head and "(" in head:
                # the name: the identifier before the parameter list, the
                # parenthesis that the head's last one closes
                p = matching(head, len(head.rstrip()) - 1, ")", "(", -1)
                m = re.search(r"([A-Za-z_]\w*)\s*$", head[:p])
                if m:
                    name_at = start + m.start(1)
                    end = matching(code, i, "{", "}", 1)
                    reason = None
                    for a, b in comments:
                        if start <= a < i:
                            r = LONG_RE.search(text[a:b])
                            if r:
                                reason = " ".join(r.group(1).split())
                    yield (m.group(1), text.count("\n", 0, name_at) + 1,
                           text.count("\n", 0, end) + 1, reason)
                    i = end + 1
                    start = i
                    continue
            depth += 1
        elif c == "{":
            depth += 1
        elif c == "}":
            depth = max(depth - 1, 0)
            if depth == 0:
                start = i + 1
        elif c == ";" and depth == 0:
            start = i + 1
        i += 1


def matching(text, i, opening, closing, step):
    """The index of the bracket that matches the one at i, scanning by step
    (1: forwards from an opening one, -1: backwards from a closing one)."""
    depth = 0
    while 0 <= i < len(text):
        if text[i] == opening:
            depth += 1
        elif text[i] == closing:
            depth -= 1
            if depth == 0:
                return i
        i += step
    return 0 if step < 0 else len(text) - 1


def main(argv):
    limit, show_all, files = 80, False, []
    it = iter(argv)
    for a in it:
        if a == "--max":
            limit = int(next(it))
        elif a == "--all":
            show_all = True
        else:
            files.append(a)
    bad = 0
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for name, line, end, reason in functions(text):
            length = end - line + 1
            if length <= limit and not show_all:
                continue
            note = ""
            if length > limit:
                if reason:
                    note = " (long: %s)" % reason
                else:
                    note = " (over %d, no /* long: reason */)" % limit
                    bad += 1
            print("%s:%d: %s: %d lines%s" % (path, line, name, length, note))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
