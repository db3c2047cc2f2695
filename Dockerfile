# syntax=docker/dockerfile:1
# Production image: `docker build -t upstream-marketplace .` then
# `docker run -p 8080:8080 --env-file production.env upstream-marketplace`, with SESSION_SECRET,
# DATABASE_URL and every provider setting of `.env.example` (the start names any that is missing;
# DEV_OUTBOX=on instead of the providers makes a staging copy).
# Without DATABASE_URL the app falls back to embedded PGlite in /app/.data (not for production).

FROM node:20-bookworm-slim AS base
WORKDIR /app

# Build: all dependencies (the build tools are devDependencies), then the production build.
FROM base AS build
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

# Runtime dependencies only.
FROM base AS deps
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

FROM base AS runtime
ENV NODE_ENV=production \
    PORT=8080
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json server.js ./
COPY --from=build /app/build ./build
# Migrations are read at start from db/migrations relative to the working directory.
COPY db/migrations ./db/migrations
# Writable only where the app may write (PGlite's default directory when DATABASE_URL is unset).
RUN mkdir -p .data && chown node:node .data
USER node
EXPOSE 8080
CMD ["node", "server.js"]
