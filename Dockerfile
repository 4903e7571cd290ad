# Exhale in a container: one process, SQLite in the /data volume by default, or PostgreSQL with
# EXHALE_DATABASE_URL (see compose.yaml and docs/deploy.md).
#
#   docker build -t exhale .
#   docker run -p 8080:8080 -v exhale-data:/data exhale
#
# Two stages: the build stage compiles sqlite3 from source, installs every dependency and runs the
# install's build steps (the server to dist/, the Mini App to miniapp/dist/); the runtime stage
# keeps the production dependencies and the builds, and runs as the unprivileged `node` user.

FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# Dependencies first (a layer that changes only with the lock file); scripts run later, once the
# sources they build are here.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild sqlite3 sharp
COPY . .
RUN node scripts/postinstall.mjs \
 && test -f dist/bot/cli.js \
 && test -f miniapp/dist/index.html \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    EXHALE_HOST=0.0.0.0 \
    EXHALE_PORT=8080 \
    EXHALE_DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.EXHALE_PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "bin/exhale.mjs"]
