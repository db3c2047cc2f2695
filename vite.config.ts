import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  environments: {
    // The server bundle's entry is our own server module, which wraps the React Router build
    // with the database, security headers and the static page cache.
    ssr: { build: { rollupOptions: { input: "./app/server/server-app.ts" } } },
  },
  plugins: [reactRouter()],
});
