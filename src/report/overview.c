/*
 * The overview's parts and its JSON (overview.h); loading, attribution
 * and rules are overview-load.c, overview-gaps.c and overview-rules.c.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "report/overview.h"
#include "lib/xmalloc.h"

const char *const ov_part_keys[OV_NPARTS] = {
	"compute", "collective", "transfer", "host_idle", "launch_idle",
	"compile_idle", "sync_idle", "short_idle",
};

const char *const ov_part_words[OV_NPARTS] = {
	"compute", "collectives", "transfers", "host-bound idle",
	"launch overhead", "compile", "result wait", "short gaps",
};

double
overview_part_pct(const struct overview *ov, enum ov_part k)
{
	return ov->steps_ps > 0 ? 100.0 * (double)ov->part_ps[k] /
	    (double)ov->steps_ps : 0;
}

static void
json_strings(FILE *fp, const char *key, char **v, size_t n)
{
	size_t i;

	fprintf(fp, "\"%s\":[", key);
	for (i = 0; i < n; i++) {
		if (i > 0)
			fputc(',', fp);
		output_json_string(fp, v[i]);
	}
	fputs("],", fp);
}

/* Microseconds with 3 decimals, as the reports' *_us fields. */
static void
json_us(FILE *fp, const char *key, double ps)
{
	char buf[64];

	fmt_fixed(buf, sizeof buf, ps / 1e6, 3);
	fprintf(fp, "\"%s\":%s", key, buf);
}

static void
json_pct(FILE *fp, const char *key, double pct)
{
	char buf[64];

	fmt_fixed(buf, sizeof buf, pct, 2);
	fprintf(fp, "\"%s\":%s", key, buf);
}

static void
json_items(FILE *fp, const char *key, const struct ov_item *v, size_t n,
    const char *detail, int what)
{
	size_t i;

	fprintf(fp, "\"%s\":[", key);
	for (i = 0; i < n; i++) {
		fputs(i > 0 ? ",{\"name\":" : "{\"name\":", fp);
		output_json_string(fp, v[i].name);
		fprintf(fp, ",\"%s\":", detail);
		output_json_string(fp, v[i].detail);
		if (what) {
			fputs(",\"what\":", fp);
			output_json_string(fp, v[i].what);
		}
		fprintf(fp, ",\"count\":%lld,", (long long)v[i].count);
		json_us(fp, "total_us", (double)v[i].total_ps);
		fputc(',', fp);
		json_pct(fp, "percent", v[i].pct);
		fputc('}', fp);
	}
	fputs("],", fp);
}

static void
json_steps(FILE *fp, const struct overview *ov)
{
	size_t i, j;
	int k;

	fputs("\"series\":[", fp);
	for (i = 0; i < ov->nseries; i++) {
		const struct ov_series *se = &ov->series[i];

		fputs(i > 0 ? ",{\"run\":" : "{\"run\":", fp);
		output_json_string(fp, se->run);
		fputs(",\"host\":", fp);
		output_json_string(fp, se->host);
		fputs(",\"device\":", fp);
		output_json_string(fp, se->device);
		fputs(",\"steps\":[", fp);
		for (j = 0; j < se->n; j++) {
			const struct ov_step *s = &se->steps[j];

			fprintf(fp, "%s{\"step\":%lld,", j > 0 ? "," : "",
			    (long long)s->step);
			json_us(fp, "duration_us", (double)s->dur_ps);
			for (k = 0; k < OV_NPARTS; k++) {
				char key[40];

				snprintf(key, sizeof key, "%s_us",
				    ov_part_keys[k]);
				fputc(',', fp);
				json_us(fp, key, (double)s->part_ps[k]);
			}
			fputs(",\"skipped\":", fp);
			if (s->skip_why != NULL)
				output_json_string(fp, s->skip_why);
			else
				fputs("null", fp);
			fputc('}', fp);
		}
		fputs("]}", fp);
	}
	fputs("],", fp);
}

/* A number, or null when it is not known (negative). */
static void
json_known(FILE *fp, const char *key, int64_t v)
{
	if (v >= 0)
		fprintf(fp, "\"%s\":%lld", key, (long long)v);
	else
		fprintf(fp, "\"%s\":null", key);
}

static void
json_str_or_null(FILE *fp, const char *s)
{
	if (s != NULL)
		output_json_string(fp, s);
	else
		fputs("null", fp);
}

/* Each allocator's peak as jaxprof memory gives it, and its timeline. */
static void
json_memory(FILE *fp, const struct overview *ov)
{
	size_t i, j;

	fputs("\"memory\":[", fp);
	for (i = 0; i < ov->nmemory; i++) {
		const struct ov_memory *m = &ov->memory[i];

		fputs(i > 0 ? ",{\"run\":" : "{\"run\":", fp);
		output_json_string(fp, m->run);
		fputs(",\"host\":", fp);
		output_json_string(fp, m->host);
		fputs(",\"allocator\":", fp);
		output_json_string(fp, m->allocator);
		fprintf(fp, ",\"peak_bytes\":%lld,", (long long)m->peak_bytes);
		json_us(fp, "peak_time_us", (double)m->peak_ps);
		fputc(',', fp);
		json_known(fp, "step", m->step);
		fputs(",\"module\":", fp);
		json_str_or_null(fp, m->module);
		fputs(",\"op\":", fp);
		json_str_or_null(fp, m->op);
		fputc(',', fp);
		json_known(fp, "capacity_bytes", m->capacity_bytes);
		fputc(',', fp);
		json_us(fp, "start_us", (double)m->start_ps);
		fputc(',', fp);
		json_us(fp, "end_us", (double)m->end_ps);
		fputs(",\"timeline\":[", fp);
		for (j = 0; j < m->npoints; j++) {
			fputs(j > 0 ? ",{" : "{", fp);
			json_us(fp, "time_us", (double)m->points[j].time_ps);
			fprintf(fp, ",\"bytes_in_use\":%lld}",
			    (long long)m->points[j].bytes);
		}
		fputs("]}", fp);
	}
	/* What memory lacks: never an empty list that looks complete. */
	fputs("],\"memory_incomplete\":[", fp);
	for (i = 0; i < ov->memory_losses.n; i++) {
		const struct memory_loss *l = &ov->memory_losses.v[i];

		fputs(i > 0 ? ",{\"file\":" : "{\"file\":", fp);
		output_json_string(fp, l->file);
		fputs(",\"allocator\":", fp);
		output_json_string(fp, l->name);
		fputs(",\"damage\":", fp);
		output_json_string(fp, l->why);
		fputc('}', fp);
	}
	fputs("],", fp);
}

int
overview_write_json(const struct overview *ov, FILE *fp)
{
	size_t i;
	int k;

	fputc('{', fp);
	json_strings(fp, "runs", ov->runs, ov->nruns);
	json_strings(fp, "hosts", ov->hosts, ov->nhosts);
	json_strings(fp, "devices", ov->devices, ov->ndevices);
	fprintf(fp, "\"cpu_only\":%s,\"step_source\":",
	    ov->cpu_only ? "true" : "false");
	output_json_string(fp, ov->step_source);
	fprintf(fp, ",\"steps\":%zu,\"steps_kept\":%zu,", ov->nsteps,
	    ov->nkept);
	json_us(fp, "median_us", ov->median_ps);
	fputc(',', fp);
	json_us(fp, "min_us", ov->min_ps);
	fputc(',', fp);
	json_us(fp, "p90_us", ov->p90_ps);
	fputc(',', fp);
	json_us(fp, "max_us", ov->max_ps);
	fputc(',', fp);
	json_us(fp, "stddev_us", ov->stddev_ps);
	fputs(",\"breakdown\":{", fp);
	for (k = 0; k < OV_NPARTS; k++) {
		fprintf(fp, "%s\"%s\":{", k > 0 ? "," : "", ov_part_keys[k]);
		json_us(fp, "per_step_us", ov->nsteps > 0 ?
		    (double)ov->part_ps[k] / (double)ov->nsteps : 0);
		fputc(',', fp);
		json_pct(fp, "percent", overview_part_pct(ov, (enum ov_part)k));
		fputc('}', fp);
	}
	fputs("},\"verdict\":{\"rule\":", fp);
	output_json_string(fp, ov->verdict_rule);
	fputs(",\"text\":", fp);
	output_json_string(fp, ov->verdict);
	fputs("},\"idle_causes\":[", fp);
	for (i = 0; i < ov->ncauses; i++) {
		const struct ov_cause *c = &ov->causes[i];

		fputs(i > 0 ? ",{\"part\":" : "{\"part\":", fp);
		output_json_string(fp, ov_part_keys[c->part]);
		fputs(",\"host_activity\":", fp);
		output_json_string(fp, c->activity);
		fputs(",\"host_context\":", fp);
		output_json_string(fp, c->context);
		fprintf(fp, ",\"gaps\":%lld,", (long long)c->gaps);
		json_us(fp, "total_us", (double)c->ps);
		fputc(',', fp);
		json_pct(fp, "percent", ov->steps_ps > 0 ? 100.0 *
		    (double)c->ps / (double)ov->steps_ps : 0);
		fputc('}', fp);
	}
	fputs("],", fp);
	json_items(fp, "top_ops", ov->ops, ov->nops, "source", 1);
	json_items(fp, "top_lines", ov->lines, ov->nlines, "function", 0);
	precision_share_write_json(&ov->precision, fp);
	fputc(',', fp);
	fputs("\"compiles\":[", fp);
	for (i = 0; i < ov->ncompiles; i++) {
		const struct ov_compile *c = &ov->compiles[i];

		fputs(i > 0 ? ",{\"function\":" : "{\"function\":", fp);
		output_json_string(fp, c->function);
		fprintf(fp, ",\"count\":%lld,", (long long)c->count);
		json_us(fp, "compile_us", (double)c->total_ps);
		fprintf(fp, ",\"executions\":%lld,",
		    (long long)c->exec_count);
		json_us(fp, "execute_us", (double)c->exec_ps);
		fputs(",\"steps\":", fp);
		output_json_string(fp, c->steps);
		fputs(",\"programs\":", fp);
		output_json_string(fp, c->programs);
		fputs(",\"shapes\":", fp);
		output_json_string(fp, c->shapes);
		fputc('}', fp);
	}
	fputs("],\"recommendations\":[", fp);
	for (i = 0; i < ov->nrecs; i++) {
		char v[64], t[64];

		fmt_fixed(v, sizeof v, ov->recs[i].value, 1);
		fmt_fixed(t, sizeof t, ov->recs[i].threshold, 1);
		fputs(i > 0 ? ",{\"rule\":" : "{\"rule\":", fp);
		output_json_string(fp, ov->recs[i].rule);
		fprintf(fp, ",\"value\":%s,\"threshold\":%s,", v, t);
		json_us(fp, ov->nsteps > 0 ? "saves_per_step_us" :
		    "saves_in_capture_us", (double)ov->recs[i].save_ps);
		fputs(",\"text\":", fp);
		output_json_string(fp, ov->recs[i].text);
		fputc('}', fp);
	}
	fputs("],", fp);
	json_steps(fp, ov);
	json_memory(fp, ov);
	fprintf(fp, "\"timeline_step\":%lld}\n", (long long)ov->tl_step);
	return ferror(fp) ? -1 : 0;
}
