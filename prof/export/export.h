/*
 * export.h -- prof -F: the report written for another tool, in one of
 * the formats export.c names (the writers and what they share are in
 * xset.h, for the files of this room alone).
 */
#ifndef _EXPORT_H
#define _EXPORT_H

#include "model/model.h"
#include "prof.h"

/* export.c */
int	export_known(const char *);
int	export_write(const char *, struct report *, const struct profile *,
	    const struct opts *, const char *, const char **,
	    const char **);
int	export_diffs(const char *);
int	export_diff(const char *, struct report *, const struct profile *,
	    struct report *, const struct profile *, const struct opts *,
	    const char *, const char **, const char **);

#endif /* !_EXPORT_H */
