# Start/stop a throwaway PostgreSQL cluster on 127.0.0.1:$PGPORT (sourced by .ci/run and usable by
# developers: `. .ci/postgres.sh && start_postgres`). initdb refuses root, so it runs as postgres.
PGPORT="${PGPORT:-54329}"
PGDATA_DIR="${PGDATA_DIR:-/tmp/casefile-ci-pg}"

_pgbin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && { echo "$d"; return; }; done
  dirname "$(command -v initdb)"
}

start_postgres() {
  local bin; bin="$(_pgbin)"
  local run=(); [ "$(id -u)" = 0 ] && run=(runuser -u postgres --)
  if "${run[@]}" "$bin/pg_ctl" -D "$PGDATA_DIR" status >/dev/null 2>&1; then return 0; fi
  rm -rf "$PGDATA_DIR"; mkdir -p "$PGDATA_DIR"
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$PGDATA_DIR"
  "${run[@]}" "$bin/initdb" -D "$PGDATA_DIR" -U postgres --auth=trust -E UTF8 >/dev/null
  "${run[@]}" "$bin/pg_ctl" -D "$PGDATA_DIR" -l "$PGDATA_DIR/server.log" -w \
    -o "-p $PGPORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off" start >/dev/null
  echo "postgresql running on 127.0.0.1:$PGPORT"
}

stop_postgres() {
  local bin; bin="$(_pgbin)"
  local run=(); [ "$(id -u)" = 0 ] && run=(runuser -u postgres --)
  "${run[@]}" "$bin/pg_ctl" -D "$PGDATA_DIR" -m fast stop >/dev/null 2>&1 || true
}
