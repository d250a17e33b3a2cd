# The single executable in a slim Debian. Build the file first, then the image, then run it:
#   npm ci && npm run package && docker build -t switchyard .
#   docker run -d -p 3000:3000 -v switchyard-data:/data switchyard
# Nothing else from the repository enters the image (.dockerignore). The executable is tested by
# scripts/sea.test.ts, the image and compose.yaml by test/docker/container.test.ts; this recipe only
# gives the executable a user, a volume and a health check.
FROM debian:bookworm-slim

# jemalloc: the executable preloads it when present, as `npm start` does (docs/performance.md).
RUN apt-get update \
 && apt-get install -y --no-install-recommends libjemalloc2 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin switchyard \
 && mkdir /data && chown switchyard:switchyard /data

COPY dist/switchyard-linux-x64 /usr/local/bin/switchyard

USER switchyard
WORKDIR /data
ENV DATA_DIR=/data HOST=0.0.0.0 PORT=3000
VOLUME /data
EXPOSE 3000
# The executable asks its own /healthz (the image has no curl).
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s CMD ["switchyard", "healthcheck"]
ENTRYPOINT ["switchyard"]
