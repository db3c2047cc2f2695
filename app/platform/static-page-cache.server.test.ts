import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaticPageCache } from "./static-page-cache.server";

let renders = 0;
const cache = createStaticPageCache(async (path, nonce) => {
  renders += 1;
  if (path === "/faq") return { status: 500, html: "broken" };
  return {
    status: 200,
    html: `<html><script nonce="${nonce}">1</script><p>${path}</p><script nonce="${nonce}">2</script></html>`,
  };
}, "__session");

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    cache.tryServe(req, res).then((served) => {
      if (!served) res.writeHead(299).end("passed on");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("static page cache", () => {
  it("renders once and answers every request with a fresh nonce in header and body", async () => {
    const first = await fetch(`${base}/about`);
    const second = await fetch(`${base}/about`);
    expect(renders).toBe(1);
    const nonces = await Promise.all(
      [first, second].map(async (response) => {
        const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
        const body = await response.text();
        expect(body.match(/nonce="([^"]+)"/g)).toEqual([`nonce="${nonce}"`, `nonce="${nonce}"`]);
        expect(body).not.toContain("nonce-placeholder");
        return nonce;
      }),
    );
    expect(nonces[0]).not.toEqual(nonces[1]);
  });

  it("gzips when the client accepts it", async () => {
    const response = await new Promise<{ encoding?: string; body: Buffer }>((resolve) => {
      import("node:http").then(({ get }) =>
        get(`${base}/about`, { headers: { "accept-encoding": "gzip" } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
        }),
      );
    });
    expect(response.encoding).toBe("gzip");
    expect(gunzipSync(response.body).toString()).toContain("<p>/about</p>");
  });

  it.each([
    ["a query string", "/about?x=1", {}],
    ["a signed-in visitor", "/about", { cookie: "theme=dark; __session=abc" }],
    ["another path", "/login", {}],
    ["a page that did not render with 200", "/faq", {}],
  ])("passes on %s", async (_case, path, headers) => {
    const response = await fetch(`${base}${path}`, { headers });
    expect(response.status).toBe(299);
  });

  it("passes on anything but GET and HEAD", async () => {
    const response = await fetch(`${base}/about`, { method: "POST" });
    expect(response.status).toBe(299);
  });
});
