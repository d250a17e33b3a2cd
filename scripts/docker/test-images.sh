#!/usr/bin/env bash
# FOR TESTS ONLY: gives this machine the images compose.yaml's `scale` profile names when no
# registry can be reached. Each image that exists is kept; one that can be pulled is pulled;
# otherwise it is built here from Debian's packages under the official name (see the Dockerfiles
# in postgres/ and redis/, labelled org.switchyard.test-only). Needs debian:bookworm-slim
# (base-image.sh makes it).
set -euo pipefail
cd "$(dirname "$0")"
for pair in postgres:16-bookworm=postgres redis:7-bookworm=redis; do
  image=${pair%%=*} dir=${pair#*=}
  if docker image inspect "$image" >/dev/null 2>&1; then
    echo "test image: $image exists"
  elif timeout 60 docker pull -q "$image" >/dev/null 2>&1; then
    echo "test image: $image pulled"
  else
    started=$(date +%s)
    docker build -q -t "$image" "$dir" >/dev/null
    echo "test image: $image built from Debian packages in $(($(date +%s) - started)) s"
  fi
done
