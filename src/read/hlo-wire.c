/* Plain protobufs decoded straight off the wire (hlo-wire.h). */
#include "config.h"

#include <string.h>

#include "read/hlo-wire.h"

/* Longest field key taken here (field numbers below 2^25). */
#define MAX_KEY_BYTES	4
/* protobuf-c reads a length of at most 5 bytes. */
#define MAX_LEN_BYTES	5

enum { WIRE_VARINT = 0, WIRE_64BIT = 1, WIRE_LEN = 2, WIRE_32BIT = 5 };

struct wire {
	const uint8_t	*p, *end;
};

/* A varint of at most max bytes; -1 when longer or cut off. */
static int
take_varint(struct wire *w, size_t max, uint64_t *v)
{
	size_t i;

	if (w->p < w->end && w->p[0] < 0x80) {	/* most keys and values */
		*v = *w->p++;
		return 0;
	}
	*v = 0;
	for (i = 0; i < max && w->p + i < w->end; i++) {
		*v |= (uint64_t)(w->p[i] & 0x7f) << (7 * i);
		if ((w->p[i] & 0x80) == 0) {
			w->p += i + 1;
			return 0;
		}
	}
	return -1;
}

/* The bytes of a length-delimited value into *sub. */
static int
delimited(struct wire *w, struct wire *sub)
{
	uint64_t len;

	if (take_varint(w, MAX_LEN_BYTES, &len) == -1 ||
	    len > (uint64_t)(w->end - w->p))
		return -1;
	sub->p = w->p;
	sub->end = w->p + len;
	w->p += len;
	return 0;
}

static int
skip(struct wire *w, int type)
{
	struct wire sub;
	uint64_t v;

	switch (type) {
	case WIRE_VARINT:
		return take_varint(w, 10, &v);
	case WIRE_64BIT:
	case WIRE_32BIT:
		v = type == WIRE_64BIT ? 8 : 4;
		if ((uint64_t)(w->end - w->p) < v)
			return -1;
		w->p += v;
		return 0;
	case WIRE_LEN:
		return delimited(w, &sub);
	default:
		return -1;	/* groups, or no wire type at all */
	}
}

/*
 * One unpack's state: the allocator, and for the first MAX_TABLES
 * message types met the index + 1 of each field by id (below
 * TABLE_IDS; 0: none).  A message has a field on the wire every few
 * bytes, most not in the schema: searching the descriptor for each was a
 * fifth of the reading.
 */
#define MAX_TABLES	24
#define TABLE_IDS	128

struct reader {
	ProtobufCAllocator *a;
	size_t		 ntables;
	const ProtobufCMessageDescriptor *of[MAX_TABLES];
	uint8_t		 by_id[MAX_TABLES][TABLE_IDS];
};

/* The field table of d, built when first met; NULL past MAX_TABLES. */
static const uint8_t *
field_table(struct reader *r, const ProtobufCMessageDescriptor *d)
{
	size_t i;
	unsigned f;

	for (i = 0; i < r->ntables; i++)
		if (r->of[i] == d)
			return r->by_id[i];
	if (r->ntables == MAX_TABLES || d->n_fields >= UINT8_MAX)
		return NULL;
	r->of[i] = d;
	memset(r->by_id[i], 0, sizeof r->by_id[i]);
	for (f = 0; f < d->n_fields; f++)
		if (d->fields[f].id < TABLE_IDS)
			r->by_id[i][d->fields[f].id] = (uint8_t)(f + 1);
	r->ntables++;
	return r->by_id[i];
}

static const ProtobufCFieldDescriptor *
wire_field_of(const ProtobufCMessageDescriptor *d, const uint8_t *table,
    uint64_t id)
{
	unsigned i;

	if (table != NULL && id < TABLE_IDS)
		return table[id] != 0 ? &d->fields[table[id] - 1] : NULL;
	for (i = 0; i < d->n_fields; i++)
		if (d->fields[i].id == id)
			return &d->fields[i];
	return NULL;
}

/* Room for one more element of a repeated field: doubles at 1, 2, 4... */
static void *
append(ProtobufCAllocator *a, void *msg, const ProtobufCFieldDescriptor *f,
    size_t size)
{
	size_t *n = (size_t *)((char *)msg + f->quantifier_offset);
	char **arr = (char **)((char *)msg + f->offset);

	if ((*n & (*n - 1)) == 0) {
		char *grown = a->alloc(a->allocator_data,
		    (*n == 0 ? 1 : *n * 2) * size);

		if (*n > 0)
			memcpy(grown, *arr, *n * size);
		*arr = grown;
	}
	return *arr + (*n)++ * size;
}

static void *decode(const ProtobufCMessageDescriptor *d, struct reader *r,
    struct wire w);

/* One value of field f (of wire type type) into *out; -1 in doubt. */
static int
wire_value(const ProtobufCFieldDescriptor *f, struct reader *r, int type,
    struct wire *w, void *out)
{
	ProtobufCAllocator *a = r->a;
	const uint8_t *start = w->p;
	struct wire sub;
	uint64_t v;
	char *s;

	switch (f->type) {
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_BOOL:
		if (type != WIRE_VARINT || take_varint(w, 10, &v) == -1)
			return -1;
		/* Bits past 64 or 32 are dropped, as protobuf-c drops them. */
		if (f->type == PROTOBUF_C_TYPE_INT64)
			*(int64_t *)out = (int64_t)v;
		else if (f->type == PROTOBUF_C_TYPE_INT32)
			*(int32_t *)out = (int32_t)(uint32_t)v;
		else if (v > 1 || w->p - start != 1)
			return -1;	/* protobuf-c's reading of odd ones */
		else
			*(protobuf_c_boolean *)out = (protobuf_c_boolean)v;
		return 0;
	case PROTOBUF_C_TYPE_STRING:
		if (type != WIRE_LEN || delimited(w, &sub) == -1)
			return -1;
		s = a->alloc(a->allocator_data, (size_t)(sub.end - sub.p) + 1);
		memcpy(s, sub.p, (size_t)(sub.end - sub.p));
		s[sub.end - sub.p] = '\0';
		*(char **)out = s;
		return 0;
	case PROTOBUF_C_TYPE_BYTES:
		/* Copied: the message may outlive the input (hlo-wire.h). */
		if (type != WIRE_LEN || delimited(w, &sub) == -1)
			return -1;
		((ProtobufCBinaryData *)out)->len = (size_t)(sub.end - sub.p);
		((ProtobufCBinaryData *)out)->data = a->alloc(a->allocator_data,
		    (size_t)(sub.end - sub.p) + 1);
		memcpy(((ProtobufCBinaryData *)out)->data, sub.p,
		    (size_t)(sub.end - sub.p));
		return 0;
	case PROTOBUF_C_TYPE_MESSAGE:
		if (type != WIRE_LEN || delimited(w, &sub) == -1)
			return -1;
		*(void **)out = decode(f->descriptor, r, sub);
		return *(void **)out == NULL ? -1 : 0;
	default:
		return -1;	/* a type this schema does not use */
	}
}

/* The varints of a packed repeated field. */
static int
packed(const ProtobufCFieldDescriptor *f, struct reader *r, void *msg,
    struct wire *w)
{
	struct wire sub;
	size_t size = f->type == PROTOBUF_C_TYPE_INT64 ? sizeof(int64_t) :
	    f->type == PROTOBUF_C_TYPE_INT32 ? sizeof(int32_t) : 0;

	if (size == 0 || delimited(w, &sub) == -1)
		return -1;
	while (sub.p < sub.end)
		if (wire_value(f, r, WIRE_VARINT, &sub,
		    append(r->a, msg, f, size)) == -1)
			return -1;
	return 0;
}

static size_t
element_size(ProtobufCType type)
{
	switch (type) {
	case PROTOBUF_C_TYPE_INT64:
		return sizeof(int64_t);
	case PROTOBUF_C_TYPE_INT32:
		return sizeof(int32_t);
	case PROTOBUF_C_TYPE_BOOL:
		return sizeof(protobuf_c_boolean);
	case PROTOBUF_C_TYPE_BYTES:
		return sizeof(ProtobufCBinaryData);
	default:
		return sizeof(void *);	/* strings and messages */
	}
}

static void *
decode(const ProtobufCMessageDescriptor *d, struct reader *r, struct wire w)
{
	void *msg = r->a->alloc(r->a->allocator_data, d->sizeof_message);
	const uint8_t *table = field_table(r, d);
	uint64_t seen = 0;

	d->message_init(msg);
	while (w.p < w.end) {
		const ProtobufCFieldDescriptor *f;
		uint64_t key;
		int type;

		if (take_varint(&w, MAX_KEY_BYTES, &key) == -1 || key >> 3 == 0)
			return NULL;
		type = (int)(key & 7);
		if ((f = wire_field_of(d, table, key >> 3)) == NULL) {
			if (skip(&w, type) == -1)
				return NULL;
			continue;
		}
		if (f->label == PROTOBUF_C_LABEL_REPEATED) {
			if (type == WIRE_LEN && f->type != PROTOBUF_C_TYPE_STRING &&
			    f->type != PROTOBUF_C_TYPE_MESSAGE) {
				if (packed(f, r, msg, &w) == -1)
					return NULL;
			} else if (wire_value(f, r, type, &w, append(r->a, msg,
			    f, element_size(f->type))) == -1)
				return NULL;
			continue;
		}
		/* Twice: protobuf-c merges or overwrites; it decides. */
		if (f->label != PROTOBUF_C_LABEL_NONE ||
		    (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) != 0 ||
		    f - d->fields >= 64 ||
		    (seen & (1ULL << (f - d->fields))) != 0)
			return NULL;
		seen |= 1ULL << (f - d->fields);
		if (wire_value(f, r, type, &w, (char *)msg + f->offset) == -1)
			return NULL;
	}
	return msg;
}

ProtobufCMessage *
hlo_wire_unpack(const ProtobufCMessageDescriptor *d, ProtobufCAllocator *a,
    const void *data, size_t len)
{
	struct wire w = { data, (const uint8_t *)data + len };
	struct reader r;

	r.a = a;
	r.ntables = 0;
	return decode(d, &r, w);
}
