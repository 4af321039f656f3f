#include "store_sql.h"

const char *const store_sql[STMT__COUNT] = {
#define STORE_STMT_SQL(name, sql) sql,
    STORE_STATEMENTS(STORE_STMT_SQL)
#undef STORE_STMT_SQL
};
