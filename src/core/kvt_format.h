/* kvt_format.h: numbers written for people, the same in every locale. */
#ifndef KVT_FORMAT_H
#define KVT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* 1234567 -> "1,234,567" (always commas, whatever the locale). */
const char *kvt_fmt_int(uint64_t v, char *buf, size_t cap);

/* A real with at most `decimals` decimals, trailing zeros dropped: 0.4375 -> "0.4375". */
const char *kvt_fmt_real(double v, int decimals, char *buf, size_t cap);

/* Bytes in the largest binary unit that keeps the value >= 1, trailing zeros
 * dropped: 57344 -> "56 KiB", 469762048 -> "448 MiB", 1879048192 -> "1.75 GiB". */
const char *kvt_fmt_bytes(double bytes, char *buf, size_t cap);

/* Whole numbers grouped ("57,344"), others as kvt_fmt_real. */
const char *kvt_fmt_number(double v, int decimals, char *buf, size_t cap);

/* A rate written by its size, so that figures side by side read alike: whole
 * and grouped from 100 up (10846.1 -> "10,846"), one decimal below
 * (66.24 -> "66.2"). For tok/s and GB/s. */
const char *kvt_fmt_rate(double v, char *buf, size_t cap);

#endif
