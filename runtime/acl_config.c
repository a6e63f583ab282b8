/*
 * runtime/acl_config.c: aclInit's configuration file. CANN reads it with its JSON parser
 * and refuses a file it cannot use before doing anything else; the options it holds (dump,
 * profiling, error-message mode, ...) have no meaning on this CPU, so the file is checked as
 * CANN checks it and its contents are not interpreted.
 *
 * The checks, in CANN's order: the path must resolve (realpath), name a regular file of at
 * most 10 MiB and open for reading (else ACL_ERROR_INVALID_FILE); an empty file is fine;
 * objects or arrays nested more than 10 deep, or text that is not one JSON value (RFC 8259),
 * give ACL_ERROR_PARSE_FILE.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "runtime_internal.h"

#define CONFIG_MAX_BYTES (10L * 1024 * 1024)
#define CONFIG_MAX_DEPTH 10

/* ---- a JSON syntax checker (RFC 8259), no values kept ------------------------------------ */

typedef struct json_reader {
    const unsigned char *at, *end, *start;
    int objects, arrays;      /* open now */
    const char *error;        /* the first problem, NULL while the text is fine */
    size_t error_offset;
} json_reader;

static int json_fail(json_reader *r, const char *why) {
    if (r->error == NULL) {
        r->error = why;
        r->error_offset = (size_t)(r->at - r->start);
    }
    return 0;
}

static void json_skip_space(json_reader *r) {
    while (r->at < r->end && (*r->at == ' ' || *r->at == '\t' || *r->at == '\n' || *r->at == '\r')) r->at++;
}

static int json_literal(json_reader *r, const char *word) {
    size_t length = strlen(word);
    if ((size_t)(r->end - r->at) < length || memcmp(r->at, word, length) != 0)
        return json_fail(r, "an unexpected character (not the start of a JSON value)");
    r->at += length;
    return 1;
}

static int json_digits(json_reader *r) {
    const unsigned char *first = r->at;
    while (r->at < r->end && *r->at >= '0' && *r->at <= '9') r->at++;
    return r->at > first;
}

/* -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static int json_number(json_reader *r) {
    if (*r->at == '-') r->at++;
    if (r->at < r->end && *r->at == '0') {
        r->at++;
    } else if (!json_digits(r)) {
        return json_fail(r, "a number without digits");
    }
    if (r->at < r->end && *r->at == '.') {
        r->at++;
        if (!json_digits(r)) return json_fail(r, "a number with no digit after its decimal point");
    }
    if (r->at < r->end && (*r->at == 'e' || *r->at == 'E')) {
        r->at++;
        if (r->at < r->end && (*r->at == '+' || *r->at == '-')) r->at++;
        if (!json_digits(r)) return json_fail(r, "a number with no digit in its exponent");
    }
    return 1;
}

static int hex_value(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The four hex digits after "\u"; -1 when they are not. */
static long json_hex4(json_reader *r) {
    if (r->end - r->at < 4) return -1;
    long value = 0;
    for (int i = 0; i < 4; i++) {
        int digit = hex_value(r->at[i]);
        if (digit < 0) return -1;
        value = value * 16 + digit;
    }
    r->at += 4;
    return value;
}

/* One UTF-8 sequence starting at r->at (a byte >= 0x80): shortest form, no surrogates,
   at most U+10FFFF, as RFC 8259 section 8.1 asks. */
static int json_utf8(json_reader *r) {
    unsigned char lead = *r->at;
    int extra;
    unsigned long code, least;
    if (lead >= 0xC2 && lead <= 0xDF) { extra = 1; code = lead & 0x1F; least = 0x80; }
    else if (lead >= 0xE0 && lead <= 0xEF) { extra = 2; code = lead & 0x0F; least = 0x800; }
    else if (lead >= 0xF0 && lead <= 0xF4) { extra = 3; code = lead & 0x07; least = 0x10000; }
    else return json_fail(r, "a byte that is not UTF-8 in a string");
    if (r->end - r->at <= extra) return json_fail(r, "a UTF-8 sequence cut short by the end of the file");
    for (int i = 1; i <= extra; i++) {
        if ((r->at[i] & 0xC0) != 0x80) return json_fail(r, "a byte that is not UTF-8 in a string");
        code = (code << 6) | (r->at[i] & 0x3F);
    }
    if (code < least || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
        return json_fail(r, "a byte that is not UTF-8 in a string");
    r->at += extra + 1;
    return 1;
}

static int json_string(json_reader *r) {
    r->at++; /* the opening quote */
    while (r->at < r->end) {
        unsigned char c = *r->at;
        if (c == '"') {
            r->at++;
            return 1;
        }
        if (c < 0x20) return json_fail(r, "a control character inside a string (write it as an escape)");
        if (c >= 0x80) {
            if (!json_utf8(r)) return 0;
            continue;
        }
        r->at++;
        if (c != '\\') continue;
        if (r->at == r->end) break;
        c = *r->at++;
        if (c == 'u') {
            long unit = json_hex4(r);
            if (unit < 0) return json_fail(r, "\\u not followed by four hex digits");
            /* A high surrogate must be followed by its low half; a lone low half is no
               character either (RFC 8259 section 7, with 8.2 on unpaired surrogates). */
            if (unit >= 0xD800 && unit <= 0xDBFF) {
                if (r->end - r->at < 2 || r->at[0] != '\\' || r->at[1] != 'u')
                    return json_fail(r, "an unpaired UTF-16 surrogate escape");
                r->at += 2;
                long low = json_hex4(r);
                if (low < 0xDC00 || low > 0xDFFF) return json_fail(r, "an unpaired UTF-16 surrogate escape");
            } else if (unit >= 0xDC00 && unit <= 0xDFFF) {
                return json_fail(r, "an unpaired UTF-16 surrogate escape");
            }
        } else if (strchr("\"\\/bfnrt", c) == NULL || c == '\0') {
            return json_fail(r, "an escape that JSON does not have");
        }
    }
    return json_fail(r, "a string not closed before the end of the file");
}

static int json_value(json_reader *r);

/* An object or an array, the reader on its opening bracket. */
static int json_container(json_reader *r, int object) {
    int *depth = object ? &r->objects : &r->arrays;
    if (++*depth > CONFIG_MAX_DEPTH)
        return json_fail(r, object ? "objects nested more than 10 deep" : "arrays nested more than 10 deep");
    unsigned char close = object ? '}' : ']';
    r->at++;
    json_skip_space(r);
    if (r->at < r->end && *r->at == close) {
        r->at++;
        --*depth;
        return 1;
    }
    for (;;) {
        if (object) {
            json_skip_space(r);
            if (r->at == r->end || *r->at != '"') return json_fail(r, "an object member whose name is not a string");
            if (!json_string(r)) return 0;
            json_skip_space(r);
            if (r->at == r->end || *r->at != ':') return json_fail(r, "a member name not followed by ':'");
            r->at++;
        }
        if (!json_value(r)) return 0;
        json_skip_space(r);
        if (r->at < r->end && *r->at == ',') {
            r->at++;
            continue;
        }
        if (r->at < r->end && *r->at == close) {
            r->at++;
            --*depth;
            return 1;
        }
        return json_fail(r, object ? "an object member not followed by ',' or '}'"
                                   : "an array element not followed by ',' or ']'");
    }
}

static int json_value(json_reader *r) {
    json_skip_space(r);
    if (r->at == r->end) return json_fail(r, "the text ends where a value is expected");
    switch (*r->at) {
    case '{': return json_container(r, 1);
    case '[': return json_container(r, 0);
    case '"': return json_string(r);
    case 't': return json_literal(r, "true");
    case 'f': return json_literal(r, "false");
    case 'n': return json_literal(r, "null");
    default:
        if (*r->at == '-' || (*r->at >= '0' && *r->at <= '9')) return json_number(r);
        return json_fail(r, "an unexpected character (not the start of a JSON value)");
    }
}

/* NULL when text[0, length) is one JSON value with nothing but whitespace around it; else
   the reason, and *offset the byte where it was found. */
static const char *json_check(const unsigned char *text, size_t length, size_t *offset) {
    json_reader r = {text, text + length, text, 0, 0, NULL, 0};
    /* A UTF-8 byte-order mark: RFC 8259 lets a parser ignore it, and CANN's does. */
    if (length >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF) r.at += 3;
    if (json_value(&r)) {
        json_skip_space(&r);
        if (r.at != r.end) json_fail(&r, "more text after the JSON value");
    }
    *offset = r.error_offset;
    return r.error;
}

/* ---- the file ---------------------------------------------------------------------------- */

aclError rt_config_check(const char *api, const char *path) {
    if (path == NULL || *path == '\0') return ACL_SUCCESS;
    char resolved[PATH_MAX];
    if (realpath(path, resolved) == NULL)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_FILE, "%s: configPath \"%s\" is not a valid path: %s", api, path,
                            strerror(errno));
    struct stat info;
    if (stat(resolved, &info) != 0)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_FILE, "%s: configPath \"%s\" cannot be examined: %s", api, path,
                            strerror(errno));
    if (!S_ISREG(info.st_mode))
        return mgrt_fail_at(api, ACL_ERROR_INVALID_FILE, "%s: configPath \"%s\" is not a regular file", api, path);
    if (info.st_size > CONFIG_MAX_BYTES)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_FILE,
                            "%s: configPath \"%s\" is %lld bytes, more than the 10 MiB a configuration file may have",
                            api, path, (long long)info.st_size);
    FILE *file = fopen(resolved, "rb");
    if (file == NULL)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_FILE, "%s: configPath \"%s\" cannot be opened for reading: %s", api,
                            path, strerror(errno));
    size_t capacity = (size_t)info.st_size;
    /* Plain malloc: outside MISHGRAD_FAULT_ALLOC's count, which starts after aclInit. */
    unsigned char *text = malloc(capacity > 0 ? capacity : 1);
    if (text == NULL) {
        fclose(file);
        return mgrt_fail_at(api, ACL_ERROR_BAD_ALLOC, "%s: out of memory reading configPath \"%s\"", api, path);
    }
    size_t length = fread(text, 1, capacity, file);
    int read_error = ferror(file);
    fclose(file);
    aclError status = ACL_SUCCESS;
    if (read_error) {
        status = mgrt_fail_at(api, ACL_ERROR_INVALID_FILE, "%s: configPath \"%s\" cannot be read", api, path);
    } else if (length > 0) { /* an empty file configures nothing, as in CANN */
        size_t offset = 0;
        const char *why = json_check(text, length, &offset);
        if (why != NULL)
            status = mgrt_fail_at(api, ACL_ERROR_PARSE_FILE,
                                  "%s: configPath \"%s\" is not valid JSON: %s at byte %zu", api, path, why, offset);
    }
    free(text);
    return status;
}
