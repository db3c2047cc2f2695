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

  it("answers Twilio's message sid", async () => {
    expect(await twilio.send("+14035550123", "hello")).toBe("SM123");
  });

  it("turns a refusal into a permanent DeliveryError with Twilio's reason", async () => {
    const error = await twilio.send("+15550000000", "hello").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ permanent: true, message: expect.stringMatching(/21211.*not a valid phone number/) });
  });

  it("turns an unreachable service, a 5xx or a 429 into a transient DeliveryError", async () => {
    const failing = createTwilioSender({ accountSid: "AC1", authToken: "t", from: "+1" }, async () => {
      throw new TypeError("fetch failed");
    });
    await expect(failing.send("+14035550123", "hello")).rejects.toMatchObject({ permanent: false });
    for (const status of [500, 503, 429]) {
      const busy = createTwilioSender({ accountSid: "AC1", authToken: "t", from: "+1" }, async () =>
        Response.json({ message: "busy" }, { status }),
      );
      await expect(busy.send("+14035550123", "hello")).rejects.toMatchObject({ permanent: false });
    }
  });

  it("posts to TWILIO_API_URL when one is given", async () => {
    const seen: string[] = [];
    const local = createTwilioSender(
      { accountSid: "AC9", authToken: "t", from: "+1", apiUrl: "http://127.0.0.1:9/" },
      async (input) => {
        seen.push(String(input));
        return Response.json({ sid: "SM9" }, { status: 201 });
      },
    );
    await local.send("+14035550123", "hello");
    expect(seen).toEqual(["http://127.0.0.1:9/2010-04-01/Accounts/AC9/Messages.json"]);
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

  it("answers Postmark's MessageID and sends attachments as Postmark's Attachments", async () => {
    expect(
      await postmark.send("buyer@example.com", "Invoice 1", "Attached.", [
        { name: "invoice-1.pdf", contentType: "application/pdf", contentBase64: "JVBERi0=" },
      ]),
    ).toBe("b7bc2f4a");
    expect(JSON.parse(captured[0]?.body ?? "{}").Attachments).toEqual([
      { Name: "invoice-1.pdf", Content: "JVBERi0=", ContentType: "application/pdf" },
    ]);
  });

  it("turns a refusal (422 with an ErrorCode) into a permanent DeliveryError with Postmark's reason", async () => {
    const error = await postmark.send("gone@inactive.example", "s", "t").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({
      permanent: true,
      message: expect.stringMatching(/ErrorCode 406.*marked as inactive/),
    });
  });

  it("turns an outage (unreachable, 5xx, 429) into a transient DeliveryError", async () => {
    const unreachable = createPostmarkSender({ serverToken: "t", from: "f@x.example" }, async () => {
      throw new TypeError("fetch failed");
    });
    await expect(unreachable.send("a@example.com", "s", "t")).rejects.toMatchObject({ permanent: false });
    for (const status of [500, 503, 429]) {
      const busy = createPostmarkSender(
        { serverToken: "t", from: "f@x.example", apiUrl: "http://127.0.0.1:9" },
        async () => Response.json({ Message: "busy" }, { status }),
      );
      await expect(busy.send("a@example.com", "s", "t")).rejects.toMatchObject({ permanent: false });
    }
  });
});
