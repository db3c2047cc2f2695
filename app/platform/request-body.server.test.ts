import { describe, expect, it } from "vitest";
import { readApiBody } from "~/api/api-responses.server";
import { readBody, readFormBody } from "./request-body.server";

const post = (body: BodyInit | null, contentType?: string) =>
  new Request("http://app.test/form", {
    method: "POST",
    body,
    headers: contentType ? { "content-type": contentType } : {},
  });

async function thrownStatus(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { status?: number; init?: { status?: number } }).init?.status ?? (error as Response).status;
  }
}

describe("the one request-body reader", () => {
  it("reads a form-encoded page form", async () => {
    const form = await readFormBody(post("name=Dana&name=Robin&city=Nisku", "application/x-www-form-urlencoded"));
    expect(form.getAll("name")).toEqual(["Dana", "Robin"]);
    expect(form.get("city")).toBe("Nisku");
  });

  it.each([
    ["JSON", '{"a":1}', "application/json", 415],
    ["no content type", "a=1", undefined, 415],
    ["text/plain", "a=1", "text/plain", 415],
    ["multipart where the page takes no files", "--x--", "multipart/form-data; boundary=x", 415],
    ["invalid UTF-8", new Uint8Array([0x61, 0x3d, 0xff]), "application/x-www-form-urlencoded", 400],
    ["over 1 MB", `a=${"x".repeat(1_000_001)}`, "application/x-www-form-urlencoded", 413],
  ])("refuses %s on a page with %s", async (_case, body, type, status) => {
    expect(await thrownStatus(readFormBody(post(body, type)))).toBe(status);
  });

  it("reads multipart only where the route takes files, and refuses a broken one with 400", async () => {
    const form = new FormData();
    form.append("amount", "12");
    const encoded = new Request("http://app.test/", { method: "POST", body: form });
    const type = encoded.headers.get("content-type") ?? "";
    const read = await readFormBody(post(await encoded.arrayBuffer(), type), { multipart: true });
    expect(read.get("amount")).toBe("12");
    const broken = await readBody(post("--x\r\nnonsense", "multipart/form-data; boundary=x"), {
      accept: ["multipart"],
    });
    expect(broken).toMatchObject({ kind: "refused", refusal: { status: 400 } });
  });

  it("takes an empty body without a type as an empty form (a button that posts nothing)", async () => {
    expect([...(await readFormBody(post(null)))]).toEqual([]);
  });

  it.each([
    ["malformed JSON", '{"a":', "application/json", 400],
    ["a JSON array", "[1]", "application/json", 400],
    ["no content type", '{"a":1}', undefined, 415],
    ["XML", "<a/>", "application/xml", 415],
    ["over 1 MB", JSON.stringify({ a: "x".repeat(1_000_001) }), "application/json", 413],
  ])("answers /api %s with %s in the API's error shape", async (_case, body, type, status) => {
    try {
      await readApiBody(post(body, type));
      expect.unreachable();
    } catch (error) {
      expect((error as Response).status).toBe(status);
      expect(await (error as Response).json()).toHaveProperty("errors.form");
    }
  });
});
