# syntax=docker/dockerfile:1
# RecoveryQuote in production: docs/deploy.md. The runtime stage holds exactly the files the
# production test (api/production-image.test.ts) copies into a temporary folder and starts: the
# `COPY --from=build` lines below are read by that test, and so is the CMD, which must carry the
# node flags of package.json's start script. Docker cannot run on the machine the tests run on,
# so the test gets the same production-only node_modules by pruning a full install per the same
# lockfile (`npm prune --omit=dev`) where this file runs `npm ci --omit=dev`.
ARG NODE_IMAGE=node:20-bookworm-slim

# A toolchain, for better-sqlite3 should no prebuilt binary match the platform.
FROM ${NODE_IMAGE} AS toolchain
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app

# Build: every dependency, then the front ends and the server bundle (dist/). Also the tools
# image of docs/deploy.md (`--target build`): backup and restore need tsx, a dev dependency.
FROM toolchain AS build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Production dependencies only, per the same lockfile.
FROM toolchain AS prod-deps
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_PATH=/data/recovery.db
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/package-lock.json ./package-lock.json
COPY --from=build /app/dist ./dist
COPY --from=build /app/api/platform/db/migrations ./api/platform/db/migrations
COPY --from=build /app/api/engine/distance/data/postcodes.bin ./api/engine/distance/data/postcodes.bin
# The SQLite file, its -wal and -shm, and the Litestream state beside them live on the volume.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# npm start's node flags (package.json), without its build: the image is built already.
CMD ["node", "--enable-source-maps", "--max-semi-space-size=8", "--max-old-space-size=1024", "dist/server.mjs"]
