/* store_migrations.h: the schema migrations, db/NNNN-*.sql embedded at build
 * time. Append-only: migration N brings a database from user_version N - 1
 * to N, so the highest number is the schema this program writes. */
#ifndef STORE_MIGRATIONS_H
#define STORE_MIGRATIONS_H

struct store_migration {
    int version;      /* the file's number, PRAGMA user_version after it ran */
    const char *name; /* "0001-init.sql" */
    const char *sql;
};

extern const struct store_migration store_migrations[];
extern const int store_migration_count;

#endif
