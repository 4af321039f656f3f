/* fuzz_fsrs: a card's history, any bytes: each review is 5 bytes, a rating
 * (any byte, most of them invalid) and a 32-bit elapsed time in hundredths of
 * a day (some enormous). The scheduler must refuse what is invalid, leave
 * the card as it was then, and otherwise keep its memory in range:
 * stability finite and positive, difficulty within [1, 10], the interval
 * within [1, max_interval + 3] (each grade's interval is capped, then Hard,
 * Good and Easy are kept a day apart, as ts-fsrs does). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fsrs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fsrs_params p;
    struct fsrs_card c = {0};
    fsrs_default_params(&p);
    if (size > 0 && data[0] & 1)
        p.desired_retention = 0.7 + (double)(data[0] >> 1) / 127.0 * 0.27; /* 0.7 .. 0.97 */
    for (size_t at = 1; at + 5 <= size; at += 5) {
        uint32_t hundredths;
        memcpy(&hundredths, data + at + 1, 4);
        double days = (double)hundredths / 100.0;
        struct fsrs_card before = c;
        struct fsrs_review r;
        if (fsrs_apply(&p, &c, days, (enum fsrs_rating)data[at], &r) != KVT_E_OK) {
            if (memcmp(&before, &c, sizeof c) != 0)
                abort(); /* a refused review changed the card */
            continue;
        }
        if (!isfinite(c.stability) || !(c.stability > 0) || !(c.difficulty >= 1) ||
            !(c.difficulty <= 10) || r.interval < 1 || r.interval > p.max_interval + 3)
            abort();
        (void)fsrs_retrievability(&p, c.stability, days);
    }
    return 0;
}
