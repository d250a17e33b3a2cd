#!/bin/sh
# As the official image: redis-server without a config file answers other containers (Debian's
# binary keeps protected mode on when started bare, which refuses them) and runs as the redis user.
set -eu
if [ "$1" = redis-server ]; then
  shift
  exec setpriv --reuid=redis --regid=redis --init-groups redis-server --protected-mode no "$@"
fi
exec "$@"
