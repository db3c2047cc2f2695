import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CapturedRequest, providerHandlers } from "../../tests/mocks/providers";
import { DeliveryError } from "./delivery-error";
import { createPostmarkSender } from "./postmark.server";
import { createTwilioSender } from "./twilio.server";

const captured: CapturedRequest[] = [];
const server = setupServer(...providerHandlers(captured));

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  captured.length = 0;
  server.resetHandlers();
});
afterAll(() => server.close());

describe("Twilio adapter", () => {
  const twilio = createTwilioSender({ accountSid: "AC123", authToken: "secret", from: "+15875550100" });

  it("posts the message form-encoded with basic auth", async () => {
    await twilio.send("+14035550123", "Your access code is 123456");
    expect(captured).toHaveLength(1);
    const [request] = captured;
    expect(request?.url).toBe("https://api.twilio.com/2010-04-01/Accounts/AC123/Messages.json");
    expect(request?.headers.get("authorization")).toBe(`Basic ${Buffer.from("AC123:secret").toString("base64")}`);
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({
      To: "+14035550123",
      From: "+15875550100",
      Body: "Your access code is 123456",
    });
  });

  it("turns a refusal into a DeliveryError with Twilio's reason", async () => {
    await expect(twilio.send("+15550000000", "hello")).rejects.toThrow(DeliveryError);
    await expect(twilio.send("+15550000000", "hello")).rejects.toThrow(/not a valid phone number/);
  });

  it("turns an unreachable service into a DeliveryError", async () => {
    const failing = createTwilioSender({ accountSid: "AC1", authToken: "t", from: "+1" }, async () => {
      throw new TypeError("fetch failed");
    });
    await expect(failing.send("+14035550123", "hello")).rejects.toThrow(DeliveryError);
  });
});

describe("Postmark adapter", () => {
  const postmark = createPostmarkSender({ serverToken: "pm-token", from: "no-reply@upstream-marketplace.ca" });

  it("posts a plain-text e-mail with the server token", async () => {
    await postmark.send("applicant@example.com", "Reset your password", "Follow this link: https://x.test/reset");
    const [request] = captured;
    expect(request?.headers.get("x-postmark-server-token")).toBe("pm-token");
    expect(JSON.parse(request?.body ?? "{}")).toEqual({
      From: "no-reply@upstream-marketplace.ca",
      To: "applicant@example.com",
      Subject: "Reset your password",
      TextBody: "Follow this link: https://x.test/reset",
      MessageStream: "outbound",
    });
  });

  it("turns a refusal into a DeliveryError with Postmark's reason", async () => {
    await expect(postmark.send("gone@inactive.example", "s", "t")).rejects.toThrow(/marked as inactive/);
  });
});
