/* The summary page: HTML with inline CSS and SVG (html-page.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html-page.h"
#include "output/output.h"
#include "report/overview.h"
#include "lib/utf8.h"
#include "lib/xmalloc.h"

/* One colour per part, named in the words beside each chart. */
static const char *const part_colour[OV_NPARTS] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#edc948",
	"#76b7b2", "#bab0ac",
};

static const char *const span_colour[] = {
	"#4e79a7", "#59a14f", "#e15759", "#9c755f",
};

void
html_text(FILE *fp, const char *s)
{
	output_prose(fp, FMT_HTML, s);
}

void
html_us(FILE *fp, double ps)
{
	char buf[64];

	fmt_fixed(buf, sizeof buf, ps / 1e6, 3);
	fputs(buf, fp);
}

void
html_pct(FILE *fp, double v)
{
	char buf[64];

	fmt_fixed(buf, sizeof buf, v, 2);
	fputs(buf, fp);
}

void
html_dur(FILE *fp, double ps)
{
	char buf[40];

	fmt_duration(buf, sizeof buf, (int64_t)ps);
	fputs(buf, fp);
}

void
html_open(FILE *fp, const char *title)
{
	fprintf(fp, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
	    "charset=\"utf-8\"><title>%s</title><style>"
	    "body{font:14px/1.4 system-ui,sans-serif;margin:24px;max-width:1100px;"
	    "color:#222}h1{font-size:20px}h2{font-size:16px;margin-top:28px}"
	    ".verdict{font-size:17px;padding:10px 14px;background:#fff4e5;"
	    "border-left:5px solid #e15759}"
	    ".key{margin-right:12px;white-space:nowrap}.key i{display:inline-block;"
	    "width:11px;height:11px;margin-right:4px;vertical-align:middle}"
	    "svg text{font:11px system-ui,sans-serif}table{border-collapse:collapse}"
	    "td,th{padding:2px 8px;text-align:left}td.n{text-align:right}"
	    "code{background:#f3f3f3;padding:0 3px}.muted{color:#777}"
	    "</style></head><body>\n<h1>%s</h1>\n", title, title);
}

int
html_close(FILE *fp, const char *made_by)
{
	fputs("<p class=\"muted\">Made by jaxprof " PACKAGE_VERSION " ", fp);
	html_text(fp, made_by);
	fputs(".</p>\n</body></html>\n", fp);
	return ferror(fp) ? -1 : 0;
}

/* "compute (blue), ...": the key, in the sentence above a chart. */
static void
part_key(FILE *fp)
{
	int k;

	for (k = 0; k < OV_NPARTS; k++)
		fprintf(fp, "<span class=\"key\"><i style=\"background:%s\">"
		    "</i>%s</span>", part_colour[k], ov_part_words[k]);
}

static void
head(const struct overview *ov, FILE *fp)
{
	size_t i;

	html_open(fp, "jaxprof summary");
	fputs("<p>", fp);
	fputs("Runs: ", fp);
	for (i = 0; i < ov->nruns; i++) {
		html_text(fp, ov->runs[i]);
		fputs(i + 1 < ov->nruns ? ", " : "", fp);
	}
	fputs(". Hosts: ", fp);
	for (i = 0; i < ov->nhosts; i++) {
		html_text(fp, ov->hosts[i]);
		fputs(i + 1 < ov->nhosts ? ", " : "", fp);
	}
	fputs(". Devices: ", fp);
	for (i = 0; i < ov->ndevices; i++) {
		html_text(fp, ov->devices[i]);
		fputs(i + 1 < ov->ndevices ? ", " : "", fp);
	}
	if (ov->ndevices == 0)
		fputs(ov->cpu_only ? "none (CPU-only: the host's threads ran "
		    "the ops)" : "none", fp);
	fprintf(fp, ".</p>\n<p id=\"steps-line\" data-steps=\"%zu\" "
	    "data-median-us=\"", ov->nsteps);
	html_us(fp, ov->median_ps);
	fprintf(fp, "\">%zu steps, median ", ov->nsteps);
	html_dur(fp, ov->median_ps);
	fputs(", p90 ", fp);
	html_dur(fp, ov->p90_ps);
	fputs(", max ", fp);
	html_dur(fp, ov->max_ps);
	fprintf(fp, "; %zu left out of median and spread.</p>\n",
	    ov->nsteps - ov->nkept);
	fprintf(fp, "<p class=\"verdict\" id=\"verdict\" data-rule=\"%s\">"
	    "<b>Verdict:</b> ", ov->verdict_rule);
	html_text(fp, ov->verdict);
	fputs(".</p>\n", fp);
}

static void
recommendations(const struct overview *ov, FILE *fp)
{
	size_t i;

	fputs("<h2>What to do</h2>\n<ol id=\"recommendations\">", fp);
	for (i = 0; i < ov->nrecs; i++) {
		char v[64];

		fmt_fixed(v, sizeof v, ov->recs[i].value, 1);
		fprintf(fp, "<li data-rule=\"%s\" data-value=\"%s\">",
		    ov->recs[i].rule, v);
		html_text(fp, ov->recs[i].text);
		fputs("</li>", fp);
	}
	fputs("</ol>\n", fp);
}

/* The step's parts as one stacked bar, labelled where they fit. */
static void
breakdown(const struct overview *ov, FILE *fp)
{
	double x = 0;
	int k;

	fputs("<h2>The step broken down</h2>\n<p>", fp);
	part_key(fp);
	fputs("</p>\n<svg id=\"breakdown\" data-chart=\"breakdown\" "
	    "width=\"1000\" height=\"34\" viewBox=\"0 0 1000 34\">", fp);
	for (k = 0; k < OV_NPARTS; k++) {
		double w = overview_part_pct(ov, (enum ov_part)k) * 10;

		if (w <= 0)
			continue;
		fprintf(fp, "<rect x=\"%.1f\" y=\"0\" width=\"%.1f\" "
		    "height=\"22\" fill=\"%s\" data-part=\"%s\" "
		    "data-percent=\"", x, w, part_colour[k], ov_part_keys[k]);
		html_pct(fp, overview_part_pct(ov, (enum ov_part)k));
		fprintf(fp, "\"><title>%s ", ov_part_words[k]);
		html_pct(fp, overview_part_pct(ov, (enum ov_part)k));
		fputs("%</title></rect>", fp);
		if (w > 60) {
			fprintf(fp, "<text x=\"%.1f\" y=\"15\" fill=\"#fff\">"
			    "%s ", x + 4, ov_part_words[k]);
			html_pct(fp, overview_part_pct(ov, (enum ov_part)k));
			fputs("%</text>", fp);
		}
		x += w;
	}
	fputs("</svg>\n", fp);
}

/*
 * Steps over time: one stacked bar per step of the first device, or per
 * bin of consecutive steps (their mean) beyond HTML_MAX_STEP_BARS.
 */
static void
steps_chart(const struct overview *ov, FILE *fp)
{
	const struct ov_series *se;
	size_t nbars, per, b, i;
	double hi = 0, all = 0, bw;
	int k;

	if (ov->nseries == 0)
		return;
	se = &ov->series[0];
	per = (se->n + HTML_MAX_STEP_BARS - 1) / HTML_MAX_STEP_BARS;
	if (per == 0)
		per = 1;
	nbars = (se->n + per - 1) / per;
	/*
	 * The scale of the kept steps: a compile step 100 times as long
	 * would flatten them.  Longer bars are cut at the top, their
	 * duration written there.
	 */
	for (i = 0; i < se->n; i++)
		if (se->steps[i].skip_why == NULL &&
		    (double)se->steps[i].dur_ps > hi)
			hi = (double)se->steps[i].dur_ps;
	for (i = 0; i < se->n; i++)
		if ((double)se->steps[i].dur_ps > all)
			all = (double)se->steps[i].dur_ps;
	if (hi == 0 || all < 1.5 * hi)
		hi = all;
	else
		hi *= 1.25;
	bw = 960.0 / (double)(nbars > 0 ? nbars : 1);
	fputs("<h2>Steps over time</h2>\n<p>", fp);
	html_text(fp, se->device);
	fprintf(fp, ": each bar a step%s, its height the step's time, "
	    "split as ", per > 1 ? " bin (the mean of consecutive steps)" :
	    "");
	part_key(fp);
	fputs("; hatched: left out of median and spread.</p>\n", fp);
	fprintf(fp, "<svg id=\"steps\" data-chart=\"steps\" data-per-bar="
	    "\"%zu\" width=\"1000\" height=\"240\" viewBox=\"0 0 1000 240\">"
	    "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" "
	    "patternUnits=\"userSpaceOnUse\"><path d=\"M0 6L6 0\" "
	    "stroke=\"#000\" stroke-opacity=\".35\"/></pattern></defs>", per);
	fputs("<text x=\"0\" y=\"30\">", fp);
	html_dur(fp, hi);
	fputs("</text><line x1=\"40\" y1=\"20\" x2=\"1000\" y2=\"20\" "
	    "stroke=\"#ddd\"/><line x1=\"40\" y1=\"220\" x2=\"1000\" y2=\"220\" "
	    "stroke=\"#999\"/>", fp);
	for (b = 0; b < nbars; b++) {
		double parts[OV_NPARTS] = { 0 }, total = 0, y = 220, cut;
		size_t from = b * per, to = from + per < se->n ? from + per :
		    se->n, skipped = 0;

		for (i = from; i < to; i++) {
			for (k = 0; k < OV_NPARTS; k++)
				parts[k] += (double)se->steps[i].part_ps[k];
			total += (double)se->steps[i].dur_ps;
			skipped += se->steps[i].skip_why != NULL;
		}
		for (k = 0; k < OV_NPARTS; k++)
			parts[k] /= (double)(to - from);
		total /= (double)(to - from);
		fprintf(fp, "<g class=\"step\" data-step=\"%lld\" "
		    "data-duration-us=\"", (long long)se->steps[from].step);
		html_us(fp, total);
		fprintf(fp, "\"><title>step %lld%s: ",
		    (long long)se->steps[from].step, per > 1 ? " on" : "");
		html_dur(fp, total);
		if (to - from == 1 && skipped)
			fprintf(fp, " (left out: %s)", se->steps[from].skip_why);
		fputs("</title>", fp);
		cut = total > hi ? hi / total : 1;
		for (k = 0; k < OV_NPARTS; k++) {
			double h = hi > 0 ? parts[k] * cut / hi * 200 : 0;

			if (h <= 0)
				continue;
			y -= h;
			fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			    "height=\"%.1f\" fill=\"%s\" data-part=\"%s\" "
			    "data-us=\"", 40 + (double)b * bw, y,
			    bw > 3 ? bw - 1 : bw, h, part_colour[k],
			    ov_part_keys[k]);
			html_us(fp, parts[k]);
			fputs("\"/>", fp);
		}
		if (skipped == to - from)
			fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			    "height=\"%.1f\" fill=\"url(#hatch)\"/>",
			    40 + (double)b * bw, y, bw > 3 ? bw - 1 : bw,
			    220 - y);
		if (cut < 1) {
			fprintf(fp, "<text x=\"%.1f\" y=\"16\">",
			    42 + (double)b * bw);
			html_dur(fp, total);
			fputs("</text>", fp);
		}
		fputs("</g>", fp);
	}
	fprintf(fp, "<text x=\"40\" y=\"234\">step %lld</text>"
	    "<text x=\"1000\" y=\"234\" text-anchor=\"end\">step %lld</text>"
	    "</svg>\n", (long long)se->steps[0].step,
	    (long long)se->steps[se->n - 1].step);
}

/*
 * Horizontal bars for the ops and the lines, each under its label (whole:
 * a name says nothing cut), all on one scale: BARS_PX is the whole of the
 * device time, in both charts, so 1% draws as 1% wherever it is.
 */
#define BARS_PX		800.0
#define BAR_ROW		34

static void
bars(const char *id, const char *title, const struct ov_item *v, size_t n,
    FILE *fp)
{
	size_t i;

	if (n == 0)
		return;
	fprintf(fp, "<h2>%s</h2>\n<svg id=\"%s\" data-chart=\"%s\" "
	    "data-scale-px=\"%.0f\" width=\"1000\" height=\"%zu\" "
	    "viewBox=\"0 0 1000 %zu\">", title, id, id, BARS_PX,
	    n * BAR_ROW + 4, n * BAR_ROW + 4);
	for (i = 0; i < n; i++) {
		double w = v[i].pct / 100 * BARS_PX;
		double y = (double)(i * BAR_ROW);

		fputs("<g class=\"bar\" data-name=\"", fp);
		html_text(fp, v[i].name);
		fputs("\" data-percent=\"", fp);
		html_pct(fp, v[i].pct);
		fputs("\" data-total-us=\"", fp);
		html_us(fp, (double)v[i].total_ps);
		fprintf(fp, "\"><text x=\"0\" y=\"%.0f\">", y + 13);
		html_text(fp, v[i].name);
		/* custom-call.42 alone tells nothing: what it is, too. */
		if (v[i].what != NULL && v[i].what[0] != '\0') {
			fputs(" · ", fp);
			html_text(fp, v[i].what);
		}
		fprintf(fp, "</text><rect x=\"0\" y=\"%.0f\" width=\"%.1f\" "
		    "height=\"13\" fill=\"#4e79a7\"><title>", y + 17, w);
		html_text(fp, v[i].name);
		if (v[i].detail[0] != '\0') {
			fputs(" ", fp);
			html_text(fp, v[i].detail);
		}
		fputs("</title></rect>", fp);
		fprintf(fp, "<text x=\"%.1f\" y=\"%.0f\">", 6 + w, y + 28);
		html_pct(fp, v[i].pct);
		fputs("% of device time · ", fp);
		html_dur(fp, (double)v[i].total_ps);
		fputs("</text></g>", fp);
	}
	fputs("</svg>\n", fp);
}

/* Compile (host wall time) and execute (device time) per function. */
static void
compile_chart(const struct overview *ov, FILE *fp)
{
	double hi = 0;
	size_t i;

	fputs("<h2>Compile vs execute</h2>\n", fp);
	if (ov->ncompiles == 0) {
		fputs("<p id=\"compile\" data-chart=\"compile\" data-compiles="
		    "\"0\">No compilation in the profile: every program was "
		    "compiled before it.</p>\n", fp);
		return;
	}
	for (i = 0; i < ov->ncompiles; i++) {
		if ((double)ov->compiles[i].total_ps > hi)
			hi = (double)ov->compiles[i].total_ps;
		if ((double)ov->compiles[i].exec_ps > hi)
			hi = (double)ov->compiles[i].exec_ps;
	}
	fprintf(fp, "<p><span class=\"key\"><i style=\"background:#edc948\">"
	    "</i>compile (host)</span><span class=\"key\"><i style=\""
	    "background:#4e79a7\"></i>execute (device)</span></p>\n"
	    "<svg id=\"compile\" data-chart=\"compile\" data-compiles=\"%zu\" "
	    "width=\"1000\" height=\"%zu\" viewBox=\"0 0 1000 %zu\">",
	    ov->ncompiles, ov->ncompiles * 40 + 4, ov->ncompiles * 40 + 4);
	for (i = 0; i < ov->ncompiles; i++) {
		const struct ov_compile *c = &ov->compiles[i];
		double y = (double)i * 40;
		double wc = hi > 0 ? (double)c->total_ps / hi * 560 : 0;
		double we = hi > 0 ? (double)c->exec_ps / hi * 560 : 0;

		fputs("<g class=\"fn\" data-function=\"", fp);
		html_text(fp, c->function);
		fprintf(fp, "\" data-count=\"%lld\" data-compile-us=\"",
		    (long long)c->count);
		html_us(fp, (double)c->total_ps);
		fputs("\" data-execute-us=\"", fp);
		html_us(fp, (double)c->exec_ps);
		fprintf(fp, "\"><text x=\"300\" y=\"%.0f\" text-anchor=\"end\">",
		    y + 22);
		html_text(fp, c->function);
		fprintf(fp, " (%lld×)</text><rect x=\"308\" y=\"%.0f\" "
		    "width=\"%.1f\" height=\"15\" fill=\"#edc948\"/>"
		    "<text x=\"%.1f\" y=\"%.0f\">", (long long)c->count, y + 3,
		    wc, 312 + wc, y + 15);
		html_dur(fp, (double)c->total_ps);
		fprintf(fp, " compile</text><rect x=\"308\" y=\"%.0f\" "
		    "width=\"%.1f\" height=\"15\" fill=\"#4e79a7\"/>"
		    "<text x=\"%.1f\" y=\"%.0f\">", y + 20, we, 312 + we,
		    y + 32);
		html_dur(fp, (double)c->exec_ps);
		fputs(" execute</text></g>", fp);
	}
	fputs("</svg>\n", fp);
}

/* One step's timeline: a row per device line and host thread. */
#define LABEL_CHAR_PX	6.5	/* a character of the 11px labels */

/*
 * A span's name in the picture, inside its bar: whole where it fits,
 * else its head and U+2026; nothing in a bar under four characters.
 */
static void
span_label(FILE *fp, const char *name, double x, double y, double w)
{
	size_t room = (size_t)((w - 4) / LABEL_CHAR_PX), n = utf8_chars(name);
	char *head;

	if (w < 4 + 4 * LABEL_CHAR_PX)
		return;
	fprintf(fp, "<text class=\"label\" x=\"%.1f\" y=\"%.0f\" "
	    "font-size=\"11\" fill=\"#fff\">", x + 2, y + 14);
	if (n <= room)
		html_text(fp, name);
	else {
		head = xstrndup(name, utf8_head(name, room - 1));
		html_text(fp, head);
		fputs("\xe2\x80\xa6", fp);
		free(head);
	}
	fputs("</text>", fp);
}

static void
timeline(const struct overview *ov, FILE *fp)
{
	size_t i, j, nt = ov->ntracks < HTML_MAX_TRACKS ? ov->ntracks :
	    HTML_MAX_TRACKS;
	double scale = ov->tl_dur_ps > 0 ? 760.0 / (double)ov->tl_dur_ps : 0;

	if (nt == 0)
		return;
	fprintf(fp, "<h2>Step %lld on a timeline</h2>\n<p>The step closest "
	    "to the median (", (long long)ov->tl_step);
	html_dur(fp, (double)ov->tl_dur_ps);
	fputs("): <span class=\"key\"><i style=\"background:#4e79a7\"></i>"
	    "programs</span><span class=\"key\"><i style=\"background:#59a14f"
	    "\"></i>copies</span><span class=\"key\"><i style=\"background:"
	    "#e15759\"></i>device idle</span><span class=\"key\"><i style=\""
	    "background:#9c755f\"></i>host events</span>; a bar too narrow "
	    "for its name shows it on hover.</p>\n", fp);
	fprintf(fp, "<svg id=\"timeline\" data-chart=\"timeline\" "
	    "data-step=\"%lld\" data-tracks=\"%zu\" width=\"1000\" "
	    "height=\"%zu\" viewBox=\"0 0 1000 %zu\">", (long long)ov->tl_step,
	    nt, nt * 22 + 20, nt * 22 + 20);
	for (i = 0; i < nt; i++) {
		const struct ov_track *t = &ov->tracks[i];
		double y = (double)i * 22;

		fprintf(fp, "<g class=\"track\" data-spans=\"%zu\" "
		    "data-dropped=\"%zu\"><text x=\"230\" y=\"%.0f\" "
		    "text-anchor=\"end\">", t->n, t->dropped, y + 14);
		html_text(fp, utf8_tail(t->name, 38));
		fputs("</text>", fp);
		for (j = 0; j < t->n; j++) {
			const struct ov_span *s = &t->spans[j];
			double w = (double)s->dur_ps * scale;

			fprintf(fp, "<rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" "
			    "height=\"16\" fill=\"%s\"><title>",
			    236 + (double)s->start_ps * scale, y + 2,
			    w < 0.5 ? 0.5 : w, span_colour[s->kind & 3]);
			html_text(fp, s->name);
			fputc(' ', fp);
			html_dur(fp, (double)s->dur_ps);
			fputs("</title></rect>", fp);
			span_label(fp, s->name, 236 + (double)s->start_ps *
			    scale, y, w);
		}
		fputs("</g>", fp);
	}
	fprintf(fp, "<text x=\"236\" y=\"%zu\">0</text><text x=\"996\" "
	    "y=\"%zu\" text-anchor=\"end\">", nt * 22 + 14, nt * 22 + 14);
	html_dur(fp, (double)ov->tl_dur_ps);
	fputs("</text></svg>\n", fp);
}

/* The plot box of a memory chart, in its viewBox's pixels. */
#define MEM_X0	70.0
#define MEM_X1	990.0
#define MEM_Y0	26.0	/* the most bytes */
#define MEM_Y1	126.0	/* none */

/*
 * One allocator's bytes in use over its file's capture: a step line
 * through the points the index keeps (each holds until the next event),
 * its peak marked and labelled.  The points are pixels of the plot box
 * the data-* attributes give; their numbers are in the JSON report.
 */
static void
memory_chart(const struct overview *ov, const struct ov_memory *m, size_t i,
    FILE *fp)
{
	double hi = (double)m->peak_bytes, span, px, py;
	char b[40];
	size_t j;

	for (j = 0; j < m->npoints; j++)
		if ((double)m->points[j].bytes > hi)
			hi = (double)m->points[j].bytes;
	/* Against its capacity: how full the device is, not only the shape. */
	if ((double)m->capacity_bytes > hi)
		hi = (double)m->capacity_bytes;
	if (hi <= 0)
		hi = 1;
	span = m->end_ps > m->start_ps ? (double)(m->end_ps - m->start_ps) : 1;
#define MX(t) (MEM_X0 + ((double)(t) - (double)m->start_ps) / span * \
	(MEM_X1 - MEM_X0))
#define MY(v) (MEM_Y1 - (double)(v) / hi * (MEM_Y1 - MEM_Y0))
	fprintf(fp, "<svg id=\"memory-%zu\" class=\"memory\" "
	    "data-chart=\"memory\" data-run=\"", i);
	html_text(fp, m->run);
	fputs("\" data-host=\"", fp);
	html_text(fp, m->host);
	fputs("\" data-allocator=\"", fp);
	html_text(fp, m->allocator);
	fprintf(fp, "\" data-points=\"%zu\" data-start-us=\"", m->npoints);
	html_us(fp, (double)m->start_ps);
	fputs("\" data-end-us=\"", fp);
	html_us(fp, (double)m->end_ps);
	fprintf(fp, "\" data-max-bytes=\"%.0f\" data-box=\"%.0f %.0f %.0f "
	    "%.0f\" width=\"1000\" height=\"146\" viewBox=\"0 0 1000 146\">",
	    hi, MEM_X0, MEM_Y0, MEM_X1, MEM_Y1);
	fputs("<text x=\"0\" y=\"12\">", fp);
	html_text(fp, m->allocator);
	fputs(" on ", fp);
	html_text(fp, m->host);
	if (ov->nruns > 1) {
		fputs(" (", fp);
		html_text(fp, m->run);
		fputs(")", fp);
	}
	fmt_bytes(b, sizeof b, (int64_t)hi);
	fprintf(fp, "</text><text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">"
	    "%s</text><text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">0 B"
	    "</text><line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" "
	    "stroke=\"#ddd\"/><line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" "
	    "y2=\"%.0f\" stroke=\"#999\"/>", MEM_X0 - 4, MEM_Y0 + 4, b,
	    MEM_X0 - 4, MEM_Y1, MEM_X0, MEM_Y0, MEM_X1, MEM_Y0, MEM_X0,
	    MEM_Y1, MEM_X1, MEM_Y1);
	if (m->capacity_bytes > 0) {
		fmt_bytes(b, sizeof b, m->capacity_bytes);
		fprintf(fp, "<g class=\"capacity\" data-bytes=\"%lld\"><line "
		    "x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" "
		    "stroke=\"#e15759\" stroke-dasharray=\"4 3\"/><text "
		    "x=\"%.0f\" y=\"%.1f\">capacity %s</text></g>",
		    (long long)m->capacity_bytes, MEM_X0,
		    MY(m->capacity_bytes), MEM_X1, MY(m->capacity_bytes),
		    MEM_X0 + 4, MY(m->capacity_bytes) + 12, b);
	}
	if (m->npoints > 0) {
		fprintf(fp, "<path class=\"in-use\" fill=\"none\" "
		    "stroke=\"#4e79a7\" d=\"M%.1f %.1f",
		    MX(m->points[0].time_ps), MY(m->points[0].bytes));
		for (j = 1; j < m->npoints; j++)
			fprintf(fp, "H%.1fV%.1f", MX(m->points[j].time_ps),
			    MY(m->points[j].bytes));
		fprintf(fp, "H%.1f\"/>", MEM_X1);
	}
	px = MX(m->peak_ps);
	py = MY(m->peak_bytes);
	fprintf(fp, "<g class=\"peak\" data-bytes=\"%lld\" data-time-us=\"",
	    (long long)m->peak_bytes);
	html_us(fp, (double)m->peak_ps);
	fputs("\" data-step=\"", fp);
	if (m->step >= 0)
		fprintf(fp, "%lld", (long long)m->step);
	fputs("\" data-module=\"", fp);
	html_text(fp, m->module != NULL ? m->module : "");
	fputs("\" data-op=\"", fp);
	html_text(fp, m->op != NULL ? m->op : "");
	fmt_bytes(b, sizeof b, m->peak_bytes);
	fprintf(fp, "\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
	    "fill=\"#e15759\"/><text x=\"%.1f\" y=\"%.1f\"%s>peak %s at ",
	    px, py, px > MEM_X0 + (MEM_X1 - MEM_X0) / 2 ? px - 8 : px + 8,
	    py < MEM_Y0 + 12 ? py + 14 : py - 6,
	    px > MEM_X0 + (MEM_X1 - MEM_X0) / 2 ? " text-anchor=\"end\"" : "",
	    b);
	html_dur(fp, (double)m->peak_ps);
	if (m->step >= 0)
		fprintf(fp, ", step %lld", (long long)m->step);
	if (m->module != NULL) {
		fputs(", ", fp);
		html_text(fp, m->module);
	}
	if (m->op != NULL) {
		fputs(", op ", fp);
		html_text(fp, m->op);
	}
	fprintf(fp, "</text></g><text x=\"%.0f\" y=\"142\">", MEM_X0);
	html_dur(fp, (double)m->start_ps);
	fprintf(fp, "</text><text x=\"%.0f\" y=\"142\" text-anchor=\"end\">",
	    MEM_X1);
	html_dur(fp, (double)m->end_ps);
	fputs("</text></svg>\n", fp);
#undef MX
#undef MY
}

/* Device memory over the capture: nothing for a profile without. */
static void
memory_charts(const struct overview *ov, FILE *fp)
{
	size_t i, n = ov->nmemory < HTML_MAX_MEMORY_CHARTS ? ov->nmemory :
	    HTML_MAX_MEMORY_CHARTS;

	if (n == 0 && ov->memory_losses.n == 0)
		return;
	fputs("<h2 id=\"memory\">Device memory over the capture</h2>\n", fp);
	for (i = 0; i < ov->memory_losses.n; i++) {
		fputs("<p class=\"incomplete\"><strong>Incomplete:</strong> ",
		    fp);
		html_text(fp, ov->memory_losses.v[i].text);
		fputs("; ", fp);
		html_text(fp, ov->memory_losses.v[i].subject);
		fputs(" left out.</p>\n", fp);
	}
	if (n == 0)
		return;
	fputs("<p>Bytes in use "
	    "(heap plus stack) after each allocator event, of each window "
	    "of events the one of most bytes, as the index keeps them; the "
	    "red dot marks the peak", fp);
	if (n < ov->nmemory)
		fprintf(fp, "; the first %zu of %zu allocators (<code>jaxprof "
		    "memory</code> lists them all)", n, ov->nmemory);
	fputs(".</p>\n", fp);
	for (i = 0; i < n; i++)
		memory_chart(ov, &ov->memory[i], i, fp);
}

/* Compute time by precision: a table of those with any. */
static void
precision_table(const struct overview *ov, FILE *fp)
{
	const struct precision_share *s = &ov->precision;
	int p;

	if (s->compute_ps <= 0)
		return;
	fputs("<h2>Compute time by precision</h2>\n<table id=\"precision\">"
	    "<tr><th>precision</th><th>total</th><th>% of compute</th></tr>",
	    fp);
	for (p = 0; p <= PREC_N; p++) {
		int prec = p == PREC_N ? PREC_UNKNOWN : p;

		if (s->ps[p] <= 0)
			continue;
		fprintf(fp, "<tr data-precision=\"%s\"><td>%s</td><td>",
		    prec == PREC_UNKNOWN ? "unknown" : precision_name(prec),
		    prec == PREC_UNKNOWN ? "unknown" : prec == PREC_BF16 ?
		    "bf16/fp16" : precision_name(prec));
		html_dur(fp, (double)s->ps[p]);
		fputs("</td><td>", fp);
		html_pct(fp, precision_share_pct(s, prec));
		fputs("%</td></tr>", fp);
	}
	fputs("</table>\n", fp);
}

/*
 * The page's sections in order; charts of other reports (memory over
 * time, the roofline) take their place here as they come.
 */
int
html_page_write(const struct overview *ov, FILE *fp)
{
	head(ov, fp);
	recommendations(ov, fp);
	breakdown(ov, fp);
	steps_chart(ov, fp);
	bars("ops", "Top ops by device time", ov->ops, ov->nops, fp);
	bars("lines", "Time by source line", ov->lines, ov->nlines, fp);
	precision_table(ov, fp);
	compile_chart(ov, fp);
	timeline(ov, fp);
	memory_charts(ov, fp);
	return html_close(fp, "summary; every number here is in its "
	    "--format=json");
}
