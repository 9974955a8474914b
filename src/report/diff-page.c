/* diff's page: before and after, for a pull request (diff-page.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/diff-page.h"
#include "report/html-page.h"
#include "report/op-what.h"
#include "output/output.h"
#include "lib/units.h"
#include "lib/xmalloc.h"

#define BASE_COLOUR	"#bab0ac"
#define NEW_COLOUR	"#4e79a7"
#define WORSE_COLOUR	"#e15759"

/* The bars' room: a label above, two bars and their figures under it. */
#define BAR_X		0.0
#define BAR_PX		760.0	/* the chart's largest value */
#define ROW_PX		52

/* What got slower or is new, of one kind: a framework op or a line. */
struct kind {
	char	*name;
	double	 base, new;	/* per d->per, picoseconds */
	size_t	 slower, added;	/* ops of each */
};

struct kinds {
	struct kind	*v;
	size_t		 n;
};

/* "+4.56%", or "new" when there was nothing before. */
static void
change(FILE *fp, double base, double new)
{
	char num[48];

	if (base <= 0) {
		fputs(new > 0 ? "new" : "+0.00%", fp);
		return;
	}
	fmt_fixed(num, sizeof num, (new / base - 1) * 100, 2);
	fprintf(fp, "%s%s%%", num[0] == '-' ? "" : "+", num);
}

/*
 * One bar of a row: the side's value at the chart's scale, its figure
 * after it.  bytes: a memory figure, else a duration.
 */
static void
bar(FILE *fp, const char *side, double v, double scale, double y,
    const char *colour, int bytes)
{
	double w = v * scale;
	char b[40];

	fprintf(fp, "<rect class=\"%s\" x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" "
	    "height=\"13\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.0f\">%s ",
	    side, BAR_X, y, w, colour, BAR_X + w + 6, y + 11, side);
	if (bytes) {
		fmt_bytes(b, sizeof b, (int64_t)v);
		fputs(b, fp);
	} else
		html_dur(fp, v);
	fputs("</text>", fp);
}

/* A chart's svg element: data-scale-px is the px of one unit (us, B). */
static void
chart_open(FILE *fp, const char *id, size_t rows, double scale, int bytes)
{
	fprintf(fp, "<svg id=\"%s\" data-chart=\"%s\" data-scale-px=\"%g\" "
	    "width=\"1000\" height=\"%zu\" viewBox=\"0 0 1000 %zu\">", id, id,
	    bytes ? scale : scale * 1e6, rows * ROW_PX + 4,
	    rows * ROW_PX + 4);
}

/* A row's label, whole above its bars: a name says nothing cut. */
static void
row_label(FILE *fp, double y, const char *name, double base, double new)
{
	fprintf(fp, "<text x=\"%.1f\" y=\"%.0f\">", BAR_X, y + 13);
	html_text(fp, name);
	fputs(" · ", fp);
	change(fp, base, new);
	fputs("</text>", fp);
}

static void
steps_chart(const struct diff_page *d, FILE *fp)
{
	size_t na, nb, i;
	double v[2][2], hi = 0, scale;
	static const char *const what[2] = { "median step", "p90 step" };

	v[0][0] = summary_step_percentile(d->base, d->skip, 50, &na);
	v[0][1] = summary_step_percentile(d->new, d->skip, 50, &nb);
	v[1][0] = summary_step_percentile(d->base, d->skip, 90, &na);
	v[1][1] = summary_step_percentile(d->new, d->skip, 90, &nb);
	fprintf(fp, "<h2>Step time</h2>\n<p>%zu steps before, %zu after",
	    na, nb);
	if (d->skip > 0)
		fprintf(fp, " (each device's first %zu left out)", d->skip);
	fputs(".</p>\n", fp);
	if (na == 0 && nb == 0) {
		fputs("<p id=\"steps\" data-chart=\"steps\">No steps on either "
		    "side.</p>\n", fp);
		return;
	}
	for (i = 0; i < 4; i++)
		if (v[i / 2][i % 2] > hi)
			hi = v[i / 2][i % 2];
	scale = hi > 0 ? BAR_PX / hi : 0;
	chart_open(fp, "steps", 2, scale, 0);
	for (i = 0; i < 2; i++) {
		double y = (double)(i * ROW_PX);

		fprintf(fp, "<g class=\"row\" data-name=\"%s\" data-base-us=\"",
		    what[i]);
		html_us(fp, v[i][0]);
		fputs("\" data-new-us=\"", fp);
		html_us(fp, v[i][1]);
		fputs("\">", fp);
		row_label(fp, y, what[i], v[i][0], v[i][1]);
		bar(fp, "before", v[i][0], scale, y + 18, BASE_COLOUR, 0);
		bar(fp, "after", v[i][1], scale, y + 34, v[i][1] > v[i][0] ?
		    WORSE_COLOUR : NEW_COLOUR, 0);
		fputs("</g>", fp);
	}
	fputs("</svg>\n", fp);
}

/* Whether the pair is slower beyond diff's "same" (DIFF_SAME_PCT). */
static int
slower(const struct diff_pair *p)
{
	return p->base != NULL && p->new != NULL &&
	    p->new_value > p->base_value * (1 + DIFF_SAME_PCT / 100);
}

/* by_source: the op's source line, else its framework op (op_what()). */
static char *
kind_name(const struct op_row *r, int by_source)
{
	char *name;

	if (by_source)
		name = xstrdup(r->source != NULL ? r->source : "");
	else
		name = op_what(r->framework_op, NULL);
	if (name[0] == '\0') {
		free(name);
		name = xstrdup(r->name);
	}
	return name;
}

static int
cmp_kind(const void *a, const void *b)
{
	const struct kind *x = a, *y = b;
	double dx = x->new - x->base, dy = y->new - y->base;

	return dx < dy ? 1 : dx > dy ? -1 : strcmp(x->name, y->name);
}

/* The slower and the new ops, grouped by framework op or source line. */
static void
kinds_load(struct kinds *k, const struct diff_page *d, int by_source)
{
	size_t i, j;

	k->v = NULL;
	k->n = 0;
	for (i = 0; i < d->npairs; i++) {
		const struct diff_pair *p = &d->pairs[i];
		int added = p->match == MATCH_ADDED;
		char *name;

		if (!added && !slower(p))
			continue;
		name = kind_name(p->new, by_source);
		for (j = 0; j < k->n && strcmp(k->v[j].name, name) != 0; j++)
			;
		if (j == k->n) {
			k->v = xreallocarray(k->v, k->n + 1, sizeof *k->v);
			memset(&k->v[k->n++], 0, sizeof *k->v);
			k->v[j].name = name;
		} else
			free(name);
		k->v[j].base += p->base_value;
		k->v[j].new += p->new_value;
		k->v[j].slower += !added;
		k->v[j].added += added;
	}
	if (k->n > 0)	/* none: k->v is NULL, which qsort() may not take */
		qsort(k->v, k->n, sizeof *k->v, cmp_kind);
}

static void
kinds_free(struct kinds *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		free(k->v[i].name);
	free(k->v);
}

static void
kinds_chart(const struct kinds *k, const char *id, const char *title, double scale, FILE *fp)
{
	size_t i, n = k->n < DIFF_PAGE_KINDS ? k->n : DIFF_PAGE_KINDS;

	fprintf(fp, "<h2>%s</h2>\n", title);
	if (n == 0) {
		fprintf(fp, "<p id=\"%s\" data-chart=\"%s\" data-kinds=\"0\">"
		    "Nothing got slower, nothing is new.</p>\n", id, id);
		return;
	}
	chart_open(fp, id, n, scale, 0);
	for (i = 0; i < n; i++) {
		const struct kind *x = &k->v[i];
		double y = (double)(i * ROW_PX);

		fputs("<g class=\"row\" data-name=\"", fp);
		html_text(fp, x->name);
		fputs("\" data-base-us=\"", fp);
		html_us(fp, x->base);
		fputs("\" data-new-us=\"", fp);
		html_us(fp, x->new);
		fprintf(fp, "\" data-slower=\"%zu\" data-added=\"%zu\">",
		    x->slower, x->added);
		row_label(fp, y, x->name, x->base, x->new);
		bar(fp, "before", x->base, scale, y + 18, BASE_COLOUR, 0);
		bar(fp, "after", x->new, scale, y + 34, WORSE_COLOUR, 0);
		fputs("</g>", fp);
	}
	fputs("</svg>\n", fp);
	if (k->n > n)
		fprintf(fp, "<p class=\"muted\">And %zu more; <code>jaxprof "
		    "diff --format=csv -n 0</code> lists every op.</p>\n",
		    k->n - n);
}

/* The largest value of the first DIFF_PAGE_KINDS kinds. */
static double
kinds_max(const struct kinds *k)
{
	double hi = 0;
	size_t i;

	for (i = 0; i < k->n && i < DIFF_PAGE_KINDS; i++) {
		if (k->v[i].base > hi)
			hi = k->v[i].base;
		if (k->v[i].new > hi)
			hi = k->v[i].new;
	}
	return hi;
}

/* " Most added by source line: `x` (+1.2 ms per step, new)." */
static void
most_added(FILE *fp, const char *by, const struct kinds *k, const char *per)
{
	char *text;

	if (k->n == 0)
		return;
	text = xasprintf(" Most added %s: " OUT_CODE "%s" OUT_END_CODE, by,
	    k->v[0].name);
	html_text(fp, text);
	free(text);
	fputs(" (+", fp);
	html_dur(fp, k->v[0].new - k->v[0].base);
	fprintf(fp, " per %s, %s).", per, k->v[0].slower == 0 ? "new" :
	    "slower");
}

/*
 * The headline: the median step before and after, the ops' device time
 * (a step can slow with no op slower: launches, the host), and what the
 * change added most to, by line and by framework op.
 */
static void
headline(const struct diff_page *d, const struct kinds *fw,
    const struct kinds *src, FILE *fp)
{
	size_t na, nb, i;
	double a = summary_step_percentile(d->base, d->skip, 50, &na);
	double b = summary_step_percentile(d->new, d->skip, 50, &nb);
	double ta = 0, tb = 0;

	for (i = 0; i < d->npairs; i++) {
		ta += d->pairs[i].base_value;
		tb += d->pairs[i].new_value;
	}
	fputs("<p class=\"verdict\" id=\"headline\" data-base-us=\"", fp);
	html_us(fp, ta);
	fputs("\" data-new-us=\"", fp);
	html_us(fp, tb);
	fputs("\">", fp);
	if (na > 0 && nb > 0) {
		fputs("<b>Median step:</b> ", fp);
		html_dur(fp, a);
		fputs(" → ", fp);
		html_dur(fp, b);
		fputs(" (", fp);
		change(fp, a, b);
		fputs("). ", fp);
	}
	fprintf(fp, "Device time of the ops per %s: ", d->per);
	html_dur(fp, ta);
	fputs(" → ", fp);
	html_dur(fp, tb);
	fputs(" (", fp);
	change(fp, ta, tb);
	fputs(").", fp);
	most_added(fp, "by source line", src, d->per);
	most_added(fp, "by framework op", fw, d->per);
	fputs("</p>\n", fp);
}

/* Allocators, and programs whose peak moved: as diff's table says them. */
static int
memory_shown(const struct diff_page *d, const struct memory_peak *m)
{
	const struct memory_peak *a = summary_memory(d->base, m->kind,
	    m->name), *b = summary_memory(d->new, m->kind, m->name);

	return strcmp(m->kind, "program") != 0 || a == NULL || b == NULL ||
	    a->bytes != b->bytes;
}

static void
memory_chart(const struct diff_page *d, FILE *fp)
{
	const struct summary *side[2] = { d->base, d->new };
	const struct memory_peak **rows = NULL;
	double hi = 0, scale;
	size_t k, i, n = 0;

	for (k = 0; k < 2; k++)
		for (i = 0; i < side[k]->nmemory; i++) {
			const struct memory_peak *m = &side[k]->memory[i];

			if ((k == 1 && summary_memory(d->base, m->kind,
			    m->name) != NULL) || !memory_shown(d, m))
				continue;
			rows = xreallocarray(rows, n + 1, sizeof *rows);
			rows[n++] = m;
			if ((double)m->bytes > hi)
				hi = (double)m->bytes;
		}
	for (i = 0; i < n; i++) {
		const struct memory_peak *b = summary_memory(d->new,
		    rows[i]->kind, rows[i]->name);

		if (b != NULL && (double)b->bytes > hi)
			hi = (double)b->bytes;
	}
	fputs("<h2>Memory peaks</h2>\n", fp);
	if (n == 0) {
		fputs("<p id=\"memory\" data-chart=\"memory\">Neither profile "
		    "has memory peaks (allocator events or buffer "
		    "assignments).</p>\n", fp);
		free(rows);
		return;
	}
	scale = hi > 0 ? BAR_PX / hi : 0;
	chart_open(fp, "memory", n, scale, 1);
	for (i = 0; i < n; i++) {
		const struct memory_peak *a = summary_memory(d->base,
		    rows[i]->kind, rows[i]->name);
		const struct memory_peak *b = summary_memory(d->new,
		    rows[i]->kind, rows[i]->name);
		double va = a != NULL ? (double)a->bytes : 0;
		double vb = b != NULL ? (double)b->bytes : 0;
		double y = (double)(i * ROW_PX);
		char *name = xasprintf("%s %s", rows[i]->kind, rows[i]->name);

		fputs("<g class=\"row\" data-kind=\"", fp);
		html_text(fp, rows[i]->kind);
		fputs("\" data-name=\"", fp);
		html_text(fp, rows[i]->name);
		fprintf(fp, "\" data-base-bytes=\"%.0f\" data-new-bytes="
		    "\"%.0f\">", va, vb);
		row_label(fp, y, name, va, vb);
		bar(fp, "before", va, scale, y + 18, BASE_COLOUR, 1);
		bar(fp, "after", vb, scale, y + 34, vb > va ? WORSE_COLOUR :
		    NEW_COLOUR, 1);
		fputs("</g>", fp);
		free(name);
	}
	fputs("</svg>\n", fp);
	free(rows);
}

int
diff_page_write(const struct diff_page *d, FILE *fp)
{
	struct kinds fw, src;
	double hi, scale;

	kinds_load(&fw, d, 0);
	kinds_load(&src, d, 1);
	html_open(fp, "jaxprof diff");
	fputs("<p>Before: ", fp);
	html_text(fp, d->base->label);
	fputs(". After: ", fp);
	html_text(fp, d->new->label);
	fputs(".</p>\n", fp);
	headline(d, &fw, &src, fp);
	steps_chart(d, fp);
	/* Both charts on one scale: the same time draws as long in each. */
	hi = kinds_max(&fw) > kinds_max(&src) ? kinds_max(&fw) :
	    kinds_max(&src);
	scale = hi > 0 ? BAR_PX / hi : 0;
	fprintf(fp, "<p>Ops slower by more than %.0f%% or new, device time "
	    "per %s, before (grey) and after (red), the most added first; "
	    "ops paired as <code>jaxprof diff</code> pairs them.</p>\n",
	    DIFF_SAME_PCT, d->per);
	kinds_chart(&fw, "slower-framework-op", "Slower and new, by "
	    "framework op", scale, fp);
	kinds_chart(&src, "slower-source", "Slower and new, by source "
	    "line", scale, fp);
	memory_chart(d, fp);
	kinds_free(&fw);
	kinds_free(&src);
	return html_close(fp, "diff; every op is in its --format=csv -n 0");
}
