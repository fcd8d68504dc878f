# syntax=docker/dockerfile:1
# One image per service, built from this one file: SERVICE picks the entry point.
#   docker build --build-arg SERVICE=wallet -t pwa-wallet .
# SERVICE is one of: gateway auth wallet quotes collections disbursements webhooks.
# docker-compose.yml builds all seven this way.
#
# Note: `npm ci` needs a lockfile that lists every optional platform package. Against the public
# npm registry that holds; a mirror lacking the non-Linux builds (of @swc/core, say) makes npm ci
# refuse the lockfile (see .ci/run), and such a mirror needs `npm install` in its place.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund \
 && npm run build \
 && npm prune --omit=dev --no-audit --no-fund
# The runtime tree: manifests, production node_modules (the @pwa/* workspace links are relative
# symlinks and stay valid), compiled libs and services, and the SQL migrations the services run at
# boot. No sources, tests or dev dependencies.
RUN mkdir /out \
 && cp -a --parents package.json node_modules \
      libs/*/package.json libs/*/dist \
      services/*/package.json services/*/dist services/*/migrations \
      /out/ \
 && find /out/libs /out/services -name '*.tsbuildinfo' -delete

FROM ${NODE_IMAGE} AS runtime
ARG SERVICE
RUN test -n "$SERVICE" || { echo 'build with --build-arg SERVICE=<gateway|auth|wallet|quotes|collections|disbursements|webhooks>' >&2; exit 1; }
ENV NODE_ENV=production \
    SERVICE=${SERVICE}
WORKDIR /app
COPY --from=build --chown=root:root /out/ /app/
RUN test -f "services/${SERVICE}/dist/main.js" || { echo "no such service: ${SERVICE}" >&2; exit 1; } \
 && printf '%s\n' '#!/bin/sh' 'set -e' 'exec node "/app/services/${SERVICE}/dist/main.js" "$@"' > /usr/local/bin/pwa-service \
 && chmod 0755 /usr/local/bin/pwa-service
# The code is owned by root and read-only to the service; it runs as the image's unprivileged user.
USER node
# Liveness: /healthz on the service's port (the gateway serves it on its admin port only).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "const e=process.env,d={auth:4101,wallet:4102,quotes:4103,collections:4104,disbursements:4105,webhooks:4106};const p=e.SERVICE==='gateway'?(e.ADMIN_PORT||9400):(e.PORT||d[e.SERVICE]);fetch('http://127.0.0.1:'+p+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/pwa-service"]
