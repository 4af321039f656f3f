/* Indexing a lesson's source: a tokenizer for Lua 5.4 text (names,
 * strings, long strings and comments, brackets) and one pass over the
 * tokens that records table constructors and their fields. The text has
 * already been parsed by Lua, so it is well formed; the pass only has to
 * be right about where constructors and their fields are. */
#include "lx_source.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum tok_kind { TOK_NAME, TOK_STRING, TOK_PUNCT, TOK_OTHER };

struct tok {
    enum tok_kind kind;
    char punct;       /* TOK_PUNCT: one of { } ( ) [ ] , ; = */
    const char *text; /* TOK_NAME: the name; TOK_STRING: the body of a short string */
    size_t len;
    int line;
};

struct field {
    int table; /* the constructor it belongs to */
    const char *key;
    size_t key_len; /* 0 for a listed value */
    size_t pos;     /* listed values: 1-based; 0 for a key */
    int line;
    int child;   /* the constructor its value starts with, or -1 */
    size_t seq;  /* its place in the source, among all fields */
    size_t vtok; /* the token its value starts at */
};

struct table {
    int line;
    const char *kind; /* the name before the brace, or NULL */
    size_t kind_len;
    bool returned;       /* `return kind {` */
    size_t first, n_own; /* its fields: fields[first .. first + n_own), once sorted */
};

struct lx_source {
    struct tok *toks;
    size_t n_toks, cap_toks;
    struct table *tables;
    size_t n_tables, cap_tables;
    struct field *fields;
    size_t n_fields, cap_fields;
    int return_line;
    bool failed;
};

static void *grow(void *p, size_t *cap, size_t n, size_t size, bool *failed)
{
    if (n < *cap)
        return p;
    size_t want = *cap ? *cap * 2 : 64;
    void *q = realloc(p, want * size);
    if (!q) {
        *failed = true;
        return p;
    }
    *cap = want;
    return q;
}

static void add_tok(struct lx_source *s, struct tok t)
{
    s->toks = grow(s->toks, &s->cap_toks, s->n_toks, sizeof *s->toks, &s->failed);
    if (s->n_toks < s->cap_toks)
        s->toks[s->n_toks++] = t;
}

static bool name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           (unsigned char)c >= 0x80;
}

/* At p, "[" "="* "[" opens a long bracket: its level, else -1. */
static int long_open(const char *p, const char *end)
{
    int level = 0;
    if (p >= end || *p != '[')
        return -1;
    for (p++; p < end && *p == '='; p++)
        level++;
    return p < end && *p == '[' ? level : -1;
}

/* Skips a long bracket of `level` starting at p; counts its lines. */
static const char *skip_long(const char *p, const char *end, int level, int *line)
{
    p += level + 2;
    for (; p < end; p++) {
        if (*p == '\n') {
            ++*line;
        } else if (*p == ']') {
            const char *q = p + 1;
            int l = 0;
            while (q < end && *q == '=')
                q++, l++;
            if (l == level && q < end && *q == ']')
                return q + 1;
        }
    }
    return end;
}

static void tokenize(struct lx_source *s, const char *src, size_t len)
{
    const char *p = src, *end = src + len;
    int line = 1;

    if (p < end && *p == '#') /* a first line "#!..." is skipped by Lua too */
        while (p < end && *p != '\n')
            p++;
    while (p < end && !s->failed) {
        char c = *p;
        int level;
        if (c == '\n') {
            line++, p++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            p++;
        } else if (c == '-' && p + 1 < end && p[1] == '-') {
            p += 2;
            if ((level = long_open(p, end)) >= 0)
                p = skip_long(p, end, level, &line);
            else
                while (p < end && *p != '\n')
                    p++;
        } else if ((level = long_open(p, end)) >= 0) {
            int at = line;
            p = skip_long(p, end, level, &line);
            add_tok(s, (struct tok){TOK_STRING, 0, NULL, 0, at});
        } else if (c == '"' || c == '\'') {
            const char *body = ++p;
            int at = line;
            while (p < end && *p != c && *p != '\n') {
                if (*p == '\\' && p + 1 < end) {
                    p++;
                    if (*p == '\n') {
                        line++;
                    } else if (*p == 'z') { /* \z skips the white space after it */
                        while (p + 1 < end &&
                               (p[1] == ' ' || p[1] == '\n' || p[1] == '\t' || p[1] == '\r')) {
                            line += p[1] == '\n';
                            p++;
                        }
                    }
                }
                p++;
            }
            add_tok(s, (struct tok){TOK_STRING, 0, body, (size_t)(p - body), at});
            if (p < end && *p == c)
                p++;
        } else if (name_char(c) && !(c >= '0' && c <= '9')) {
            const char *start = p;
            while (p < end && name_char(*p))
                p++;
            add_tok(s, (struct tok){TOK_NAME, 0, start, (size_t)(p - start), line});
        } else if (c >= '0' && c <= '9') {
            while (p < end && (name_char(*p) || *p == '.'))
                p++;
            add_tok(s, (struct tok){TOK_OTHER, 0, NULL, 0, line});
        } else if (strchr("{}()[],;", c) || (c == '=' && !(p + 1 < end && p[1] == '='))) {
            add_tok(s, (struct tok){TOK_PUNCT, c, NULL, 0, line});
            p++;
        } else {
            /* operators: "==" "~=" "<=" ">=" and the rest stay apart from '=' */
            if ((c == '=' || c == '~' || c == '<' || c == '>') && p + 1 < end && p[1] == '=')
                p++;
            add_tok(s, (struct tok){TOK_OTHER, 0, NULL, 0, line});
            p++;
        }
    }
}

static bool is_name(const struct tok *t, const char *word)
{
    return t->kind == TOK_NAME && t->len == strlen(word) && memcmp(t->text, word, t->len) == 0;
}

static bool is_punct(const struct lx_source *s, size_t i, char c)
{
    return i < s->n_toks && s->toks[i].kind == TOK_PUNCT && s->toks[i].punct == c;
}

static int add_table(struct lx_source *s, size_t brace)
{
    struct table t = {s->toks[brace].line, NULL, 0, false, 0, 0};
    size_t k = brace;
    s->tables = grow(s->tables, &s->cap_tables, s->n_tables, sizeof *s->tables, &s->failed);
    if (s->n_tables >= s->cap_tables)
        return -1;
    if (k > 0 && is_punct(s, k - 1, '('))
        k--;
    if (k > 0 && is_name(&s->toks[k - 1], "return")) {
        t.returned = true;
    } else if (k > 0 && s->toks[k - 1].kind == TOK_NAME) {
        t.kind = s->toks[k - 1].text;
        t.kind_len = s->toks[k - 1].len;
        t.returned = k > 1 && is_name(&s->toks[k - 2], "return");
    }
    s->tables[s->n_tables] = t;
    return (int)s->n_tables++;
}

static int add_field(struct lx_source *s, struct field f)
{
    s->fields = grow(s->fields, &s->cap_fields, s->n_fields, sizeof *s->fields, &s->failed);
    if (s->n_fields >= s->cap_fields)
        return -1;
    f.seq = s->n_fields;
    s->fields[s->n_fields] = f;
    return (int)s->n_fields++;
}

/* What an open bracket or block is, on the pass's stack. */
struct frame {
    char what;     /* '{' '(' '[' or 'b' for a block (function, do, if, repeat) */
    int table;     /* '{': the constructor */
    size_t pos;    /* '{': listed values so far */
    bool at_start; /* '{': the next token starts a field */
    int field;     /* '{': the field being read, or -1 */
    bool value;    /* '{': the next token starts the field's value */
    int pending;   /* '{': a field whose value is `name {`: the next brace is its child */
};

#define MAX_DEPTH 512

static void index_tables(struct lx_source *s)
{
    static const char *const openers[] = {"function", "do", "if", "repeat"};
    struct frame *st = calloc(MAX_DEPTH, sizeof *st);
    int top = 0; /* st[0] is the chunk itself, a block */

    if (!st) {
        s->failed = true;
        return;
    }
    st[0].what = 'b';
    for (size_t i = 0; i < s->n_toks && !s->failed; i++) {
        struct tok *t = &s->toks[i];
        struct frame *f = &st[top];
        if (f->what == '{' && f->at_start && !(t->kind == TOK_PUNCT && t->punct == '}')) {
            struct field fl = {f->table, NULL, 0, 0, t->line, -1, 0, i};
            f->at_start = false;
            if (t->kind == TOK_NAME && is_punct(s, i + 1, '=')) {
                fl.key = t->text, fl.key_len = t->len;
                fl.vtok = i + 2;
                f->field = add_field(s, fl);
                f->value = true;
                i++; /* the '=' */
                continue;
            }
            if (t->kind == TOK_PUNCT && t->punct == '[' && i + 3 < s->n_toks &&
                s->toks[i + 1].kind == TOK_STRING && s->toks[i + 1].text &&
                is_punct(s, i + 2, ']') && is_punct(s, i + 3, '=')) {
                fl.key = s->toks[i + 1].text, fl.key_len = s->toks[i + 1].len;
                fl.vtok = i + 4;
                f->field = add_field(s, fl);
                f->value = true;
                i += 3;
                continue;
            }
            if (t->kind == TOK_PUNCT && t->punct == '[') {
                f->field = -1; /* a computed key: not one the reader asks for */
                f->value = false;
            } else {
                fl.pos = ++f->pos;
                f->field = add_field(s, fl);
                f->value = true;
            }
        }
        if (f->what == '{' && f->value) {
            f->value = false;
            /* `name {` or `name({`: a DSL call whose table is the value */
            if (t->kind == TOK_NAME &&
                (is_punct(s, i + 1, '{') || (is_punct(s, i + 1, '(') && is_punct(s, i + 2, '{'))))
                f->pending = f->field;
            else if (!(t->kind == TOK_PUNCT && t->punct == '{'))
                f->pending = -1;
            else
                f->pending = f->field;
        }
        if (t->kind == TOK_PUNCT) {
            switch (t->punct) {
            case '{': {
                int tb = add_table(s, i);
                /* `return {` inside a function or block returns from it, not
                 * from the chunk: only the chunk's own return marks its table */
                for (int k = 1; tb >= 0 && s->tables[tb].returned && k <= top; k++)
                    if (st[k].what == 'b')
                        s->tables[tb].returned = false;
                /* the field waiting for it: in `name({`, one frame down */
                struct frame *owner =
                    f->what == '(' && top > 0 && is_punct(s, i - 1, '(') ? &st[top - 1] : f;
                if (owner->what == '{' && owner->pending >= 0) {
                    if (tb >= 0)
                        s->fields[owner->pending].child = tb;
                    owner->pending = -1;
                }
                if (top + 1 < MAX_DEPTH) {
                    st[++top] = (struct frame){'{', tb, 0, true, -1, false, -1};
                }
                break;
            }
            case '(':
            case '[':
                if (f->what == '{' && t->punct == '[')
                    f->pending = -1;
                if (top + 1 < MAX_DEPTH)
                    st[++top] = (struct frame){t->punct, -1, 0, false, -1, false, -1};
                break;
            case '}':
            case ')':
            case ']': {
                char open = t->punct == '}' ? '{' : t->punct == ')' ? '(' : '[';
                int k = top;
                while (k > 0 && st[k].what != open)
                    k--;
                if (k > 0)
                    top = k - 1;
                break;
            }
            case ',':
            case ';':
                if (f->what == '{')
                    f->at_start = true;
                break;
            default:
                break;
            }
        } else if (t->kind == TOK_NAME) {
            bool opens = false;
            for (size_t k = 0; k < sizeof openers / sizeof openers[0]; k++)
                opens |= is_name(t, openers[k]);
            if (opens && top + 1 < MAX_DEPTH) {
                st[++top] = (struct frame){'b', -1, 0, false, -1, false, -1};
            } else if (is_name(t, "end") || is_name(t, "until")) {
                int k = top;
                while (k > 0 && st[k].what != 'b')
                    k--;
                if (k > 0)
                    top = k - 1;
            } else if (top == 0 && is_name(t, "return")) {
                s->return_line = t->line;
            }
        }
    }
    free(st);
}

/* The order fields are looked up in: by constructor, its keys (by name)
 * before its listed values (by place), and where a constructor writes one
 * key twice, in source order. */
static int cmp_key(const char *a, size_t na, const char *b, size_t nb)
{
    size_t n = na < nb ? na : nb;
    int d = n ? memcmp(a, b, n) : 0; /* a key of no length may have no text */
    return d ? d : (na > nb) - (na < nb);
}

static int cmp_field(const void *va, const void *vb)
{
    const struct field *a = va, *b = vb;
    int d;
    if (a->table != b->table)
        return a->table < b->table ? -1 : 1;
    if (a->pos != b->pos)
        return a->pos < b->pos ? -1 : 1;
    if (a->pos == 0 && (d = cmp_key(a->key, a->key_len, b->key, b->key_len)) != 0)
        return d;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* Sorts the fields so that each constructor's are a run that a lookup
 * bisects: a list of many thousand values costs its length once, not once
 * a value. */
static void sort_fields(struct lx_source *s)
{
    if (s->n_fields == 0)
        return; /* a source with no constructors has no field array to sort */
    qsort(s->fields, s->n_fields, sizeof *s->fields, cmp_field);
    for (size_t i = s->n_fields; i-- > 0;) {
        int tb = s->fields[i].table;
        if (tb >= 0 && (size_t)tb < s->n_tables) {
            s->tables[tb].first = i;
            s->tables[tb].n_own++;
        }
    }
}

struct lx_source *lx_source_scan(const char *src, size_t len)
{
    struct lx_source *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    tokenize(s, src, len);
    if (!s->failed)
        index_tables(s);
    if (!s->failed)
        sort_fields(s);
    if (s->failed) {
        lx_source_free(s);
        return NULL;
    }
    return s;
}

void lx_source_free(struct lx_source *s)
{
    if (!s)
        return;
    free(s->toks);
    free(s->tables);
    free(s->fields);
    free(s);
}

int lx_source_find(const struct lx_source *s, const char *kind, int line)
{
    size_t kl = kind ? strlen(kind) : 0, from = 0;
    int last = -1;
    if (s && line > 0) {
        /* constructors are recorded in source order, so by line: bisect to
         * the first on `line` (a lesson of 1 MiB holds tens of thousands) */
        size_t lo = 0, hi = s->n_tables;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (s->tables[mid].line < line)
                lo = mid + 1;
            else
                hi = mid;
        }
        from = lo;
    }
    for (size_t i = from; s && i < s->n_tables && !(line > 0 && s->tables[i].line > line); i++) {
        const struct table *t = &s->tables[i];
        if (kind && (!t->kind || t->kind_len != kl || memcmp(t->kind, kind, kl) != 0))
            continue;
        if (!kind && !t->returned)
            continue;
        if (line > 0 && t->line == line)
            return (int)i;
        if (line <= 0 && t->returned)
            return (int)i;
        last = (int)i;
    }
    return line > 0 ? -1 : last;
}

int lx_source_line(const struct lx_source *s, int table)
{
    return s && table >= 0 && (size_t)table < s->n_tables ? s->tables[table].line : 0;
}

/* The constructor's field by key (or place): its index in s->fields, or -1. */
static long field_at(const struct lx_source *s, int table, const char *key, size_t pos);

static int field_line(const struct lx_source *s, int table, const char *key, size_t pos, int *child)
{
    long at = field_at(s, table, key, pos);
    if (child)
        *child = at < 0 ? -1 : s->fields[at].child;
    return at < 0 ? 0 : s->fields[at].line;
}

static long field_at(const struct lx_source *s, int table, const char *key, size_t pos)
{
    struct field want = {table, key, key ? strlen(key) : 0, key ? 0 : pos, 0, -1, 0, 0};
    bool pos_only = key == NULL;
    size_t lo, hi;

    if (!s || table < 0 || (size_t)table >= s->n_tables)
        return -1;
    /* the first of the constructor's fields not before `want` (seq 0 sorts
     * it ahead of every field of that name or place) */
    lo = s->tables[table].first;
    hi = lo + s->tables[table].n_own;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_field(&s->fields[mid], &want) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == s->tables[table].first + s->tables[table].n_own || s->fields[lo].pos != want.pos ||
        (!pos_only && cmp_key(s->fields[lo].key, s->fields[lo].key_len, key, want.key_len) != 0))
        return -1;
    return (long)lo;
}

int lx_source_key(const struct lx_source *s, int table, const char *key, int *child)
{
    return field_line(s, table, key, 0, child);
}

int lx_source_item(const struct lx_source *s, int table, size_t pos, int *child)
{
    return pos ? field_line(s, table, NULL, pos, child) : 0;
}

int lx_source_return_line(const struct lx_source *s)
{
    return s ? s->return_line : 0;
}

bool lx_source_literal(const struct lx_source *s, int table, const char *key, char *out, size_t cap)
{
    long at = field_at(s, table, key, 0);
    const struct tok *t;
    size_t v;

    if (cap)
        out[0] = '\0';
    if (at < 0)
        return false;
    if ((size_t)at + 1 < s->n_fields && s->fields[at + 1].table == table &&
        s->fields[at + 1].pos == 0 &&
        cmp_key(s->fields[at + 1].key, s->fields[at + 1].key_len, key, strlen(key)) == 0)
        return false; /* written twice: Lua keeps the last, a reader might take the first */
    v = s->fields[at].vtok;
    if (v >= s->n_toks || (t = &s->toks[v])->kind != TOK_STRING || !t->text ||
        memchr(t->text, '\\', t->len) || t->len + 1 > cap ||
        !(v + 1 < s->n_toks &&
          (is_punct(s, v + 1, ',') || is_punct(s, v + 1, ';') || is_punct(s, v + 1, '}'))))
        return false;
    memcpy(out, t->text, t->len);
    out[t->len] = '\0';
    return true;
}

bool lx_source_lesson_id(const struct lx_source *s, char *out, size_t cap)
{
    int t = lx_source_find(s, "lesson", 0);
    if (t < 0)
        t = lx_source_find(s, NULL, 0); /* `return my_lesson { ... }` */
    return lx_source_literal(s, t, "id", out, cap);
}

bool lx_source_lesson_id_is(const struct lx_source *s, const char *id)
{
    char lit[256];
    return lx_source_lesson_id(s, lit, sizeof lit) && strcmp(lit, id) == 0;
}
