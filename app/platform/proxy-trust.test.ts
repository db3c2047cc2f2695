import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { readEnvironment } from "./env.server";
import { clientAddressOf, isHttps } from "./node-http.server";
import { type ProxyTrust, proxyTrustOf } from "./proxy-trust";

const SOCKET = "203.0.113.9";

/** A request as node:http hands it over: lower-case headers, the socket it came on. */
function request(headers: Record<string, string | string[]>, encrypted = false): IncomingMessage {
  return { headers, socket: { remoteAddress: SOCKET, encrypted } } as unknown as IncomingMessage;
}

const none = proxyTrustOf(readEnvironment({}));
const fly = proxyTrustOf(readEnvironment({ TRUST_PROXY: "fly" }));
const hops = (count: number) => proxyTrustOf(readEnvironment({ TRUSTED_PROXY_HOPS: String(count) }));

describe("proxyTrustOf", () => {
  it("trusts no proxy unless told which", () => {
    expect(none).toEqual({ kind: "none" });
    expect(proxyTrustOf(readEnvironment({ TRUST_PROXY: "off" }))).toEqual({ kind: "none" });
    expect(fly).toEqual({ kind: "fly" });
    expect(hops(2)).toEqual({ kind: "hops", hops: 2 });
  });
});

describe("clientAddressOf", () => {
  it("without a trusted proxy, is the socket's address: X-Forwarded-For and Fly-Client-IP are the client's own words", () => {
    expect(clientAddressOf(request({}), none)).toBe(SOCKET);
    expect(clientAddressOf(request({ "x-forwarded-for": "10.0.0.1" }), none)).toBe(SOCKET);
    expect(clientAddressOf(request({ "x-forwarded-for": "10.0.0.1, 10.0.0.2" }), none)).toBe(SOCKET);
    expect(clientAddressOf(request({ "fly-client-ip": "10.0.0.3" }), none)).toBe(SOCKET);
  });

  it("with TRUST_PROXY=fly, is Fly-Client-IP (set by Fly's proxy), never X-Forwarded-For", () => {
    const headers = { "fly-client-ip": "198.51.100.7", "x-forwarded-for": "10.0.0.1, 198.51.100.7" };
    expect(clientAddressOf(request(headers), fly)).toBe("198.51.100.7");
    expect(clientAddressOf(request({ "x-forwarded-for": "10.0.0.1" }), fly)).toBe(SOCKET);
    expect(clientAddressOf(request({ "fly-client-ip": "" }), fly)).toBe(SOCKET);
  });

  it("with TRUSTED_PROXY_HOPS=N, is the entry N from the right of X-Forwarded-For (what our outermost proxy saw)", () => {
    // The client wrote 10.0.0.1 itself; our proxies appended the rest.
    const headers = { "x-forwarded-for": "10.0.0.1, 198.51.100.7, 192.0.2.1" };
    expect(clientAddressOf(request(headers), hops(1))).toBe("192.0.2.1");
    expect(clientAddressOf(request(headers), hops(2))).toBe("198.51.100.7");
    expect(clientAddressOf(request(headers), hops(3))).toBe("10.0.0.1");
    // Sent twice, the header is one list; Fly-Client-IP means nothing here.
    expect(clientAddressOf(request({ "x-forwarded-for": ["10.0.0.1", "198.51.100.7"] }), hops(1))).toBe("198.51.100.7");
    expect(clientAddressOf(request({ "fly-client-ip": "10.0.0.3" }), hops(1))).toBe(SOCKET);
  });

  it("with TRUSTED_PROXY_HOPS=N, falls back to the socket when fewer than N proxies wrote an entry", () => {
    expect(clientAddressOf(request({ "x-forwarded-for": "10.0.0.1" }), hops(2))).toBe(SOCKET);
    expect(clientAddressOf(request({}), hops(1))).toBe(SOCKET);
    expect(clientAddressOf(request({ "x-forwarded-for": "10.0.0.1, " }), hops(1))).toBe(SOCKET);
  });

  it("lets a client rotating X-Forwarded-For change nothing but the entries before our proxy's", () => {
    const trust: ProxyTrust = hops(1);
    const seen = new Set(
      ["1.1.1.1", "2.2.2.2", "3.3.3.3"].map((spoofed) =>
        clientAddressOf(request({ "x-forwarded-for": `${spoofed}, 198.51.100.7` }), trust),
      ),
    );
    expect([...seen]).toEqual(["198.51.100.7"]);
  });
});

describe("isHttps", () => {
  it("believes X-Forwarded-Proto only from a trusted proxy", () => {
    expect(isHttps(request({ "x-forwarded-proto": "https" }), none)).toBe(false);
    expect(isHttps(request({ "x-forwarded-proto": "https" }), fly)).toBe(true);
    expect(isHttps(request({ "x-forwarded-proto": "https" }), hops(1))).toBe(true);
    expect(isHttps(request({ "x-forwarded-proto": "HTTPS" }), hops(1))).toBe(true);
    expect(isHttps(request({ "x-forwarded-proto": "http" }), fly)).toBe(false);
    expect(isHttps(request({}), fly)).toBe(false);
  });

  it("reads the trusted proxy's entry when proxies append: the last behind Fly, N from the right with hops", () => {
    expect(isHttps(request({ "x-forwarded-proto": "https, http" }), fly)).toBe(false);
    expect(isHttps(request({ "x-forwarded-proto": "http, https" }), fly)).toBe(true);
    expect(isHttps(request({ "x-forwarded-proto": "http, https, http" }), hops(2))).toBe(true);
    expect(isHttps(request({ "x-forwarded-proto": "https, http" }), hops(1))).toBe(false);
  });

  it("is true on a TLS socket whatever the headers say", () => {
    expect(isHttps(request({}, true), none)).toBe(true);
    expect(isHttps(request({ "x-forwarded-proto": "http" }, true), fly)).toBe(true);
  });
});
