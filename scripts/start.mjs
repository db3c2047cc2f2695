// `npm start`: builds when there is no build yet (or the sources are newer), then serves it.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const buildEntry = "build/server/index.js";
const sourceRoots = ["app", "db", "public", "vite.config.ts", "react-router.config.ts", "package-lock.json"];

function newestModification(entry) {
  if (!existsSync(entry)) return 0;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(entry).reduce(
    (newest, name) => Math.max(newest, newestModification(path.join(entry, name))),
    stats.mtimeMs,
  );
}

const builtAt = existsSync(buildEntry) ? statSync(buildEntry).mtimeMs : 0;
const changedAt = Math.max(...sourceRoots.map(newestModification));
if (builtAt < changedAt) {
  console.log(builtAt ? "Sources changed since the last build: building…" : "No build yet: building…");
  const result = spawnSync(process.execPath, ["node_modules/@react-router/dev/bin.js", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await import("../server.js");
