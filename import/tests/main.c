/* CUnit tests of the importers and writers (import/). */
#include <CUnit/Basic.h>

#include "unit.h"

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    add_litmus_tests();
    add_dispatch_tests();
    add_alloy_tests();
    add_write_tests();
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
