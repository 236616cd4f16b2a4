#include "dirlist.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int dir_entries(const char *dir, char ***out)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "%s: error: %s\n", dir, strerror(errno));
        return -1;
    }
    char **names = NULL;
    int n = 0;
    const char *sep = dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/";
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        size_t len = strlen(dir) + strlen(de->d_name) + 2;
        char *full = malloc(len);
        snprintf(full, len, "%s%s%s", dir, sep, de->d_name);
        struct stat ls, st;
        if (lstat(full, &ls) == 0 && S_ISLNK(ls.st_mode) && stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
            free(full);
            continue;
        }
        names = realloc(names, (size_t)(n + 1) * sizeof *names);
        names[n++] = full;
    }
    closedir(d);
    if (n > 1)
        qsort(names, (size_t)n, sizeof *names, cmp_str);
    *out = names;
    return n;
}
