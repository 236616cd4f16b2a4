/* memsim hwrun: run .lit tests as kernels on real GPUs and hold the observed
 * outcomes against the models.  Entry point of the subcommand. */
#ifndef MEMSIM_HWRUN_H
#define MEMSIM_HWRUN_H

/* argv[0] is "hwrun".  Exit status: 0 nothing forbidden seen, 1 a forbidden
 * outcome seen, 2 bad input, 3 no GPU, 4 no test could run here, 5 a compile
 * or runtime failure, 6 the GPU context was lost (later tests not run). */
int hwrun_main(int argc, char **argv);

enum {
    HW_EXIT_OK = 0,
    HW_EXIT_FORBIDDEN = 1,
    HW_EXIT_BAD_INPUT = 2,
    HW_EXIT_NO_GPU = 3,
    HW_EXIT_NOT_RUN = 4,
    HW_EXIT_FAILED = 5,
    HW_EXIT_BROKEN = 6, /* a kernel faulted: the GPU context is lost, later tests were not run */
};

#endif
