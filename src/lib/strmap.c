/* String interning with dense ids, for aggregating by name. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/strmap.h"
#include "lib/xmalloc.h"

void
strmap_init(struct strmap *m)
{
	memset(m, 0, sizeof *m);
}

void
strmap_release(struct strmap *m)
{
	free(m->strings);
	free(m->lengths);
	free(m->slots);
	arena_release(&m->copies);
	memset(m, 0, sizeof *m);
}

/* FNV-1a, 64 bits. */
uint64_t
strmap_hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/*
 * The table's own hash, eight bytes a step: names run to hundreds of
 * bytes (TensorFlow scopes, HLO), where FNV's byte a step was most of an
 * intern.  strmap_hash() stays FNV: index paths are named by it.
 */
static uint64_t
slot_hash(const char *s, size_t len)
{
	uint64_t h = len * 0x9e3779b97f4a7c15ULL, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 29;
	}
	if (len > 0) {
		w = 0;
		memcpy(&w, s, len);
		h = (h ^ w) * 0x94d049bb133111ebULL;
	}
	return h ^ (h >> 32);
}

static size_t
find_slot(const struct strmap *m, const char *s, size_t len)
{
	size_t i = (size_t)slot_hash(s, len) & (m->cap - 1);

	while (m->slots[i] != 0) {
		uint32_t id = m->slots[i] - 1;

		if (m->lengths[id] == len && memcmp(m->strings[id], s, len) == 0)
			break;
		i = (i + 1) & (m->cap - 1);
	}
	return i;
}

static void
grow(struct strmap *m)
{
	size_t i;

	free(m->slots);
	m->cap = m->cap == 0 ? 64 : m->cap * 2;
	m->slots = xcalloc(m->cap, sizeof *m->slots);
	for (i = 0; i < m->n; i++)
		m->slots[find_slot(m, m->strings[i], m->lengths[i])] =
		    (uint32_t)i + 1;
}

int64_t
strmap_find(const struct strmap *m, const char *s, size_t len)
{
	size_t i;

	if (m->cap == 0)
		return -1;
	i = find_slot(m, s, len);
	return m->slots[i] == 0 ? -1 : (int64_t)m->slots[i] - 1;
}

uint32_t
strmap_intern(struct strmap *m, const char *s, size_t len)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	i = find_slot(m, s, len);
	if (m->slots[i] != 0)
		return m->slots[i] - 1;
	/* Room for 8, doubled when full: no realloc per new string. */
	if (m->n == 0 || (m->n >= 8 && (m->n & (m->n - 1)) == 0)) {
		size_t room = m->n == 0 ? 8 : m->n * 2;

		m->strings = xreallocarray(m->strings, room, sizeof *m->strings);
		m->lengths = xreallocarray(m->lengths, room, sizeof *m->lengths);
	}
	/* Copies in an arena: no malloc and free per string. */
	m->strings[m->n] = arena_strndup(&m->copies, s, len);
	m->lengths[m->n] = len;
	m->slots[i] = (uint32_t)m->n + 1;
	return (uint32_t)m->n++;
}
