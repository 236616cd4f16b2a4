/* The library's .lit files, for the test programs. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "unit.h"

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void walk(const char *dir, char ***v, int *n)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        size_t l = strlen(de->d_name);
        if (S_ISDIR(st.st_mode)) {
            walk(path, v, n);
        } else if (l > 4 && strcmp(de->d_name + l - 4, ".lit") == 0) {
            *v = realloc(*v, (size_t)(*n + 2) * sizeof **v);
            (*v)[(*n)++] = strdup(path);
            (*v)[*n] = NULL;
        }
    }
    closedir(d);
}

char **library_files(const char *dir)
{
    char **v = calloc(1, sizeof *v);
    int n = 0;
    walk(dir, &v, &n);
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v;
}

void free_files(char **v)
{
    for (int i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

