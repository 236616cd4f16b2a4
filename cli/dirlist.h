#ifndef MEMSIM_DIRLIST_H
#define MEMSIM_DIRLIST_H

/* The entries of directory dir, hidden ones and links to directories left out (a walk that
 * followed a link to a parent would never end), as full paths ("dir/name") in name order, so
 * that a run over a directory is the same on every machine.  Returns how many
 * (*out then holds them, each and the array for the caller to free), or -1 after saying
 * why on stderr. */
int dir_entries(const char *dir, char ***out);

#endif
