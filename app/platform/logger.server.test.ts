import { DrizzleQueryError } from "drizzle-orm/errors";
import { afterEach, describe, expect, it } from "vitest";
import { captureLogLines } from "../../tests/support/log-lines";
import { configureLogger, logger, withoutWordsOf } from "./logger.server";

describe("the logger", () => {
  const log = captureLogLines();
  afterEach(() => {
    log.clear();
    configureLogger({ level: "silent" });
  });

  it("writes one JSON line per call at the configured level, and nothing below it", () => {
    configureLogger({ level: "warn", destination: log.destination });
    logger.info("not written");
    logger.warn({ auctionId: 7 }, "written");
    expect(log.lines()).toEqual([
      expect.objectContaining({ level: 40, msg: "written", auctionId: 7, time: expect.stringMatching(/Z$/) }),
    ]);
  });

  it("writes an error's type, message and stack", () => {
    configureLogger({ level: "info", destination: log.destination });
    logger.error({ err: new TypeError("no such thing") }, "it failed");
    const [line] = log.lines();
    expect(line?.err).toMatchObject({ type: "TypeError", message: "no such thing" });
    expect(line?.err?.stack).toMatch(/^TypeError: no such thing\n\s+at /);
  });

  it("redacts the headers that carry secrets, should anything log headers", () => {
    configureLogger({ level: "info", destination: log.destination });
    const headers = { cookie: "session=abc123", authorization: "Bearer umk_secret", "set-cookie": "session=def456" };
    logger.info({ headers, req: { headers }, res: { headers } }, "headers");
    const text = log.text();
    for (const secret of ["abc123", "umk_secret", "def456"]) expect(text).not.toContain(secret);
    expect(log.lines()[0]?.headers).toEqual({
      cookie: "[redacted]",
      authorization: "[redacted]",
      "set-cookie": "[redacted]",
    });
  });

  it("keeps a failed query's statement but not its parameters (Drizzle puts them in the message)", () => {
    configureLogger({ level: "info", destination: log.destination });
    const error = new DrizzleQueryError(
      'select * from "users" where "password_hash" = $1',
      ["secret-hash-123"],
      new Error("connection terminated"),
    );
    logger.error({ err: error }, "query failed");
    const text = log.text();
    expect(text).not.toContain("secret-hash-123");
    const [line] = log.lines();
    expect(line?.err?.message).toContain('Failed query: select * from "users" where "password_hash" = $1');
    expect(line?.err?.message).toContain("params: [redacted]");
    expect(line?.err?.stack).toContain("params: [redacted]");
    expect(line?.err?.stack).toContain("caused by: Error: connection terminated");
    expect(line?.err?.params).toBe("[redacted]");
  });
});

describe("withoutWordsOf", () => {
  it("takes a message's codes and link tokens out of a provider's answer that quotes it", () => {
    const sms =
      "Your Upstream Marketplace code is 482913. Set a password: https://market.example.ca/set-password/Zx9_aaBBccDDeeFFggHH";
    const answer = "Refused: body 'Your Upstream Marketplace code is 482913' and token Zx9_aaBBccDDeeFFggHH";
    expect(withoutWordsOf(answer, sms)).toBe(
      "Refused: body 'Your Upstream Marketplace code is [redacted]' and token [redacted]",
    );
  });
});
