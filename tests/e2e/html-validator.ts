import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { freePort } from "../support/free-port";

// The W3C Nu validator as a local web service, started once per run: a Java start per check cost
// more than the checks themselves (each of some 16 files started its own JVM).

const vnuJar = path.resolve("node_modules/vnu-jar/build/dist/vnu.jar");

/** Where the validator answers, or why it could not start (said by every check that needs it). */
export type HtmlValidator = { url: string } | { error: string };

/** Starts the validator's servlet on a free local port; `stop` ends it. */
export async function startHtmlValidator(): Promise<{ validator: HtmlValidator; stop(): Promise<void> }> {
  const port = await freePort();
  let output = "";
  let java: ChildProcess;
  try {
    // The default thread stack is too small for the validator's schema (it overflows on real pages).
    java = spawn(
      "java",
      [
        "-Xss8m",
        // A service for one run of a few hundred pages: the quick compiler alone and one GC thread
        // cost the run's two CPUs less than the JVM's defaults (which suit a long-lived server).
        "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC",
        "-Dnu.validator.servlet.bind-address=127.0.0.1",
        "-cp",
        vnuJar,
        "nu.validator.servlet.Main",
        String(port),
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
  } catch (error) {
    return { validator: { error: `The HTML validator needs Java: ${String(error)}` }, stop: async () => {} };
  }
  java.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  java.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const failed = new Promise<string>((resolve) => {
    java.once("error", (error) =>
      resolve(`The HTML validator needs Java (apt-get install default-jre-headless): ${error.message}`),
    );
    java.once("exit", (code) => resolve(`The HTML validator stopped (exit ${code}):\n${output.slice(-2000)}`));
  });
  const stop = async () => {
    if (java.exitCode !== null || java.signalCode !== null) return;
    const exited = new Promise((resolve) => java.once("exit", resolve));
    java.kill("SIGTERM");
    await exited;
  };
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 120_000;
  let stopped: string | undefined;
  void failed.then((reason) => {
    stopped = reason;
  });
  while (Date.now() < deadline && !stopped) {
    try {
      if ((await fetch(url)).ok) return { validator: { url }, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  return {
    validator: { error: stopped ?? `The HTML validator did not answer within 120 s:\n${output.slice(-2000)}` },
    stop,
  };
}
