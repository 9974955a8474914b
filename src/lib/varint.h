/*
 * A protobuf varint of up to 8 bytes decoded from one 8-byte word, with no
 * branch on its length: the reader's hot loop (read-xplane.c), where a
 * byte at a time mispredicts its exit on events' times of 2 to 7 bytes
 * (bench/RESULTS.md).  Three steps join the 7-bit groups: pairs, then
 * fours, then eights.
 */
#ifndef JAXPROF_VARINT_H
#define JAXPROF_VARINT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define VARINT_WORDWISE	1
#endif
/*
 * The varint at p (8 bytes readable there) into *v; its length, or 0 when
 * it is longer than 8 bytes.
 */
static inline size_t
varint_word(const uint8_t *p, uint64_t *v)
{
#ifdef VARINT_WORDWISE
	uint64_t x, stops, mask;

	memcpy(&x, p, 8);
	stops = ~x & 0x8080808080808080ULL;	/* the last byte's top bit */
	if (stops == 0)
		return 0;
	mask = (stops ^ (stops - 1)) & 0x7f7f7f7f7f7f7f7fULL;
	x &= mask;
	x = (x & 0x007f007f007f007fULL) | (x & 0x7f007f007f007f00ULL) >> 1;
	x = (x & 0x00003fff00003fffULL) | (x & 0x3fff00003fff0000ULL) >> 2;
	x = (x & 0x000000000fffffffULL) | (x & 0x0fffffff00000000ULL) >> 4;
	*v = x;
	return (size_t)__builtin_ctzll(stops) / 8 + 1;
#else
	uint64_t x = 0;
	size_t i;

	for (i = 0; i < 8; i++) {
		x |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (p[i] < 0x80) {
			*v = x;
			return i + 1;
		}
	}
	return 0;
#endif
}

/*
 * v as a varint at p (10 bytes writable there); returns the byte after it.
 * Unrolled for the common sizes: an interval's gap takes 1-2 bytes
 * (timeline.c), its length 3-4.
 */
static inline uint8_t *
varint_put(uint8_t *p, uint64_t v)
{
	if (v < 1u << 7) {
		p[0] = (uint8_t)v;
		return p + 1;
	}
	if (v < 1u << 14) {
		p[0] = (uint8_t)(v | 0x80);
		p[1] = (uint8_t)(v >> 7);
		return p + 2;
	}
	if (v < 1u << 21) {
		p[0] = (uint8_t)(v | 0x80);
		p[1] = (uint8_t)(v >> 7 | 0x80);
		p[2] = (uint8_t)(v >> 14);
		return p + 3;
	}
	if (v < 1u << 28) {
		p[0] = (uint8_t)(v | 0x80);
		p[1] = (uint8_t)(v >> 7 | 0x80);
		p[2] = (uint8_t)(v >> 14 | 0x80);
		p[3] = (uint8_t)(v >> 21);
		return p + 4;
	}
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

#endif
