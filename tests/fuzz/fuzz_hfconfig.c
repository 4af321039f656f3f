/* fuzz_hfconfig: a config.json, any bytes. What parses is then run through
 * the whole calculator, so arbitrary shapes reach every rule. */
#include <stddef.h>
#include <stdint.h>

#include "hf_config.h"
#include "kv_calc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct kv_model m;
    struct hf_config_info info;
    struct hf_config_error err;
    if (hf_config_parse((const char *)data, size, &m, &info, &err) != KVT_E_OK)
        return 0;
    struct kv_deploy d;
    struct kv_result res;
    kv_deploy_defaults(&d);
    d.gpu_mem_gib = 80;
    d.context = 8192;
    d.batch = 8;
    d.bandwidth_gbps = 3350;
    d.tflops = 989;
    if (kv_calc(&m, &d, &res, NULL, NULL) == KVT_E_OK) {
        double tps;
        kv_calc_decode_at(&res, 64, 32768, &tps);
        kv_calc_blocks_per_request(&res, 100000);
    }
    return 0;
}
