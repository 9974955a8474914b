/*
 * Plain protobufs decoded straight off the wire into protobuf-c's structs,
 * in one pass, every piece from the allocator (an arena: nothing is freed
 * piece by piece; bytes fields are copied too, so that the message
 * outlives data), unknown fields skipped rather than kept.  What it takes
 * it reads as protobuf_c_message_unpack() would; anything it is not sure
 * of (a malformed input, a field given twice, which protobuf-c merges, a
 * type the HLO schema does not use) gives NULL, and the caller asks
 * protobuf-c, whose answer stands.
 *
 *	m = hlo_wire_unpack(&xla__hlo_proto__descriptor, &arena, data, len);
 *	if (m == NULL)
 *		m = protobuf_c_message_unpack(..., &arena, len, data);
 */
#ifndef JAXPROF_HLO_WIRE_H
#define JAXPROF_HLO_WIRE_H

#include <stddef.h>

#include <protobuf-c/protobuf-c.h>

ProtobufCMessage *hlo_wire_unpack(const ProtobufCMessageDescriptor *d,
		    ProtobufCAllocator *a, const void *data, size_t len);

#endif
