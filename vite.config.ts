import { createRequire } from "node:module";
import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// react-router 7's package exports name only its development build (remix-run/react-router#14102,
// fixed in 8, which needs Node 22): a production build imports its production build by path instead.
// It has no development warnings and checks (decision 023). The server bundle includes react-router
// and @react-router/node (which imports it), so the server loads one copy of it.
const reactRouterFolder = path.dirname(createRequire(import.meta.url).resolve("react-router/package.json"));
const reactRouterProduction = (file: string) => path.join(reactRouterFolder, "dist/production", file);

export default defineConfig(({ command }) => {
  const production = command === "build";
  return {
    resolve: {
      tsconfigPaths: true,
      alias: production
        ? [
            { find: /^react-router$/, replacement: reactRouterProduction("index.mjs") },
            { find: /^react-router\/dom$/, replacement: reactRouterProduction("dom-export.mjs") },
          ]
        : [],
    },
    environments: {
      // The server bundle's entry is our own server module, which wraps the React Router build
      // with the database, security headers and the static page cache.
      ssr: {
        build: { rollupOptions: { input: "./app/server/server-app.ts" } },
        resolve: production ? { noExternal: ["react-router", "@react-router/node"] } : {},
      },
    },
    plugins: [reactRouter()],
  };
});
