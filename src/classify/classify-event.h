/*
 * The current event: its strings, op tables, categories, costs and
 * copies (classify-event.c).
 */
#ifndef JAXPROF_CLASSIFY_EVENT_H
#define JAXPROF_CLASSIFY_EVENT_H

#include "classify/classify-int.h"
#include "lib/checked.h"

/* The category XLA would give op `name` when no hlo_category is known. */
char		*derive_category(const char *name);


uint32_t	intern(struct classify *c, const char *s, size_t len);
uint32_t	intern_str(struct classify *c, const char *s);
/* The id of an HLO instruction's name, interned once per instruction. */
uint32_t	instr_name_id(struct classify *c, const struct hlo_instr *in);
void		free_module_ids(struct classify *c);
/* Loads the current event's stats for event_stat(). */
void		load_view(struct classify *c, const struct pf_event *ev);
void		free_meta_views(struct classify *c);
/* Interns the event's display name into its metadata's cache slot. */
uint32_t	event_name_intern(struct classify *c, const struct pf_event *ev);

/* The display name of an event as a string id, cached per metadata. */
static inline uint32_t
event_name_id(struct classify *c, const struct pf_event *ev)
{
	uint32_t id = c->meta_memo[ev->meta_index].name;

	return id != NO_ID ? id : event_name_intern(c, ev);
}

struct pf_bytes	last_component(struct pf_bytes s);
int		split_tf_op(const char *name, size_t *name_len);
uint32_t	category_of(struct classify *c, const struct pf_event *ev,
		    uint32_t op, const struct hlo_instr *in);
const struct hlo_module *event_hlo_module(struct classify *c,
		    const struct op_key *k);
const struct hlo_instr *event_hlo_instr(struct classify *c,
		    const struct op_key *k, struct pf_bytes op);
void		op_key_from_event(struct classify *c, uint32_t name,
		    struct op_key *k);
void		event_cost(struct classify *c, uint64_t *flops,
		    int *has_flops, uint64_t *bytes, int *has_bytes);
size_t		op_table_get(struct op_table *t, const struct op_key *k,
		    uint32_t category);
void		op_table_release(struct op_table *t);
/* A new op's framework op, source line and parent, from its first event. */
void		describe_op(struct classify *c, struct op_agg *a);
/* The framework op the current event of op `name` gives (describe_op). */
uint32_t	event_framework_op(struct classify *c, uint32_t name);
/* Room for one more open op. */
void		grow_ops_stack(struct classify *c);

/*
 * One occurrence of op k in candidate table cand (hint: the index + 1 this
 * event's metadata led to last time, or NULL): its sums and its self time,
 * as the ops open around it close.  Kernels, which never nest on a stream,
 * go through add_kernel_occurrence() (classify.c).  Always inlined (the
 * compiler would not): it runs for every op event, and each caller's
 * constants (cand, hint) fold away (bench/RESULTS.md measures the call).
 */
static inline __attribute__((always_inline)) void
add_op_occurrence(struct classify *c, enum candidate cand,
    const struct op_key *k, uint32_t category, int64_t start, int64_t dur,
    uint64_t flops, int has_flops, uint64_t bytes, int has_bytes,
    size_t *hint)
{
	struct op_table *t = &c->cand[cand];
	struct open_op *o;
	struct op_agg *a;
	size_t i;

	if (hint != NULL && *hint != 0 && op_key_eq(&t->keys[*hint - 1], k))
		i = *hint - 1;
	else
		i = op_table_get(t, k, category);
	if (hint != NULL)
		*hint = i + 1;
	a = &t->aggs[i];
	if (a->count == 0) {
		describe_op(c, a);
		a->min_ps = a->max_ps = dur;
	} else if (dur < a->min_ps)
		a->min_ps = dur;
	else if (dur > a->max_ps)
		a->max_ps = dur;
	a->count++;
	a->total_ps = ps_add(a->total_ps, dur);
	a->flops = cost_add(a->flops, flops);
	a->bytes_accessed = cost_add(a->bytes_accessed, bytes);
	a->has_flops |= has_flops;
	a->has_bytes |= has_bytes;
	/* Close the open ops it is not inside: a child lies in its parent. */
	while (c->nops_stack > 0) {
		o = &c->ops_stack[c->nops_stack - 1];
		if (o->start_ps <= start && start + dur <= o->end_ps)
			break;
		close_op(c, o);
		c->nops_stack--;
	}
	if (c->nops_stack > 0)
		c->ops_stack[c->nops_stack - 1].child_ps =
		    ps_add(c->ops_stack[c->nops_stack - 1].child_ps, dur);
	if (c->nops_stack == c->ops_stack_cap)
		grow_ops_stack(c);
	o = &c->ops_stack[c->nops_stack++];
	o->start_ps = start;
	o->end_ps = start + dur;
	o->dur_ps = dur;
	o->child_ps = 0;
	o->agg_index = i;
	o->cand = cand;
}
void		add_transfer(struct classify *c, const struct pf_event *ev,
		    enum transfer_dir dir, int on_host, int64_t bytes,
		    int64_t start, int64_t dur);
/* Adds a span named name to *v (a plane's collectives or annotations). */
void		add_named_span(struct named_span **v, size_t *n, uint32_t name,
		    int64_t start, int64_t dur);
enum busy_class	busy_class_id(struct classify *c, uint32_t category);

#endif
