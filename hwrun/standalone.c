/* memsim-hwrun: the hwrun subcommand as a program of its own, which needs
 * nothing but libc (no cJSON): what hwrun/campaign.sh builds on a GPU
 * machine when the full memsim cannot be built there. */
#include <string.h>

#include "hwrun.h"

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "hwrun") == 0)
        return hwrun_main(argc - 1, argv + 1);
    argv[0] = "hwrun";
    return hwrun_main(argc, argv);
}
