/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one escaper: text from a trace made visible before it reaches a
 * terminal, a table or a CSV cell.
 *
 * Any process on a traced machine can write trace_marker text, name a task
 * or load a module whose function names end up in a trace, so every such
 * string is hostile. The policy, for every text view:
 *   - '\\' becomes "\\\\", so that a literal "\x1b" differs from ESC;
 *   - C0 controls (0x00-0x1f, TAB and LF included) and DEL become "\xNN";
 *   - a byte that is not part of valid UTF-8 becomes "\xNN" (a lone 0x9b,
 *     the one-byte CSI of 8-bit terminals, is one of them);
 *   - the C1 controls U+0080-U+009F, the bidirectional controls (U+061C,
 *     U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and the line and
 *     paragraph separators U+2028/U+2029 become "\uXXXX";
 *   - everything else is copied.
 * The result is always valid UTF-8 with no control character in it.
 * JSON is not a text view: it keeps the text, made valid UTF-8
 * (views/table.h's ftl_json_add_text), and SVG text goes through libxml2. */
#pragma once

#include <glib.h>
#include <stdio.h>

/* Appends the visible form of s[0..len) to out; len < 0: s is
 * NUL-terminated. s may be NULL when len is 0 or negative (nothing added). */
void ftl_escape_append(GString *out, const char *s, gssize len);

/* Makes the bytes of out from offset from on visible, as if they had been
 * appended with ftl_escape_append(): for text a library renders straight
 * into out. Cheap when nothing needs escaping (no copy). */
void ftl_escape_since(GString *out, gsize from);

/* The visible form of s (len as above) as a new string; free with g_free(). */
char *ftl_escape(const char *s, gssize len);

/* The visible form for documents whose own writer escapes markup (SVG
 * through libxml2): as ftl_escape(), except that bytes that are not valid
 * UTF-8 become U+FFFD. Free with g_free(). */
char *ftl_escape_markup(const char *s, gssize len);

/* Writes the visible form of the NUL-terminated s to out. */
void ftl_escape_fputs(const char *s, FILE *out);

/* TRUE for the code points the policy writes as \uXXXX (C1, bidi and
 * separators): for writers with an escape syntax of their own (JSON). */
gboolean ftl_escape_is_hidden(gunichar u);

/* How many of the n bytes at s need no escaping (printable ASCII but the
 * backslash): the run ftl_escape_append() copies as it is. */
gsize ftl_escape_plain_run(const char *s, gsize n);

/* How many bytes of printable ASCII (0x20-0x7e) s starts with: the bytes
 * a loop over text may skip when it only looks at the others (controls,
 * DEL, multibyte characters, the NUL at the end). */
gsize ftl_escape_plain_len(const char *s);

/* The number of terminal columns the valid UTF-8 text s takes: wide
 * (East Asian) characters count two, combining marks none. For text
 * ftl_escape() made, or the program's own. */
gsize ftl_escape_width(const char *s);

/* The longest prefix of the valid UTF-8 s that fits in cols columns, as a
 * byte length (never cuts a character). */
gsize ftl_escape_fit(const char *s, gsize cols);
/* Where the shortest suffix of the valid UTF-8 s that fits in cols columns
 * starts, as a byte offset (never inside a character). */
gsize ftl_escape_tail(const char *s, gsize cols);
