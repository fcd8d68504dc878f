# syntax=docker/dockerfile:1
# One image holds all seven services; the container's command chooses one:
#   docker build -t partner-wallet-api:local .
#   docker run ... partner-wallet-api:local node services/wallet/dist/main.js      # a service
#   docker run ... partner-wallet-api:local node services/wallet/dist/migrate.js   # its migrations
# The Helm chart (image.repository) and docker-compose.yml run this image the same way
# (docs/operations.md, "The image").
#
# Note: `npm ci` needs a lockfile that lists every optional platform package. Against the public
# npm registry that holds; a mirror lacking the non-Linux builds (of @swc/core, say) makes npm ci
# refuse the lockfile (see .ci/run), and such a mirror needs `npm install` in its place.

# Node.js 24, the current LTS (20 reached its end of life on 2026-04-30), pinned by digest: the
# same bytes on every build until someone moves the pin (Renovate or Dependabot's docker ecosystem
# proposes the new digest; docs/operations.md, "Supply chain"). Every stage uses it.
ARG NODE_IMAGE=node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Dependencies first, from the manifests alone: this layer and `npm ci` stay cached until a
# package.json or the lockfile changes. Every workspace's package.json is listed (npm ci links the
# workspaces from them); test/deploy/dockerfile.test.ts fails when one is missing.
COPY package.json package-lock.json ./
COPY libs/audit/package.json libs/audit/
COPY libs/bus/package.json libs/bus/
COPY libs/config/package.json libs/config/
COPY libs/contracts/package.json libs/contracts/
COPY libs/db/package.json libs/db/
COPY libs/errors/package.json libs/errors/
COPY libs/http/package.json libs/http/
COPY libs/logging/package.json libs/logging/
COPY libs/money/package.json libs/money/
COPY libs/phone/package.json libs/phone/
COPY libs/redis/package.json libs/redis/
COPY libs/runtime/package.json libs/runtime/
COPY libs/sealing/package.json libs/sealing/
COPY libs/telemetry/package.json libs/telemetry/
COPY libs/web-auth/package.json libs/web-auth/
COPY services/auth/package.json services/auth/
COPY services/backoffice/package.json services/backoffice/
COPY services/collections/package.json services/collections/
COPY services/dashboard/package.json services/dashboard/
COPY services/disbursements/package.json services/disbursements/
COPY services/gateway/package.json services/gateway/
COPY services/quotes/package.json services/quotes/
COPY services/wallet/package.json services/wallet/
COPY services/webhooks/package.json services/webhooks/
COPY sdk/package.json sdk/
RUN npm ci --no-audit --no-fund
# Then the sources, the build, and the production dependencies only.
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund
# The runtime tree: manifests, production node_modules (the @pwa/* workspace links are relative
# symlinks and stay valid), compiled libs and services, and the SQL migrations the services run at
# boot (their own, and libs/bus's outbox and inbox ones that every service applies to its schema).
# No sources, tests or dev dependencies.
RUN mkdir /out \
 && cp -a --parents package.json node_modules \
      libs/*/package.json libs/*/dist libs/*/migrations \
      services/*/package.json services/*/dist services/*/migrations \
      /out/ \
 && find /out/libs /out/services -name '*.tsbuildinfo' -delete

# The backup image (`docker build --target backup -t partner-wallet-api:<tag>-backup .`): the
# runtime's code and user plus PostgreSQL's client programs (pg_dump, pg_restore), which the runtime
# image leaves out, for the chart's backup CronJob (backup-database) and a restore from a pod.
# pg_dump must be of the server's major version or newer: Debian bookworm's postgresql-client is
# 15; for a newer server pass a package from the PostgreSQL apt repository (PGDG), e.g.
# --build-arg POSTGRESQL_CLIENT=postgresql-client-17 with that repository added (docs/operations.md,
# "Backup and restore").
FROM ${NODE_IMAGE} AS backup
ARG POSTGRESQL_CLIENT=postgresql-client
ENV NODE_ENV=production
RUN apt-get update \
 && apt-get install --yes --no-install-recommends "${POSTGRESQL_CLIENT}" \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 pwa \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin pwa
WORKDIR /app
COPY --from=build --chown=root:root /out/ /app/
USER 10001:10001
CMD ["node", "libs/runtime/dist/database-backup/main.js"]

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
# A fixed unprivileged user, uid/gid 10001: the chart's podSecurityContext (runAsUser/runAsGroup
# 10001), so files and the user match whether Kubernetes or docker chooses the uid.
RUN groupadd --system --gid 10001 pwa \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin pwa
WORKDIR /app
# The code is owned by root and read-only to the service.
COPY --from=build --chown=root:root /out/ /app/
USER 10001:10001
STOPSIGNAL SIGTERM
# No default service: the command chooses one (see the top of this file).
CMD ["node", "-e", "console.error('partner-wallet-api: give the command, e.g. node services/wallet/dist/main.js (or .../migrate.js); services: gateway auth wallet quotes collections disbursements webhooks backoffice dashboard'); process.exit(64)"]
