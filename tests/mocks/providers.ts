import { HttpResponse, http } from "msw";

/** What the fake Twilio and Postmark received, for assertions. */
export type CapturedRequest = { url: string; headers: Headers; body: string };

/** MSW handlers for Twilio's Messages resource and Postmark's e-mail endpoint (the network edge only). */
export function providerHandlers(captured: CapturedRequest[]) {
  return [
    http.post("https://api.twilio.com/2010-04-01/Accounts/:sid/Messages.json", async ({ request }) => {
      const body = await request.text();
      captured.push({ url: request.url, headers: request.headers, body });
      const to = new URLSearchParams(body).get("To") ?? "";
      if (to === "+15550000000") {
        return HttpResponse.json(
          { code: 21211, message: "The 'To' number +15550000000 is not a valid phone number.", status: 400 },
          { status: 400 },
        );
      }
      return HttpResponse.json({ sid: "SM123", status: "queued" }, { status: 201 });
    }),
    http.post("https://api.postmarkapp.com/email", async ({ request }) => {
      const body = await request.text();
      captured.push({ url: request.url, headers: request.headers, body });
      const message = JSON.parse(body) as { To: string };
      if (message.To.endsWith("@inactive.example")) {
        return HttpResponse.json(
          { ErrorCode: 406, Message: "You tried to send to a recipient that has been marked as inactive." },
          { status: 422 },
        );
      }
      return HttpResponse.json({ ErrorCode: 0, Message: "OK", MessageID: "b7bc2f4a" });
    }),
  ];
}
