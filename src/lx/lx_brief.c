/* A lesson's catalogue entry as text and back, and the content hashes that
 * say when it still holds: see lx_brief.h. The text is one field a line,
 * "key<TAB>value", values escaped (\\, \n, \t), so no lesson text can break
 * the format; decoding refuses anything it did not write. */
#define _POSIX_C_SOURCE 200809L
#include "lx_brief.h"

#include <fcntl.h>
#include <lua.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lx_priv.h"

/* FNV-1a taken 8 bytes at a time (the bytes of each word in memory order,
 * then the tail byte by byte): the file is hashed at every start, and a
 * word a step is eight times fewer multiplications than a byte a step. No
 * adversary is involved (an author changing their own lesson), so FNV's
 * mixing is enough; the hash only has to change when the bytes do. */
struct fnv {
    uint64_t h;
};

#define FNV_PRIME 0x100000001b3ull

/* n a multiple of 8 except in the last call on a stream */
static void fnv(struct fnv *h, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h->h = (h->h ^ w) * FNV_PRIME;
    }
    for (; i < n; i++)
        h->h = (h->h ^ b[i]) * FNV_PRIME;
}

static void fnv_hex(const struct fnv *h, char out[17])
{
    snprintf(out, 17, "%016llx", (unsigned long long)h->h);
}

void lx_hash_bytes(const void *p, size_t n, char out[17])
{
    struct fnv h = {0xcbf29ce484222325ull};
    fnv(&h, p, n);
    fnv_hex(&h, out);
}

/* Feeds the file's bytes to h, in whole buffers (so the words fall where
 * they fall in lx_hash_bytes over the whole file); false when it cannot be
 * read. */
static bool fnv_file(struct fnv *h, const char *path)
{
    char buf[16384];
    struct stat sb;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    bool ok, end = false;

    if (fd < 0)
        return false;
    ok = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size <= (off_t)LX_MAX_FILE;
    while (ok && !end) {
        size_t got = 0;
        while (got < sizeof buf) {
            ssize_t n = read(fd, buf + got, sizeof buf - got);
            if (n < 0) {
                ok = false;
                break;
            }
            if (n == 0) {
                end = true;
                break;
            }
            got += (size_t)n;
        }
        fnv(h, buf, got);
    }
    close(fd);
    return ok;
}

bool lx_file_hash(const char *path, char out[17])
{
    struct fnv h = {0xcbf29ce484222325ull};
    if (!fnv_file(&h, path))
        return false;
    fnv_hex(&h, out);
    return true;
}

bool lx_file_stamp(const char *path, int64_t now, char out[LX_STAMP_CAP], bool *settled)
{
    struct stat sb;

    out[0] = '\0';
    *settled = false;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return false;
    if (snprintf(out, LX_STAMP_CAP, "%lld:%llu:%llu:%lld.%09ld:%lld.%09ld", (long long)sb.st_size,
                 (unsigned long long)sb.st_ino, (unsigned long long)sb.st_dev,
                 (long long)sb.st_mtim.tv_sec, (long)sb.st_mtim.tv_nsec,
                 (long long)sb.st_ctim.tv_sec, (long)sb.st_ctim.tv_nsec) >= LX_STAMP_CAP)
        return false; /* cannot be: 20-digit fields fit */
    /* a change after now, even in the same tick of a coarse file system's
     * clock, gives a later change time than one two seconds before now */
    *settled = (int64_t)sb.st_ctim.tv_sec + 2 < now && (int64_t)sb.st_mtim.tv_sec + 2 < now;
    return true;
}

bool lx_dsl_hash(const struct lx_opts *o, char out[17])
{
    struct fnv h = {0xcbf29ce484222325ull};
    char path[4200];
    const char *slash = o->dsl ? strrchr(o->dsl, '/') : NULL;

    if (!o->dsl || !fnv_file(&h, o->dsl))
        return false;
    /* lx_load reads the glossary beside the DSL */
    snprintf(path, sizeof path, "%.*sglossary.lua", slash ? (int)(slash - o->dsl + 1) : 0, o->dsl);
    {
        /* the glossary's own hash and the Lua release, after the DSL's */
        struct fnv g = {0xcbf29ce484222325ull};
        uint64_t parts[2];
        parts[0] = fnv_file(&g, path) ? g.h : 0;
        g.h = 0xcbf29ce484222325ull;
        fnv(&g, LUA_RELEASE, strlen(LUA_RELEASE));
        parts[1] = g.h;
        fnv(&h, parts, sizeof parts);
    }
    fnv_hex(&h, out);
    return true;
}

bool lx_is_brief(const struct lx_lesson *l)
{
    return l && l->priv && l->priv->brief;
}

/* A growing text. */
struct out {
    char *s;
    size_t n, cap;
    bool failed;
};

static void put(struct out *o, const char *s, size_t n)
{
    if (o->failed)
        return;
    if (o->n + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 1024;
        char *p;
        while (cap < o->n + n + 1)
            cap *= 2;
        if (!(p = realloc(o->s, cap))) {
            o->failed = true;
            return;
        }
        o->s = p;
        o->cap = cap;
    }
    memcpy(o->s + o->n, s, n);
    o->n += n;
    o->s[o->n] = '\0';
}

static void put_escaped(struct out *o, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '\\')
            put(o, "\\\\", 2);
        else if (*s == '\n')
            put(o, "\\n", 2);
        else if (*s == '\t')
            put(o, "\\t", 2);
        else
            put(o, s, 1);
    }
}

static void field(struct out *o, const char *key, const char *value)
{
    if (!value)
        return;
    put(o, key, strlen(key));
    put(o, "\t", 1);
    put_escaped(o, value);
    put(o, "\n", 1);
}

static void count(struct out *o, const char *key, size_t n)
{
    char num[32];
    snprintf(num, sizeof num, "%zu", n);
    field(o, key, num);
}

char *lx_brief_encode(const struct lx_lesson *l)
{
    struct out o = {0};
    field(&o, "id", l->id);
    field(&o, "title", l->title);
    field(&o, "module", l->module);
    field(&o, "module_title", l->module_title);
    field(&o, "concept", l->concept);
    field(&o, "concept_title", l->concept_title);
    for (size_t i = 0; i < l->n_requires; i++)
        field(&o, "require", l->requires[i]);
    for (size_t i = 0; i < l->n_exercises; i++) {
        const struct lx_exercise *e = &l->exercises[i];
        char kind[4] = {(char)('0' + (int)e->kind), '\t', '\0'};
        put(&o, "exercise\t", 9);
        put(&o, kind, 2);
        put_escaped(&o, e->id);
        if (e->measured) {
            put(&o, "\t", 1);
            put_escaped(&o, e->measured);
        }
        put(&o, "\n", 1);
    }
    count(&o, "followups", l->n_followups);
    count(&o, "points", l->n_points);
    if (o.failed || !o.s) {
        free(o.s);
        return NULL;
    }
    return o.s;
}

/* Unescapes s in place up to the end of its value (a tab or the end);
 * *stop is the character it ended at ('\t' or '\0', as the value's own
 * end is overwritten) and *rest what follows. NULL on a bad escape. */
static char *unescape(char *s, char **rest, char *stop)
{
    char *w = s, *r = s;
    for (; *r && *r != '\t'; r++) {
        if (*r != '\\') {
            *w++ = *r;
            continue;
        }
        r++;
        if (*r == '\\')
            *w++ = '\\';
        else if (*r == 'n')
            *w++ = '\n';
        else if (*r == 't')
            *w++ = '\t';
        else
            return NULL;
    }
    *stop = *r;
    *rest = *r ? r + 1 : r;
    *w = '\0';
    return s;
}

static bool number(const char *s, size_t *out)
{
    char *end;
    unsigned long long v;
    if (*s < '0' || *s > '9')
        return false;
    v = strtoull(s, &end, 10);
    if (*end || v > 100000)
        return false;
    *out = (size_t)v;
    return true;
}

struct lx_lesson *lx_brief_decode(const char *path, const char *hash, const char *text)
{
    size_t n_req = 0, n_ex = 0, len = strlen(text), plen = strlen(path);
    struct lx_lesson *l = calloc(1, sizeof *l);
    struct lx_priv *p = calloc(1, sizeof *p);
    char *buf, *line, *next;
    bool ok = true;

    if (!l || !p || strlen(hash) != 16) {
        free(l);
        free(p);
        return NULL;
    }
    l->priv = p;
    p->brief = true;
    for (const char *s = text; (s = strchr(s, '\n')) != NULL; s++) {
        n_req += strncmp(s + 1, "require\t", 8) == 0;
        n_ex += strncmp(s + 1, "exercise\t", 9) == 0;
    }
    n_req += strncmp(text, "require\t", 8) == 0;
    n_ex += strncmp(text, "exercise\t", 9) == 0;
    /* one block: the arrays, the path, then the text unescaped in place */
    p->brief_mem =
        calloc(1, n_req * sizeof(char *) + n_ex * sizeof(struct lx_exercise) + len + plen + 2);
    if (!p->brief_mem) {
        lx_free(l);
        return NULL;
    }
    l->exercises = p->brief_mem;
    l->requires = (const char **)(l->exercises + n_ex);
    buf = (char *)(l->requires + n_req);
    memcpy(buf, path, plen + 1);
    l->path = buf;
    buf += plen + 1;
    memcpy(buf, text, len + 1);
    memcpy(l->hash, hash, 17);
    for (line = buf; ok && *line; line = next) {
        char *key = line, *tab = strchr(line, '\t'), *value, *rest, stop;
        if (!(next = strchr(line, '\n')) || !tab || tab > next) {
            ok = false;
            break;
        }
        *next++ = '\0';
        *tab = '\0';
        if (!(value = unescape(tab + 1, &rest, &stop))) {
            ok = false;
        } else if (strcmp(key, "exercise") == 0) {
            struct lx_exercise *e = &l->exercises[l->n_exercises++];
            char *id;
            /* "K<TAB>id[<TAB>measured]": value is K, the id follows */
            if (stop != '\t' || strlen(value) != 1 || value[0] < '0' ||
                value[0] > '0' + (int)LX_FREETEXT || !(id = unescape(rest, &rest, &stop)) || !*id) {
                ok = false;
                break;
            }
            e->kind = (enum lx_kind)(value[0] - '0');
            e->id = id;
            if (stop == '\t')
                ok = (e->measured = unescape(rest, &rest, &stop)) != NULL && stop == '\0' &&
                     *e->measured;
        } else if (stop) {
            ok = false;
        } else if (strcmp(key, "id") == 0) {
            l->id = value;
        } else if (strcmp(key, "title") == 0) {
            l->title = value;
        } else if (strcmp(key, "module") == 0) {
            l->module = value;
        } else if (strcmp(key, "module_title") == 0) {
            l->module_title = value;
        } else if (strcmp(key, "concept") == 0) {
            l->concept = value;
        } else if (strcmp(key, "concept_title") == 0) {
            l->concept_title = value;
        } else if (strcmp(key, "require") == 0) {
            l->requires[l->n_requires++] = value;
        } else if (strcmp(key, "followups") == 0) {
            ok = number(value, &l->n_followups);
        } else if (strcmp(key, "points") == 0) {
            ok = number(value, &l->n_points);
        } else {
            ok = false;
        }
    }
    if (!ok || !l->id || !l->title || !l->module || !l->concept) {
        lx_free(l);
        return NULL;
    }
    return l;
}
