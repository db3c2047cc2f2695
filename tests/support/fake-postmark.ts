import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createTestServer } from "./test-server";

export type FakePostmarkMessage = { To: string; Subject: string; TextBody: string; Attachments?: unknown[] };

/**
 * A fake Postmark on localhost (set POSTMARK_API_URL to `url`): answers 503 to the next `failNext`
 * requests (an outage), 422 with ErrorCode 406 for addresses at inactive.example, 503 always for
 * addresses at down.example, and 200 with a MessageID otherwise. `delivered` holds what it accepted,
 * `answers` every answer with its time.
 */
export async function startFakePostmark(options: { delayMs?: number } = {}) {
  const state = {
    failNext: 0,
    requests: 0,
    delivered: [] as FakePostmarkMessage[],
    /** Every request as it was answered: to whom, the status, and when it came in (Date.now()). */
    answers: [] as { to: string; subject: string; status: number; at: number }[],
  };
  const server: Server = createTestServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      state.requests += 1;
      const receivedAt = Date.now();
      const answer = () => {
        const message = JSON.parse(Buffer.concat(chunks).toString("utf8")) as FakePostmarkMessage;
        res.setHeader("content-type", "application/json");
        res.on("finish", () =>
          state.answers.push({ to: message.To, subject: message.Subject, status: res.statusCode, at: receivedAt }),
        );
        if (req.url !== "/email" || req.headers["x-postmark-server-token"] !== "server-token") {
          res.writeHead(401).end(JSON.stringify({ ErrorCode: 10, Message: "Bad or missing Server API token." }));
        } else if (state.failNext > 0) {
          state.failNext -= 1;
          res.writeHead(503).end(JSON.stringify({ Message: "Service Unavailable" }));
        } else if (message.To.endsWith("@inactive.example")) {
          res.writeHead(422).end(
            JSON.stringify({
              ErrorCode: 406,
              Message: "You tried to send to a recipient that has been marked as inactive.",
            }),
          );
        } else if (message.To.endsWith("@down.example")) {
          res.writeHead(503).end(JSON.stringify({ Message: "Service Unavailable" }));
        } else {
          state.delivered.push(message);
          res.writeHead(200).end(
            JSON.stringify({
              ErrorCode: 0,
              Message: "OK",
              MessageID: `pm-${state.delivered.length}`,
              To: message.To,
            }),
          );
        }
      };
      if (options.delayMs) setTimeout(answer, options.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    state,
    /** The app settings that send e-mail here. */
    environment: {
      POSTMARK_API_URL: url,
      POSTMARK_SERVER_TOKEN: "server-token",
      MAIL_FROM: "noreply@upstream.example",
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `check` until it answers true (bounded): waiting for an outcome, never for a time. */
export async function eventually(check: () => Promise<boolean>, what: string, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
