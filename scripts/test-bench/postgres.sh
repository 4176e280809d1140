#!/usr/bin/env bash
# Makes PostgreSQL from Debian's packages reachable at 127.0.0.1:5432 for the tests, idempotently:
# installs it when missing, starts the cluster when it is down, lets the `postgres` role connect
# over 127.0.0.1 without a password (loopback only), turns off durability (a test bench: see
# below), and creates the database `test`. Meant for test machines (CI, a developer's sandbox),
# not for a cluster that holds data worth keeping.
# A second run on the same machine finds everything in place and only checks it.
set -euo pipefail

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  echo "postgres: installing Debian's postgresql"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi

version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h 2>/dev/null | awk -v v="$version" '$1 == v && $2 == "main"' | grep -q .; then
  echo "postgres: creating cluster $version/main"
  as_root pg_createcluster "$version" main >/dev/null
fi

hba="/etc/postgresql/$version/main/pg_hba.conf"
rule='host all postgres 127.0.0.1/32 trust'
changed=0
if ! grep -qxF "$rule" "$hba"; then
  # First matching line wins in pg_hba.conf, so the loopback rule goes on top.
  as_root sed -i "1i $rule" "$hba"
  changed=1
fi

status=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" { print $4 }')
if [ "$status" != online ]; then
  echo "postgres: starting cluster $version/main"
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start
elif [ "$changed" = 1 ]; then
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main reload
fi

for _ in $(seq 1 50); do
  pg_isready -q -h 127.0.0.1 -p 5432 && break
  sleep 0.2
done
pg_isready -q -h 127.0.0.1 -p 5432 || { echo "postgres: not accepting connections on 127.0.0.1:5432" >&2; exit 1; }

# A bench cluster holds only test data, created and dropped by the thousands: it trades durability
# for speed (no fsync, no full-page writes, commits not waiting for the WAL flush). All three are
# reloadable settings, applied without a restart.
if [ "$(psql -h 127.0.0.1 -U postgres -d postgres -Atc 'show fsync')" != off ]; then
  psql -h 127.0.0.1 -U postgres -d postgres -q \
    -c 'alter system set fsync = off' -c 'alter system set full_page_writes = off' \
    -c 'alter system set synchronous_commit = off' -c 'select pg_reload_conf()' >/dev/null
fi

# The test suites' databases (a migrated template per run and a copy per test block, about 190 per
# run, each some 800 files) go in a tablespace in memory: on ext4 more than half of PostgreSQL's CPU
# in the server tests was the kernel's, ext4's inode allocation first, and in memory PostgreSQL used
# 39% less CPU for the same tests (docs/development.md, "Where the time goes").
# test/global-setup.ts uses the tablespace when it can and the default one otherwise. After a reboot
# the directory is gone: a tablespace whose directory lost its version folder is dropped and made
# again (a database left in it by an interrupted run keeps it, and the tests then use the default).
# A /dev/shm under 1 GiB free (a container's default is 64 MiB) is not used: the databases of a run
# peak at about 100 MB there, and a full tablespace would fail the tests.
tablespace_dir=/dev/shm/gatehouse-pg-tests
has_tablespace() { [ "$(psql -h 127.0.0.1 -U postgres -d postgres -Atc "select 1 from pg_tablespace where spcname = 'gatehouse_tests'")" = 1 ]; }
shm_free_kb=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
if [ "${shm_free_kb:-0}" -ge 1048576 ]; then
  as_root install -d -o postgres -g postgres -m 700 "$tablespace_dir"
  if has_tablespace && ! ls -d "$tablespace_dir"/PG_* >/dev/null 2>&1; then
    psql -h 127.0.0.1 -U postgres -d postgres -qc 'drop tablespace gatehouse_tests' >/dev/null 2>&1 || echo "postgres: tablespace gatehouse_tests lost its files and is still used; the tests use the default tablespace"
  fi
  if ! has_tablespace; then
    psql -h 127.0.0.1 -U postgres -d postgres -qc "create tablespace gatehouse_tests location '$tablespace_dir'"
  fi
elif has_tablespace; then
  echo "postgres: /dev/shm has under 1 GiB free; the tests use the default tablespace"
  psql -h 127.0.0.1 -U postgres -d postgres -qc 'drop tablespace gatehouse_tests' >/dev/null 2>&1 || true
fi

if [ "$(psql -h 127.0.0.1 -U postgres -d postgres -Atc "select 1 from pg_database where datname = 'test'")" != 1 ]; then
  psql -h 127.0.0.1 -U postgres -d postgres -qc 'create database test'
fi
echo "postgres: ready at 127.0.0.1:5432, database test"
