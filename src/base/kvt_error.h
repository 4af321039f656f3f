/* kvt_error.h: the one list of error codes used by every layer.
 *
 * Core and store return these codes; only the CLI and the UI turn them into
 * words for people (kvt_strerror gives the generic sentence, the caller adds
 * the file, line or flag at fault). */
#ifndef KVT_ERROR_H
#define KVT_ERROR_H

#define KVT_ERRORS(X)                                                                              \
    X(OK, "no error")                                                                              \
    X(MISSING, "a required value is missing")                                                      \
    X(RANGE, "value out of range")                                                                 \
    X(CONFLICT, "values contradict each other")                                                    \
    X(TP_KV_HEADS, "tensor-parallel degree must divide the KV heads or be a multiple of them")     \
    X(TP_HEADS, "tensor-parallel degree must divide the query heads")                              \
    X(GQA_RATIO, "query heads must be a multiple of the KV heads")                                 \
    X(HEAD_DIM, "hidden size is not a multiple of the query heads")                                \
    X(SLIDING, "sliding-window layers need a window and cannot exceed the layer count")            \
    X(PP_LAYERS, "pipeline stages cannot outnumber the layers")                                    \
    X(PP_PARTITION_COUNT, "the partition must list one layer count a pipeline stage")              \
    X(PP_PARTITION_SUM, "the partition's layer counts must add up to the model's layers")          \
    X(OVERFLOW, "figures overflow 64-bit arithmetic")                                              \
    X(MAX_LEN, "max_model_len is past the model's positions (max_position_embeddings)")            \
    X(BLOCK_BACKEND, "the attention backend's kernels cannot run blocks of that size (a multiple " \
                     "of 64 tokens for FlashMLA, 128 for CUTLASS MLA, 32 for FlashInfer-MLA)")     \
    X(NOT_FOUND, "no such preset")                                                                 \
    X(PARSE, "malformed input")                                                                    \
    X(IO, "cannot read the file")                                                                  \
    X(DB_NOT_KVTUTOR, "not a kvtutor progress database")                                           \
    X(DB_CORRUPT, "the progress database is damaged")                                              \
    X(DB_READONLY, "the progress database is read-only")                                           \
    X(DB_FULL, "the disk is full")                                                                 \
    X(DB_LOCKED, "another kvtutor is holding the progress database")                               \
    X(DB_NEWER, "the progress database was written by a newer kvtutor")                            \
    X(DB_NO_FOLDER, "the folder for the progress database does not exist")                         \
    X(DB_IS_DIR, "a folder stands where the progress database should be")                          \
    X(DB_IO, "the progress database cannot be read or written")                                    \
    X(DB_NOT_FOUND, "no such record")                                                              \
    X(DB_GONE, "the progress database was deleted or replaced while kvtutor ran")                  \
    X(NOMEM, "out of memory")

enum kvt_err {
#define KVT_ERR_ENUM(name, msg) KVT_E_##name,
    KVT_ERRORS(KVT_ERR_ENUM)
#undef KVT_ERR_ENUM
        KVT_E__COUNT
};

/* The generic sentence for a code; never NULL, "unknown error" past the list. */
const char *kvt_strerror(enum kvt_err err);

/* The code's short name ("TP_KV_HEADS"), for logs and JSON. */
const char *kvt_errname(enum kvt_err err);

#endif
