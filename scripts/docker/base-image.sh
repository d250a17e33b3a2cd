#!/usr/bin/env bash
# Makes the image `debian:bookworm-slim` locally, for machines that cannot pull from a registry
# (CI here reaches Debian's mirror but no Docker registry). Debian's own minimal root file system
# (debootstrap --variant=minbase, the same package set the official slim image starts from) is
# imported under that name, so the Dockerfile builds unchanged. Cached: nothing happens when the
# image exists. Needs root, debootstrap and a running Docker daemon. About a minute.
set -euo pipefail
image=debian:bookworm-slim
if docker image inspect "$image" >/dev/null 2>&1; then
  echo "base image: $image exists"
  exit 0
fi
# The mirror apt uses here (deb822 or one-line sources), else Debian's default.
mirror=$(grep -hoE 'https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null |
  grep -v security | head -n1 | tr -d ' ' || true)
mirror=${mirror:-http://deb.debian.org/debian}
root=$(mktemp -d /tmp/switchyard-bookworm-XXXXXX)
trap 'rm -rf "$root"' EXIT
started=$(date +%s)
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.log" 2>&1 || {
  tail -n 30 "$root.log"
  exit 1
}
rm -f "$root.log"
# What the official slim image also leaves out: apt's downloaded lists and packages, docs.
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/archives/*.deb "$root"/usr/share/doc/* "$root"/usr/share/man/*
# The real image points apt at deb.debian.org (the mirror chosen here may be local).
printf 'deb http://deb.debian.org/debian bookworm main\ndeb http://deb.debian.org/debian bookworm-updates main\ndeb http://deb.debian.org/debian-security bookworm-security main\n' >"$root/etc/apt/sources.list"
tar -C "$root" -c . | docker import --change 'CMD ["bash"]' - "$image" >/dev/null
echo "base image: $image imported from debootstrap ($mirror) in $(($(date +%s) - started)) s"
