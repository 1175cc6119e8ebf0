#!/usr/bin/env bash
# `make stack`: the production shape on one machine. gunicorn (`make serve`) on 127.0.0.1 at
# STACK_APP_PORT (default PORT+1), then nginx in the foreground on HOST:PORT with a copy of
# deploy/nginx.conf under STACK_DIR (default .stack/), its listen, upstream and static root
# lines rewritten. The environment is make serve's (SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL,
# ...); HTTPS defaults to 0, as this nginx speaks plain HTTP. Ctrl-C or SIGTERM stops both.
set -euo pipefail
cd "$(dirname "$0")/.."

: "${SECRET_KEY:?set SECRET_KEY (and ALLOWED_HOSTS, DATABASE_URL, ...) as for make serve}"
HOST=${HOST:-127.0.0.1} PORT=${PORT:-8000}
APP_PORT=${STACK_APP_PORT:-$((PORT + 1))}
STACK=$(realpath -m "${STACK_DIR:-.stack}")
STATIC_ROOT=$(realpath -m "${STATIC_ROOT:-staticfiles}")
export STATIC_ROOT RATELIMIT_CLIENT_HEADER=HTTP_X_REAL_IP HTTPS=${HTTPS:-0}
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
if listening "$APP_PORT"; then echo "stack: port $APP_PORT is taken" >&2; exit 1; fi

# The site's copy, with this machine's ports and static root.
mkdir -p "$STACK/tmp"
sed -e "s|^\([[:space:]]*\)listen 80;|\1listen $HOST:$PORT;|" \
    -e "s|server 127\.0\.0\.1:8001;|server 127.0.0.1:$APP_PORT;|" \
    -e "s|/srv/tamalou/staticfiles/|$STATIC_ROOT/|" deploy/nginx.conf >"$STACK/site.conf"
for line in "listen $HOST:$PORT;" "server 127.0.0.1:$APP_PORT;" "alias $STATIC_ROOT/;"; do
    grep -qF "$line" "$STACK/site.conf" || { echo "stack: no '$line' in the copy" >&2; exit 1; }
done

# A main configuration of its own: everything nginx writes is under $STACK, so that it runs
# as any user. Run as root, its workers stay root to read the static root wherever it is.
if [ "$(id -u)" = 0 ]; then user="user root;"; else user=""; fi
cat >"$STACK/nginx.conf" <<EOF
# Written by deploy/stack.sh for \`make stack\`; changes are lost at its next start.
$user
worker_processes auto;
pid $STACK/nginx.pid;
error_log stderr warn;
daemon off;
events { worker_connections 1024; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    log_format stack 'nginx \$remote_addr "\$request" \$status \$body_bytes_sent \${request_time}s';
    access_log /dev/stdout stack;
    client_body_temp_path $STACK/tmp/body;
    proxy_temp_path $STACK/tmp/proxy;
    fastcgi_temp_path $STACK/tmp/fastcgi;
    uwsgi_temp_path $STACK/tmp/uwsgi;
    scgi_temp_path $STACK/tmp/scgi;
    include $STACK/site.conf;
}
EOF
"$NGINX" -q -t -p "$STACK/" -e stderr -c "$STACK/nginx.conf"

# gunicorn first (make serve migrates and collects the static files), then nginx once the app
# listens. Each in a session of its own, so that only this script stops them.
rm -f "$STACK/gunicorn.pid"
GUNICORN_CMD_ARGS="--pid $STACK/gunicorn.pid ${GUNICORN_CMD_ARGS:-}" \
    setsid "${MAKE:-make}" -s --no-print-directory serve HOST=127.0.0.1 PORT="$APP_PORT" &
app=$! web=
stop() {  # gunicorn's master finishes its requests and stops its workers, then make ends
    trap '' INT TERM
    pid=$(cat "$STACK/gunicorn.pid" 2>/dev/null) || pid=  # none yet: make's whole group
    kill -TERM -- "${pid:--$app}" ${web:+"-$web"} 2>/dev/null || true
    wait
    echo "stack: stopped"
}
trap 'echo "stack: stopping nginx and gunicorn"; stop; exit 0' INT TERM
until listening "$APP_PORT"; do
    kill -0 "$app" 2>/dev/null || { echo "stack: make serve failed" >&2; stop; exit 1; }
    sleep 0.2
done
setsid "$NGINX" -p "$STACK/" -e stderr -c "$STACK/nginx.conf" &
web=$!
echo "stack: nginx on http://$HOST:$PORT/ -> gunicorn on 127.0.0.1:$APP_PORT (Ctrl-C stops both)"
wait -n && status=0 || status=$?
echo "stack: $(kill -0 "$web" 2>/dev/null && echo gunicorn || echo nginx) ended ($status)" >&2
stop
exit "$status"
