#!/usr/bin/env bash
# Makes sure a Docker daemon answers: prints "running" when one does, otherwise starts Debian's
# dockerd in the background (as root) and prints "started <pid>". Where the default overlay2
# storage or iptables is not available (some containers and VMs) it retries with vfs storage and
# without iptables. Used by .ci/run and test/docker/ alike. Exit 1 (with the reason) when no
# daemon can be had.
set -uo pipefail
log=${DOCKERD_LOG:-/tmp/switchyard-dockerd.log}
if docker info >/dev/null 2>&1; then
  echo running
  exit 0
fi
command -v dockerd >/dev/null 2>&1 || { echo "no dockerd (apt-get install docker.io)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "the Docker daemon is not running and starting it needs root"; exit 1; }
for flags in "" "--storage-driver=vfs --iptables=false"; do
  # shellcheck disable=SC2086 # the flags are words
  setsid dockerd $flags >"$log" 2>&1 </dev/null &
  pid=$!
  for _ in $(seq 1 60); do
    if docker info >/dev/null 2>&1; then
      echo "started $pid${flags:+ ($flags)}"
      exit 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  kill "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
done
echo "dockerd did not start: $(tail -n 3 "$log" | tr '\n' ' ')"
exit 1
