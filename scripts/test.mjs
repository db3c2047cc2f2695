// `npm test`: the type check and the linter run beside the build and the tests instead of before
// them (they need neither), so their half-minute is spent while the tests wait on browsers and
// databases. Their output is held until they end, so it never interleaves with the tests'. Exits
// non-zero when any part fails; each part's time is printed at the end.
import { spawn } from "node:child_process";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const extraArguments = process.argv.slice(2);

function run(name, command, args, { quiet }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit" });
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", (error) => {
      output += String(error);
    });
    child.on("close", (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      if (quiet) process.stdout.write(`\n── ${name} (${code === 0 ? "passed" : "FAILED"}, ${seconds} s) ──\n${output}`);
      resolve({ name, ok: code === 0, seconds });
    });
  });
}

const started = Date.now();
const checks = [
  run("typecheck", npm, ["run", "-s", "typecheck"], { quiet: true }),
  run("lint", npm, ["run", "-s", "lint"], { quiet: true }),
];
const build = await run("build", npm, ["run", "-s", "build"], { quiet: true });
const tests = build.ok
  ? await run("vitest", process.execPath, ["node_modules/vitest/vitest.mjs", "run", ...extraArguments], {
      quiet: false,
    })
  : { name: "vitest", ok: false, seconds: 0 };
const results = [...(await Promise.all(checks)), build, tests];
const total = Math.round((Date.now() - started) / 1000);
process.stdout.write(
  `\nnpm test: ${results.map((r) => `${r.name} ${r.ok ? "ok" : "FAILED"} ${r.seconds} s`).join(", ")}; ${total} s in all\n`,
);
if (!build.ok) process.stdout.write("The build failed, so the tests did not run.\n");
process.exit(results.every((r) => r.ok) ? 0 : 1);
