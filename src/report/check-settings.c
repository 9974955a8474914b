/* check's settings read: options and a rules file (check-rules.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/check-int.h"
#include "report/report.h"
#include "lib/units.h"
#include "lib/xmalloc.h"

/*
 * The length of the plain decimal number v starts with ("12", "0.5"), or
 * 0: no sign, exponent, hex, inf or nan, and no leading zero ("010"
 * could be meant as octal), so a value reads as a person reads it.
 */
static size_t
decimal_len(const char *v)
{
	size_t n = strspn(v, "0123456789"), frac;

	if (n == 0 || (n > 1 && v[0] == '0'))
		return 0;
	if (v[n] == '.') {
		if ((frac = strspn(v + n + 1, "0123456789")) == 0)
			return 0;
		n += 1 + frac;
	}
	return n;
}

/* Parses v for setting s; -1 if it is not a valid value. */
static int
parse_value(struct check_setting *s, const char *v)
{
	char *end;
	double d;
	int64_t ps;
	size_t n;

	if (s->kind == CHECK_PATH) {
		if (*v == '\0')
			return -1;
		free(s->str);
		s->str = xstrdup(v);
		return 0;
	}
	s->off = s->is_rule && strcmp(v, "off") == 0;
	if (s->off)
		return 0;
	if ((n = decimal_len(v)) == 0)
		return -1;
	if (s->kind == CHECK_SIZE) {
		if ((ps = parse_size(v)) == -1)
			return -1;
		s->num = (double)ps;
		return 0;
	}
	errno = 0;
	d = strtod(v, &end);
	if (errno != 0 || end != v + n || !isfinite(d))
		return -1;
	switch (s->kind) {
	case CHECK_PERCENT:
		if (strcmp(end, "%") != 0 && *end != '\0')
			return -1;
		if (s->share && d > 100)
			return -1;
		break;
	case CHECK_TIME:
		/* A rule's time names its unit: no bare number. */
		if (*end == '\0' || (ps = parse_duration(v)) == -1)
			return -1;
		d = (double)ps;
		break;
	case CHECK_COUNT:
		if (*end != '\0' || d != floor(d) || d > 1e9)
			return -1;
		break;
	case CHECK_PATH:
	case CHECK_SIZE:
		break;
	}
	s->num = d;
	return 0;
}

static const char *
expected(const struct check_setting *s)
{
	switch (s->kind) {
	case CHECK_PATH:
		return "a path";
	case CHECK_PERCENT:
		if (s->share)
			return s->is_rule ? "a percentage from 0 to 100 such "
			    "as 5%, or off" : "a percentage from 0 to 100 such "
			    "as 5%";
		return s->is_rule ? "a percentage such as 5%, or off" :
		    "a percentage such as 5%";
	case CHECK_TIME:
		return "a time such as 150ms, with ns, us, ms or s, or off";
	case CHECK_COUNT:
		return s->is_rule ? "a whole number, or off" :
		    "a whole number";
	case CHECK_SIZE:
		return s->is_rule ? "a size such as 16G, 512M or 1000, or off" :
		    "a size such as 16G, 512M or 1000";
	}
	return "";
}

static void
strip(char **s)
{
	char *e;

	while (**s == ' ' || **s == '\t')
		(*s)++;
	e = *s + strlen(*s);
	while (e > *s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
	    e[-1] == '\n'))
		*--e = '\0';
}

/*
 * Reads a rules file: "key = value" lines, '#' comments, blank lines.
 * Keys are the long option names without "--".  Returns 0, or -1 with
 * *cause a new message (caller frees) naming the file and the line.
 */
static int
read_rules(struct check_settings *cs, const char *path, char **cause)
{
	struct check_setting *set = cs->v;
	FILE *fp = fopen(path, "r");
	char line[4096], *p, *key, *value, *eq;
	unsigned lineno = 0;
	size_t i;

	*cause = NULL;
	if (fp == NULL) {
		*cause = xasprintf("cannot read rules '%s': %s", path,
		    strerror(errno));
		return -1;
	}
	while (*cause == NULL && fgets(line, sizeof line, fp) != NULL) {
		lineno++;
		if ((p = strchr(line, '#')) != NULL)
			*p = '\0';
		key = line;
		strip(&key);
		if (*key == '\0')
			continue;
		if ((eq = strchr(key, '=')) == NULL) {
			*cause = xasprintf("rules '%s' line %u: expected "
			    "'key = value'", path, lineno);
			break;
		}
		*eq = '\0';
		value = eq + 1;
		strip(&key);
		strip(&value);
		for (i = 0; i < cs->n; i++)
			if (&set[i] != check_option(cs, O_RULES) &&
			    strcmp(set[i].name, key) == 0)
				break;
		if (i == cs->n) {
			*cause = xasprintf("rules '%s' line %u: unknown key "
			    "'%s'", path, lineno, key);
			break;
		}
		if (set[i].set == 2)
			continue;
		if (parse_value(&set[i], value) == -1) {
			*cause = xasprintf("rules '%s' line %u: invalid %s "
			    "'%s' (expected %s)", path, lineno, key, value,
			    expected(&set[i]));
			break;
		}
		set[i].set = 1;
	}
	if (*cause == NULL && ferror(fp))
		*cause = xasprintf("cannot read rules '%s': %s", path,
		    strerror(errno));
	fclose(fp);
	return *cause == NULL ? 0 : -1;
}

int
check_rules_validate(const char *path, char **cause)
{
	struct check_settings *cs = check_settings_new();
	int rc = read_rules(cs, path, cause);

	check_settings_free(cs);
	return rc;
}

const char *
check_setting_name(const struct check_settings *cs, size_t i)
{
	return cs->v[i].name;
}

int
check_setting_parse(struct check_settings *cs, size_t i, const char *value)
{
	if (parse_value(&cs->v[i], value) == -1)
		return -1;
	cs->v[i].set = 2;
	return 0;
}

const char *
check_setting_expected(const struct check_settings *cs, size_t i)
{
	return expected(&cs->v[i]);
}

int
check_settings_read(struct check_settings *cs, char **cause)
{
	const struct check_setting *rules = check_option(cs, O_RULES);

	*cause = NULL;
	return rules->set ? read_rules(cs, rules->str, cause) : 0;
}

const char *
check_settings_baseline(const struct check_settings *cs)
{
	const struct check_setting *b = check_option(cs, O_BASELINE);

	return b->set ? b->str : NULL;
}
