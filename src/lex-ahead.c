/* Tokenizing ahead of the callbacks, in a thread (lex-ahead.h). */
#include "config.h"

#include <sys/types.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lex-ahead.h"
#include "slot-ring.h"
#include "xmalloc.h"

#define NSLOTS	4	/* chunks tokenized but not yet handed, at most */

/*
 * A chunk: its bytes, their tokens, and how the tokenizer ended on it.
 * A token whose text is not in buf (cut by its end, or unescaped) has s
 * NULL: its text is next in text.
 */
struct slot {
	char		*buf;
	ssize_t		 len;		/* as gzr_read() returned */
	char		*cause;		/* with len -1 */
	struct json_tok	*toks;		/* room for chunk + 1 */
	size_t		 ntoks;
	char		*text;		/* token texts not in buf, in order */
	size_t		 ntext, captext;
	int		 failed;	/* the tokenizer failed after toks */
	uint64_t	 fail_at;
	const char	*fail_msg;
};

struct lex_ahead {
	/* The thread's. */
	struct gzr	*z;
	size_t		 chunk;
	struct json_lex	*lx;
	const uint64_t	*lx_at;		/* json_lex_offset_at(lx) */
	struct slot	*fill;		/* the slot being tokenized */
	struct json_tok_sink sink;	/* its tokens */
	uint64_t	 total;		/* bytes read */

	/* Filled by the ring's thread, taken by the caller. */
	struct slot	 slots[NSLOTS];
	struct slot_ring ring;

	/* The caller's. */
	const struct json_lex_cb *cb;
	void		*ctx;
	uint64_t	 at;
	const char	*msg;
};

/* A token's text that is not in the chunk (cut by its end, or unescaped). */
static void __attribute__((noinline))
copy_text(struct slot *sl, struct json_tok *t, const char *s, size_t n)
{
	if (sl->captext - sl->ntext < n) {
		sl->captext = sl->captext * 2 > sl->ntext + n ?
		    sl->captext * 2 : sl->ntext + n + 4096;
		sl->text = xreallocarray(sl->text, sl->captext, 1);
	}
	memcpy(sl->text + sl->ntext, s, n);
	t->s = NULL;
	sl->ntext += n;
}

/*
 * Writes down a token of the slot being filled that json_lex handed to
 * a callback; s[0..n) its text.
 */
static inline int
record(struct lex_ahead *la, int type, const char *s, size_t n)
{
	struct slot *sl = la->fill;
	struct json_tok *t = &la->sink.tok[la->sink.n++];
	uintptr_t off = (uintptr_t)s - (uintptr_t)sl->buf;

	t->at = *la->lx_at;
	t->type = type;
	t->n = n;
	t->s = n == 0 ? sl->buf : s;
	/* Most texts lie in the chunk (no chunk at the end: len 0). */
	if (n != 0 && (off > (size_t)sl->len || n > (size_t)sl->len - off))
		copy_text(sl, t, s, n);
	return 1;
}

/* A token without text. */
static inline int
record_bare(struct lex_ahead *la, int type)
{
	return record(la, type, la->fill->buf, 0);
}

static int
rec_null(void *ctx)
{
	return record_bare(ctx, JT_NULL);
}

static int
rec_boolean(void *ctx, int v)
{
	return record_bare(ctx, v ? JT_TRUE : JT_FALSE);
}

static int
rec_number(void *ctx, const char *s, size_t n)
{
	return record(ctx, JT_NUMBER, s, n);
}

static int
rec_string(void *ctx, const char *s, size_t n)
{
	return record(ctx, JT_STRING, s, n);
}

static int
rec_start_map(void *ctx)
{
	return record_bare(ctx, JT_START_MAP);
}

static int
rec_map_key(void *ctx, const char *s, size_t n)
{
	return record(ctx, JT_MAP_KEY, s, n);
}

static int
rec_end_map(void *ctx)
{
	return record_bare(ctx, JT_END_MAP);
}

static int
rec_start_array(void *ctx)
{
	return record_bare(ctx, JT_START_ARRAY);
}

static int
rec_end_array(void *ctx)
{
	return record_bare(ctx, JT_END_ARRAY);
}

static const struct json_lex_cb recorders = {
	.null = rec_null,
	.boolean = rec_boolean,
	.number = rec_number,
	.string = rec_string,
	.start_map = rec_start_map,
	.map_key = rec_map_key,
	.end_map = rec_end_map,
	.start_array = rec_start_array,
	.end_array = rec_end_array,
};

/*
 * Reads and tokenizes the next chunk into sl, as run_pass() fed the
 * tokenizer: json_lex_finish() at the end of a text that had bytes.
 * Whether there is more to read.
 */
static int
fill_one(void *owner, size_t i)
{
	struct lex_ahead *la = owner;
	struct slot *sl = &la->slots[i];
	int rc;

	sl->ntoks = sl->ntext = 0;
	sl->failed = 0;
	sl->cause = NULL;
	sl->len = gzr_read(la->z, sl->buf, la->chunk, &sl->cause);
	la->fill = sl;
	la->sink.tok = sl->toks;
	la->sink.n = 0;
	if (sl->len > 0) {
		la->total += (uint64_t)sl->len;
		rc = json_lex_feed(la->lx, sl->buf, (size_t)sl->len);
	} else if (sl->len == 0 && la->total > 0)
		rc = json_lex_finish(la->lx);
	else
		return 0;
	sl->ntoks = la->sink.n;
	if (rc == -1) {
		sl->failed = 1;
		sl->fail_at = json_lex_offset(la->lx);
		sl->fail_msg = json_lex_error(la->lx);
		return 0;
	}
	return sl->len > 0;
}

struct lex_ahead *
lex_ahead_start(struct gzr *z, size_t chunk, const struct json_lex_cb *cb,
    void *ctx)
{
	struct lex_ahead *la = xcalloc(1, sizeof *la);
	size_t i;

	la->z = z;
	la->chunk = chunk;
	la->cb = cb;
	la->ctx = ctx;
	la->lx = json_lex_new(&recorders, la);
	la->lx_at = json_lex_offset_at(la->lx);
	json_lex_sink(la->lx, &la->sink);
	/*
	 * Each token a chunk completes has a byte of its own in it, but for
	 * one cut by the chunk before: chunk + 1 tokens at most (and one
	 * when json_lex_finish() ends a number).
	 */
	for (i = 0; i < NSLOTS; i++) {
		la->slots[i].buf = xmalloc(chunk);
		la->slots[i].toks = xreallocarray(NULL, chunk + 1,
		    sizeof *la->slots[i].toks);
	}
	if (slot_ring_start(&la->ring, NSLOTS, fill_one, la) == -1) {
		lex_ahead_stop(la);
		return NULL;
	}
	return la;
}

/* Hands sl's tokens to the callbacks: 0, or -1 when one stopped. */
static int
replay(struct lex_ahead *la, const struct slot *sl)
{
	const struct json_lex_cb *cb = la->cb;
	const char *text = sl->text;
	size_t i;
	int ok = 1;

	for (i = 0; ok && i < sl->ntoks; i++) {
		const struct json_tok *t = &sl->toks[i];
		const char *s = t->s;

		if (s == NULL) {
			s = text;
			text += t->n;
		}
		la->at = t->at;
		switch (t->type) {
		case JT_NULL:
			ok = cb->null(la->ctx);
			break;
		case JT_FALSE:
		case JT_TRUE:
			ok = cb->boolean(la->ctx, t->type == JT_TRUE);
			break;
		case JT_NUMBER:
			ok = cb->number(la->ctx, s, t->n);
			break;
		case JT_STRING:
			ok = cb->string(la->ctx, s, t->n);
			break;
		case JT_START_MAP:
			ok = cb->start_map(la->ctx);
			break;
		case JT_MAP_KEY:
			ok = cb->map_key(la->ctx, s, t->n);
			break;
		case JT_END_MAP:
			ok = cb->end_map(la->ctx);
			break;
		case JT_START_ARRAY:
			ok = cb->start_array(la->ctx);
			break;
		default:
			ok = cb->end_array(la->ctx);
			break;
		}
	}
	if (ok)
		return 0;
	la->msg = NULL;
	return -1;
}

int
lex_ahead_run(struct lex_ahead *la, uint64_t *bytes, char **cause)
{
	uint64_t fed = 0;

	for (;;) {
		struct slot *sl = &la->slots[slot_ring_take(&la->ring)];

		if (sl->len == -1) {
			*cause = sl->cause;
			sl->cause = NULL;
			return -2;
		}
		if (replay(la, sl) == -1)
			return -1;
		if (sl->failed) {
			la->at = sl->fail_at;
			la->msg = sl->fail_msg;
			return -1;
		}
		fed += (uint64_t)sl->len;
		if (sl->len == 0) {
			*bytes = fed;
			return 0;
		}
	}
}

uint64_t
lex_ahead_offset(const struct lex_ahead *la)
{
	return la->at;
}

const char *
lex_ahead_error(const struct lex_ahead *la)
{
	return la->msg;
}

void
lex_ahead_stop(struct lex_ahead *la)
{
	size_t i;

	slot_ring_stop(&la->ring);
	for (i = 0; i < NSLOTS; i++) {
		free(la->slots[i].cause);
		free(la->slots[i].buf);
		free(la->slots[i].toks);
		free(la->slots[i].text);
	}
	json_lex_free(la->lx);
	free(la);
}
