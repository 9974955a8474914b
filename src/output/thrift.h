/*
 * Apache Thrift's compact protocol, the encoding of Parquet's metadata
 * (parquet.c): fields of structs, lists, and the integers and strings in
 * them, appended to a growable byte buffer.
 *
 *	struct tbuf b = { 0 };
 *	struct thrift t;
 *	thrift_init(&t, &b);
 *	thrift_i32(&t, 1, 2);			(field 1: 2)
 *	thrift_struct_begin(&t, 4);		(field 4: a struct)
 *	thrift_binary(&t, 1, "a", 1);
 *	thrift_struct_end(&t);
 *	thrift_stop(&t);			(the outer struct ends)
 */
#ifndef JAXPROF_THRIFT_H
#define JAXPROF_THRIFT_H

#include <stddef.h>
#include <stdint.h>

/* Bytes appended at the end, growing as needed. */
struct tbuf {
	unsigned char	*p;
	size_t		 len;
	size_t		 cap;
};

void	tbuf_put(struct tbuf *b, const void *p, size_t n);
void	tbuf_byte(struct tbuf *b, unsigned char c);
/* Little-endian fixed-width integers, as Parquet's pages store them. */
void	tbuf_le32(struct tbuf *b, uint32_t v);
void	tbuf_le64(struct tbuf *b, uint64_t v);
/* An unsigned LEB128 varint. */
void	tbuf_uvarint(struct tbuf *b, uint64_t v);
void	tbuf_free(struct tbuf *b);

/* The compact protocol's element types (of lists). */
enum thrift_type {
	THRIFT_I32 = 5,
	THRIFT_I64 = 6,
	THRIFT_BINARY = 8,
	THRIFT_STRUCT = 12,
};

#define THRIFT_DEPTH 8

struct thrift {
	struct tbuf	*b;
	int16_t		 last;			/* last field id written */
	int16_t		 saved[THRIFT_DEPTH];	/* the outer structs' */
	int		 depth;
};

void	thrift_init(struct thrift *t, struct tbuf *b);
void	thrift_i32(struct thrift *t, int16_t id, int32_t v);
void	thrift_i64(struct thrift *t, int16_t id, int64_t v);
void	thrift_bool(struct thrift *t, int16_t id, int v);
void	thrift_binary(struct thrift *t, int16_t id, const void *p, size_t n);
/* A struct field; its fields follow, then thrift_struct_end(). */
void	thrift_struct_begin(struct thrift *t, int16_t id);
void	thrift_struct_end(struct thrift *t);
/* A list field of n elements of type; the elements follow. */
void	thrift_list_begin(struct thrift *t, int16_t id, enum thrift_type type,
	    size_t n);
/* Elements of a list: structs (begin, fields, end), i32s, strings. */
void	thrift_elem_struct_begin(struct thrift *t);
void	thrift_elem_i32(struct thrift *t, int32_t v);
void	thrift_elem_binary(struct thrift *t, const void *p, size_t n);
/* The stop byte that ends the outermost struct. */
void	thrift_stop(struct thrift *t);

#endif
