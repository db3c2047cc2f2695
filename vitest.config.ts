import { defineConfig } from "vitest/config";

const integration = "**/*.integration.test.ts";
const e2e = "tests/e2e/**/*.e2e.test.ts";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    reporters: ["default", "./tests/support/summary-reporter.ts"],
    // Vitest's default is one worker per CPU but one (on 2 CPUs: one worker), while the integration
    // files wait on PostgreSQL, HTTP and timers much of their time: two keep both CPUs busy (the unit
    // and integration projects share one group, so they share this number).
    maxWorkers: 2,
    // The apps the tests start log nothing (tens of thousands of requests) unless a test asks for its
    // lines (startTestApp's logDestination) or LOG_LEVEL is set for the run.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" },
    exclude: ["**/node_modules/**", "build/**", ".react-router/**"],
    // The production build is loaded by Node itself, as `node server.js` loads it (it bundles its own
    // react-router, decision 023).
    server: { deps: { external: [/\/build\/server\//] } },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          isolate: false,
          include: ["app/**/*.test.ts", "db/**/*.test.ts"],
          exclude: ["**/node_modules/**", integration, e2e],
        },
      },
      {
        // Real databases: PGlite always, PostgreSQL too when DATABASE_URL is set.
        extends: true,
        test: {
          name: "integration",
          include: [integration],
          // One module graph per worker, not per file: the app's modules and PGlite's WebAssembly
          // load once per worker instead of 50 times (unit and integration: 479 s to 308 s on one
          // machine, decision 026). Safe while no file mocks modules or stubs globals (none does:
          // the database is never mocked, and outside services are faked at the network by MSW).
          isolate: false,
          // They run the production build: without one the run fails, saying so (never skips).
          globalSetup: ["tests/support/require-build.ts", "tests/support/database-templates.ts"],
          // Checks every /api answer the tests receive against the API description (fails the test).
          setupFiles: ["tests/support/openapi-answer-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Chromium against the production build served by `node server.js`.
        extends: true,
        test: {
          name: "e2e",
          include: [e2e],
          // One module graph per worker here too (Playwright's client, the app's modules and PGlite
          // for the files that start their own app): the project's test workers' CPU 164 s to 115 s,
          // its wall time 278 s to 261 s. Each file still connects its own browser and app.
          isolate: false,
          globalSetup: ["tests/support/database-templates.ts", "tests/e2e/global-setup.ts"],
          // Fails any test during which a page raised an error (a hydration mismatch included).
          setupFiles: ["tests/e2e/page-errors-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
          // Runs after the unit and integration projects, so the browser has both cores.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
