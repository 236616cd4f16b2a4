/* CUnit tests of hwrun that need no GPU: outcome indexing, statistics,
 * placement, and code generation for every library test. */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "../../lit/parse.h"
#include "unit.h"

test *hw_parse(const char *text, explore_result *r)
{
    diag d = {0};
    test *t = lit_parse("t.lit", text, &d);
    diag_free(&d);
    if (!t)
        return NULL;
    explore_opts o = {0};
    o.models[0] = &model_ptx;
    o.models[1] = &model_src11;
    o.models[2] = &model_sc;
    o.nmodels = 3;
    if (explore(t, &o, r) != 0) {
        explore_result_free(r);
        test_free(t);
        return NULL;
    }
    return t;
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    add_outcome_tests();
    add_stats_tests();
    add_plan_tests();
    add_codegen_tests();
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
