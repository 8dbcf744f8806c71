#!/usr/bin/env bash
# Makes sure what the demo and the tests talk to is there and running, installing it from Debian's
# packages when it is missing (a fresh machine): MariaDB on 127.0.0.1:3306 (root, no password) and,
# with --tests, Redis on 127.0.0.1:6379, Chromium at /usr/bin/chromium, and what the Galera cluster
# tests start their own three servers from (mariadbd, galera-4, rsync; only the packages: the tests
# start and stop the cluster themselves, see test/support/galera.ts). Quick when all is there.
# With DATABASE_URL pointing elsewhere, the local MariaDB is left alone.
set -euo pipefail

want_tests=0
[ "${1:-}" = "--tests" ] && want_tests=1

log() { printf '[services] %s\n' "$*" >&2; }
export DEBIAN_FRONTEND=noninteractive
apt_updated=0
apt_install() {
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    log "missing: $*; install it (Debian package $*) and run again"
    exit 1
  fi
  if [ "$apt_updated" = 0 ]; then apt-get update -qq; apt_updated=1; fi
  log "installing $*"
  apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

case "${DATABASE_URL:-mysql://root@127.0.0.1:3306/test}" in
  mysql://root@127.0.0.1:3306/* | mysql://root@localhost:3306/* | mariadb://root@127.0.0.1:3306/*)
    mariadb_tcp() { mariadb -uroot -h127.0.0.1 -P3306 -e 'SELECT 1' >/dev/null 2>&1; }
    mariadb_socket() { mariadb -uroot -e 'SELECT 1' >/dev/null 2>&1; }
    if ! port_open 3306; then
      [ -x /usr/sbin/mariadbd ] || apt_install mariadb-server
      log "starting MariaDB"
      mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld 2>/dev/null || true
      start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
      for _ in $(seq 1 60); do { mariadb_tcp || mariadb_socket; } && break; sleep 1; done
    fi
    # A server that answers but no client to ask it with: nothing more to check from here.
    command -v mariadb >/dev/null 2>&1 || no_client=1
    if [ "${no_client:-0}" = 0 ] && ! mariadb_tcp && mariadb_socket; then
      # A fresh Debian install lets root in over the socket only; we connect over TCP.
      log "allowing root without a password over TCP"
      mariadb -uroot -e "ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD('') OR unix_socket; FLUSH PRIVILEGES;"
    fi
    if [ "${no_client:-0}" = 0 ]; then
      mariadb_tcp || { log "MariaDB does not answer on 127.0.0.1:3306 as root without a password"; exit 1; }
      mariadb -uroot -h127.0.0.1 -P3306 -e 'CREATE DATABASE IF NOT EXISTS test'
    fi
    ;;
esac

[ "$want_tests" = 1 ] || exit 0

# What the tests need from Debian, installed in one apt-get run (one download, one dpkg pass and one
# run of the packages' triggers, where three runs did each three times): Redis, for the shared media cache's contract tests; Chromium
# for the browser tests (never a downloaded browser build); and for the Galera cluster tests
# (test/cluster/), which run three mariadbd of their own with Debian's galera-4, a joining node
# getting its data by rsync (wsrep_sst_rsync, of mariadb-server, which looks at its ports with ss or
# lsof). Also when DATABASE_URL points elsewhere: the cluster is always local.
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
[ -x /usr/bin/chromium ] || missing+=(chromium)
{ [ -x /usr/sbin/mariadbd ] && [ -x /usr/bin/wsrep_sst_rsync ]; } || missing+=(mariadb-server)
[ -e /usr/lib/galera/libgalera_smm.so ] || missing+=(galera-4)
command -v rsync >/dev/null 2>&1 || missing+=(rsync)
{ command -v ss || command -v lsof; } >/dev/null 2>&1 || missing+=(iproute2)
[ "${#missing[@]}" = 0 ] || apt_install "${missing[@]}"

if ! port_open 6379; then
  log "starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  for _ in $(seq 1 30); do port_open 6379 && break; sleep 1; done
fi
