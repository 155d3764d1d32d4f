# syntax=docker/dockerfile:1
# Three stages: the builder has the dev dependencies TypeScript needs; `deps` installs only what
# the bot needs at run time; the image that runs gets both, without npm work or compilers of its own,
# and runs as the unprivileged `node` user. Node 22 has SQLite built in (node:sqlite), so every
# install skips the one install script among the packages: better-sqlite3's compile, the driver only
# Node 20 needs. --omit=optional would not do: it also drops the canvas's binary, which /stats draws with.

FROM node:22 AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json bundle.js ./
COPY src ./src
COPY commands ./commands
RUN npm run build

FROM node:22 AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# The production install line of docs/hosting.md.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:22-slim
# HEALTH_PORT serves /healthz alone on 127.0.0.1 for the HEALTHCHECK below. It is not in .env.example,
# so `docker run --env-file .env` cannot blank it the way an empty METRICS_PORT= line turns metrics off.
ENV NODE_ENV=production \
    METRICS_PORT=9464 \
    METRICS_HOST=0.0.0.0 \
    HEALTH_PORT=9465
WORKDIR /app
COPY package.json package-lock.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The font /stats draws its text with, so the picture reads the same on every host.
COPY assets ./assets
# ./data holds the bot's state; a volume mounted here keeps it across restarts and new images.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 9464
# Node's own fetch: the slim image has no curl, and none is needed. A standby (another container
# holds the PostgreSQL store) answers 200 too: it is well, waiting to take over.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.HEALTH_PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is PID 1's command (no npm, no shell), so SIGTERM from `docker stop` reaches the bot,
# which drains interactions in flight and exits 0. Must equal package.json's start script.
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=10", "--v8-pool-size=1", "dist/bundle/src/processes/bot.js"]
